import { useMemo, useRef, useState } from 'react';
import {
  Button,
  Checkbox,
  Group,
  NumberInput,
  Paper,
  Select,
  SimpleGrid,
  Stack,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { Language, TextTree } from '../../../core/i18n/translate';
import {
  addField,
  fieldSections,
  fileText,
  FORM_FIELD_TYPES,
  moveField,
  removeField,
  sectionFields,
  type FormFieldDesign,
  type FormFiles,
} from '../../../core/studio/schema-design';
import { DocumentForm } from '../../../engine/form';
import { asNode, isNode } from '../../../core/definitions/json';
import { isFieldName } from '../../../core/definitions/names';
import { entityValidators } from '../../../engine/form/loadEntityValidators';
import type { DocumentData, DocumentFormHandle } from '../../../engine/form/types';
import { usePortal } from '../../context';
import { documentServices } from '../../documentServices';
import { FieldButtons, PreviewFrame, textBinding } from './designerParts';
import { catalogOptions, draftCatalogs, draftIds, parseNode } from './draftFiles';
import { JsonEditor } from './JsonEditor';
import {
  previewValidatorsBase,
  type CheckResult,
  type DraftChanges,
  type StudioDraft,
  useDraftCheck,
} from './useStudioDraft';
import { ErrorAlert } from '../../../engine/ErrorAlert';

const schemaFile = (id: string) => `schemas/${id}.schema.json`;
const textsFile = (language: Language, id: string) => `translations/${language}/${id}.json`;

/** A group's own text, its `_`. */
const groupTitle = (texts: unknown) =>
  isNode(texts) && '_' in texts ? String(texts._) : undefined;

/** A document type's form: fields added, moved and removed, its JSON, and a preview. */
export function SchemaDesigner({ draft }: { draft: StudioDraft }) {
  const { t } = useTranslation();
  const { bundle } = usePortal();
  const entities = draftIds(draft.paths, /^schemas\/([^/]+)\.schema\.json$/);
  const [entity, setEntity] = useState<string | null>(null);
  const title = (id: string) => {
    const texts = bundle.translations.en?.[id];
    return typeof texts === 'object' && typeof texts._title === 'string' ? texts._title : id;
  };
  return (
    <Stack gap="md">
      <Select
        label={t('studio.form.choose')}
        placeholder={t('studio.form.choosePlaceholder')}
        data={entities.map((id) => ({ value: id, label: `${title(id)} (${id})` }))}
        value={entity}
        onChange={setEntity}
        searchable
        maw={480}
      />
      {entity && <EntityEditor key={entity} entity={entity} draft={draft} />}
    </Stack>
  );
}

function EntityEditor({ entity, draft }: { entity: string; draft: StudioDraft }) {
  const { t } = useTranslation();
  const { file } = draft;
  const files = useMemo((): FormFiles | undefined => {
    const definition = parseNode(file(schemaFile(entity)));
    if (!definition) return undefined;
    return {
      entity: definition,
      en: parseNode(file(textsFile('en', entity))) ?? {},
      fr: parseNode(file(textsFile('fr', entity))) ?? {},
    };
  }, [file, entity]);
  const { checking, result: preview, failure, run } = useDraftCheck(draft);
  // The section worked on: the list shows it and the preview opens on it.
  const [focus, setFocus] = useState<string | undefined>();
  const previewDraft = (pending: DraftChanges = {}) => run(entity, pending);

  /** Writes the three files of a change into the draft and previews the result. */
  const apply = (next: FormFiles, section?: string) => {
    if (section) setFocus(section);
    const pending: DraftChanges = {
      [schemaFile(entity)]: fileText(next.entity),
      [textsFile('en', entity)]: fileText(next.en),
      [textsFile('fr', entity)]: fileText(next.fr),
    };
    for (const [path, text] of Object.entries(pending)) draft.setFile(path, text);
    void previewDraft(pending);
  };

  if (!files)
    return <ErrorAlert>{t('studio.form.unreadable', { file: schemaFile(entity) })}</ErrorAlert>;
  return (
    <Stack gap="md">
      <SimpleGrid cols={{ base: 1, md: 2 }}>
        <Stack gap="md">
          <AddFieldForm files={files} draft={draft} onAdd={apply} />
          <SectionFields files={files} section={focus} onSection={setFocus} onChange={apply} />
        </Stack>
        <JsonEditor
          file={schemaFile(entity)}
          draft={draft}
          onApplied={(text) => void previewDraft({ [schemaFile(entity)]: text })}
        />
      </SimpleGrid>
      <Group>
        <Button variant="default" onClick={() => void previewDraft()} loading={checking}>
          {t('studio.form.previewButton')}
        </Button>
      </Group>
      <ErrorAlert>{failure?.message}</ErrorAlert>
      {preview && <FormPreview entity={entity} result={preview} section={focus} />}
    </Stack>
  );
}

function AddFieldForm(props: {
  files: FormFiles;
  draft: StudioDraft;
  onAdd: (files: FormFiles, section: string) => void;
}) {
  const { t } = useTranslation();
  const sections = fieldSections(props.files.entity);
  const catalogs = draftCatalogs(props.draft);
  const empty: FormFieldDesign = {
    section: sections[0] ?? '',
    name: '',
    type: 'text',
    required: false,
    labelEn: '',
    labelFr: '',
  };
  const [field, setField] = useState<FormFieldDesign>(empty);
  const [error, setError] = useState<string | undefined>();
  const set = (change: Partial<FormFieldDesign>) => setField((old) => ({ ...old, ...change }));
  const text = textBinding(field, set);
  const sectionLabel = (id: string) => {
    const title = groupTitle(props.files.en[id]);
    return title === undefined ? id : `${title} (${id})`;
  };

  const add = () => {
    if (!isFieldName(field.name))
      return setError(t('studio.catalog.badField', { name: field.name }));
    if (!field.labelEn.trim() || !field.labelFr.trim())
      return setError(t('studio.form.labelsRequired'));
    if (field.type === 'catalog' && !field.catalog)
      return setError(t('studio.form.catalogRequired'));
    try {
      props.onAdd(addField(props.files, field), field.section);
    } catch (failure) {
      return setError(failure instanceof Error ? failure.message : String(failure));
    }
    setError(undefined);
    setField({ ...empty, section: field.section });
  };

  return (
    <Paper withBorder p="md" component="section" aria-labelledby="add-field-title">
      <form
        noValidate
        onSubmit={(event) => {
          event.preventDefault();
          add();
        }}
      >
        <Stack gap="sm">
          <Title order={3} size="h4" id="add-field-title">
            {t('studio.form.addField')}
          </Title>
          <Select
            label={t('studio.form.section')}
            data={sections.map((id) => ({ value: id, label: sectionLabel(id) }))}
            value={field.section}
            allowDeselect={false}
            onChange={(value) => value && set({ section: value })}
          />
          <SimpleGrid cols={{ base: 1, sm: 2 }}>
            <TextInput
              label={t('studio.catalog.fieldName')}
              description={t('studio.form.nameHelp')}
              required
              {...text('name', true)}
            />
            <Select
              label={t('studio.catalog.fieldType')}
              data={FORM_FIELD_TYPES.map((type) => ({
                value: type,
                label: t(`studio.form.types.${type}`),
              }))}
              value={field.type}
              allowDeselect={false}
              onChange={(value) => value && set({ type: value as FormFieldDesign['type'] })}
            />
            {(field.type === 'text' || field.type === 'longText') && (
              <NumberInput
                label={t('studio.catalog.maxLength')}
                min={1}
                max={4000}
                value={field.maxLength ?? ''}
                onChange={(value) =>
                  set({ maxLength: typeof value === 'number' ? value : undefined })
                }
              />
            )}
            {field.type === 'catalog' && (
              <Select
                label={t('studio.form.catalog')}
                required
                searchable
                data={catalogOptions(catalogs)}
                value={field.catalog ?? null}
                onChange={(value) => set({ catalog: value ?? undefined })}
              />
            )}
            <TextInput
              label={t('studio.catalog.labelEn')}
              required
              lang="en"
              {...text('labelEn')}
            />
            <TextInput
              label={t('studio.catalog.labelFr')}
              required
              lang="fr"
              {...text('labelFr')}
            />
            <TextInput label={t('studio.form.helpEn')} lang="en" {...text('helpEn')} />
            <TextInput label={t('studio.form.helpFr')} lang="fr" {...text('helpFr')} />
          </SimpleGrid>
          <Checkbox
            label={t('studio.catalog.required')}
            checked={field.required}
            onChange={(event) => set({ required: event.currentTarget.checked })}
          />
          <ErrorAlert>{error}</ErrorAlert>
          <Group>
            <Button type="submit">{t('studio.form.addButton')}</Button>
          </Group>
        </Stack>
      </form>
    </Paper>
  );
}

/** The fields of one section in order, each moved or removed with a button. */
function SectionFields(props: {
  files: FormFiles;
  /** The section shown (the first one when none is, or it is gone). */
  section: string | undefined;
  onSection: (section: string) => void;
  onChange: (files: FormFiles, section: string) => void;
}) {
  const { t } = useTranslation();
  const sections = fieldSections(props.files.entity);
  const section =
    props.section && sections.includes(props.section) ? props.section : (sections[0] ?? '');
  const setSection = props.onSection;
  const fields = section ? sectionFields(props.files, section) : [];
  const label = (name: string) => {
    const text = asNode(props.files.en[section])?.[name];
    return typeof text === 'string' ? text : (groupTitle(text) ?? name);
  };
  return (
    <Paper withBorder p="md" component="section" aria-labelledby="section-fields-title">
      <Stack gap="xs">
        <Title order={3} size="h4" id="section-fields-title">
          {t('studio.form.fields')}
        </Title>
        <Select
          label={t('studio.form.section')}
          data={sections}
          value={section}
          allowDeselect={false}
          onChange={(value) => value && setSection(value)}
        />
        <ul style={{ listStyle: 'none', margin: 0, padding: 0 }}>
          {fields.map((name, index) => (
            <li key={name}>
              <Group justify="space-between" wrap="nowrap" py={4}>
                <Text size="sm">
                  {label(name)}{' '}
                  <Text span c="dimmed" size="xs">
                    ({name})
                  </Text>
                </Text>
                <FieldButtons
                  name={name}
                  index={index}
                  count={fields.length}
                  wrap="nowrap"
                  onMove={(by) =>
                    props.onChange(moveField(props.files, section, name, by), section)
                  }
                  onRemove={() => props.onChange(removeField(props.files, section, name), section)}
                />
              </Group>
            </li>
          ))}
        </ul>
      </Stack>
    </Paper>
  );
}

/** The form as the draft defines it, in English or French, validating a sample. */
function FormPreview(props: { entity: string; result: CheckResult; section?: string }) {
  const { entity, result } = props;
  const { t } = useTranslation();
  const { api, session } = usePortal();
  const [value, setValue] = useState<DocumentData>({});
  const [verdict, setVerdict] = useState<string | undefined>();
  const form = useRef<DocumentFormHandle>(null);
  const part = result.document;
  const validators = useMemo(
    () => result.version && entityValidators(entity, previewValidatorsBase(result.version)),
    [entity, result.version],
  );
  const texts = useMemo(() => {
    if (!part) return {};
    const tree = (language: Language): TextTree => ({
      ...(part.shared[language] ?? {}),
      [entity]: part.translations[language] ?? {},
    });
    return { en: tree('en'), fr: tree('fr') };
  }, [part, entity]);
  const services = useMemo(() => {
    // Catalogue look-ups read the served catalogues; nothing is uploaded or saved in a preview.
    const { searchCatalog } = documentServices(api, session);
    return { searchCatalog };
  }, [api, session]);
  return (
    <PreviewFrame id="form-preview-title" result={result}>
      {(language) =>
        result.valid &&
        part &&
        validators && (
          <>
            <div lang={language} data-testid="form-preview">
              <DocumentForm
                key={`${result.version}-${language}`}
                ref={form}
                definition={part.schema}
                texts={texts}
                language={language}
                value={value}
                onChange={setValue}
                validators={validators}
                services={services}
                initialSection={props.section}
              />
            </div>
            <Group>
              <Button
                variant="default"
                onClick={() => {
                  const errors = form.current?.validateAll() ?? [];
                  setVerdict(
                    errors.length
                      ? t('studio.form.sampleInvalid', { count: errors.length })
                      : t('studio.form.sampleValid'),
                  );
                }}
              >
                {t('studio.form.checkSample')}
              </Button>
            </Group>
            {verdict && (
              <Text role="status" size="sm">
                {verdict}
              </Text>
            )}
          </>
        )
      }
    </PreviewFrame>
  );
}
