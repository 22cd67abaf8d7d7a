import { useMemo, useRef, useState } from 'react';
import {
  ActionIcon,
  Alert,
  Button,
  Checkbox,
  Group,
  Modal,
  MultiSelect,
  Paper,
  Popover,
  Select,
  SimpleGrid,
  Stack,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { IconPencil, IconTableColumn } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import type { Language, TextTree } from '../../../core/i18n/translate';
import { constraintProblems, isContainerKind, kindOf } from '../../../core/studio/field-kinds';
import {
  addField,
  changeField,
  columnLists,
  conditionProblems,
  decidingFields,
  fieldDesignOf,
  fieldPlaces,
  fileText,
  FORM_FIELD_TYPES,
  moveField,
  removeField,
  sectionCondition,
  sectionFields,
  setFieldColumn,
  setSectionCondition,
  siblingFields,
  workflowLists,
  type FieldCondition,
  type FormFieldDesign,
  type FormFiles,
} from '../../../core/studio/schema-design';
import { DocumentForm } from '../../../engine/form';
import { asNode, isNode, type Node } from '../../../core/definitions/json';
import { isFieldName } from '../../../core/definitions/names';
import { entityValidators } from '../../../engine/form/loadEntityValidators';
import type { DocumentData, DocumentFormHandle } from '../../../engine/form/types';
import { usePortal } from '../../context';
import { documentServices } from '../../documentServices';
import { FieldButtons, PreviewFrame, textBinding, TextPair } from './designerParts';
import { textsFile } from './TextFields';
import { decidingLabel, enumLabel, FieldConditionInputs } from './FieldCondition';
import { FieldConstraints, type DocumentTypeChoice } from './FieldConstraints';
import { draftCatalogs, draftDefinitions, draftIds, parseNode } from './draftFiles';
import { JsonEditor } from './JsonEditor';
import { KeepDialog } from './StudioDialog';
import {
  previewValidatorsBase,
  type CheckResult,
  type DraftChanges,
  type StudioDraft,
  useDraftCheck,
} from './useStudioDraft';
import { ErrorAlert } from '../../../engine/ErrorAlert';

const schemaFile = (id: string) => `schemas/${id}.schema.json`;

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
  const workflows = useMemo(() => draftDefinitions(draft, 'workflows'), [draft]);
  const workflowPath = workflows.find((w) => w.definition.document === entity)?.path;
  const files = useMemo((): FormFiles | undefined => {
    const definition = parseNode(file(schemaFile(entity)));
    if (!definition) return undefined;
    const texts = (path: string) => parseNode(file(path)) ?? {};
    return {
      entity: definition,
      en: texts(textsFile(entity, 'en')),
      fr: texts(textsFile(entity, 'fr')),
      shared: { en: texts(textsFile('', 'en')), fr: texts(textsFile('', 'fr')) },
      workflow: workflowPath ? parseNode(file(workflowPath)) : undefined,
    };
  }, [file, entity, workflowPath]);
  const documentTypes = useMemo(
    () =>
      workflows.map(({ definition }) => ({
        id: String(definition.document ?? definition.id),
        statuses: Object.keys(asNode(asNode(definition.machine)?.states) ?? {}),
      })),
    [workflows],
  );
  const { checking, result: preview, failure, run } = useDraftCheck(draft);
  // The section worked on: the list shows it and the preview opens on it.
  const [focus, setFocus] = useState<string | undefined>();
  const previewDraft = (pending: DraftChanges = {}) => run(entity, pending);

  /** Writes the files a change touched into the draft and previews the result. */
  const apply = (next: FormFiles, section?: string) => {
    if (section) setFocus(section);
    const written: Array<[string, unknown]> = [
      [schemaFile(entity), next.entity],
      [textsFile(entity, 'en'), next.en],
      [textsFile(entity, 'fr'), next.fr],
      [textsFile('', 'en'), next.shared?.en],
      [textsFile('', 'fr'), next.shared?.fr],
      ...(workflowPath ? [[workflowPath, next.workflow] as [string, unknown]] : []),
    ];
    const pending: DraftChanges = {};
    for (const [path, value] of written) {
      if (value === undefined) continue;
      const text = fileText(value);
      // Only what changed: a shared file rewritten the same would still count as a change.
      if (JSON.stringify(parseNode(file(path))) !== JSON.stringify(value)) pending[path] = text;
    }
    for (const [path, text] of Object.entries(pending)) draft.setFile(path, text);
    void previewDraft(pending);
  };

  if (!files)
    return <ErrorAlert>{t('studio.form.unreadable', { file: schemaFile(entity) })}</ErrorAlert>;
  return (
    <Stack gap="md">
      <SimpleGrid cols={{ base: 1, md: 2 }}>
        <Stack gap="md">
          <AddFieldForm files={files} draft={draft} documentTypes={documentTypes} onAdd={apply} />
          <SectionFields
            files={files}
            draft={draft}
            documentTypes={documentTypes}
            section={focus}
            onSection={setFocus}
            onChange={apply}
          />
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
      {preview && (
        <FormPreview
          entity={entity}
          result={preview}
          checking={checking}
          section={focus?.split('/')[0]}
        />
      )}
    </Stack>
  );
}

/** A type's texts in the reader's language (its English ones where the French lack a text). */
function useReaderTexts(files: FormFiles): Node {
  const { i18n } = useTranslation();
  return i18n.language.startsWith('fr') ? files.fr : files.en;
}

/** A place's label: the titles of its section and groups, then its path. */
function placeLabel(texts: Node, place: string): string {
  const names = place.split('/');
  const titles: string[] = [];
  let node: unknown = texts;
  for (const name of names) {
    node = asNode(node)?.[name];
    titles.push(groupTitle(node) ?? (typeof node === 'string' ? node : name));
  }
  return `${titles.join(' › ')} (${place})`;
}

/**
 * The form of a field: added to a section, or (given the field as it is, `start`) changed in
 * place, its section and name kept.
 */
function AddFieldForm(props: {
  files: FormFiles;
  draft: Pick<StudioDraft, 'paths' | 'file'>;
  documentTypes: DocumentTypeChoice[];
  onAdd: (files: FormFiles, section: string) => void;
  /** The field as it is: the form changes it instead of adding one. */
  start?: FormFieldDesign;
  onCancel?: () => void;
}) {
  const { t } = useTranslation();
  // The reader's texts: a French analyst reads the form's places and fields in French.
  const shown = useReaderTexts(props.files);
  const { files, start } = props;
  const changing = start !== undefined;
  const places = fieldPlaces(files.entity);
  const catalogs = draftCatalogs(props.draft);
  const lists = workflowLists(files);
  const empty: FormFieldDesign = {
    section: places[0] ?? '',
    name: '',
    type: 'text',
    required: false,
    labelEn: '',
    labelFr: '',
  };
  const [field, setField] = useState<FormFieldDesign>(() => {
    if (!start) return empty;
    // The form chooses a condition's field by pointer; the design names the sibling.
    const condition = start.requiredWhen;
    const decider =
      condition && siblingFields(files, start.section).find((s) => s.name === condition.field);
    return {
      ...start,
      requiredWhen: condition && decider ? { ...condition, field: decider.pointer } : undefined,
    };
  });
  const [error, setError] = useState<string | undefined>();
  const set = (change: Partial<FormFieldDesign>) => setField((old) => ({ ...old, ...change }));
  const text = textBinding(field, set);
  const inList = useMemo(() => {
    let node: unknown = files.entity.schema;
    for (const name of field.section.split('/')) {
      node = asNode(asNode(node)?.properties)?.[name];
      if (asNode(node)?.type === 'array') return true;
    }
    return false;
  }, [files.entity, field.section]);
  const siblings = useMemo(() => {
    try {
      return siblingFields(files, field.section);
    } catch {
      return [];
    }
  }, [files, field.section]);

  const add = () => {
    if (!changing && !isFieldName(field.name))
      return setError(t('studio.catalog.badField', { name: field.name }));
    if (!field.labelEn.trim() || !field.labelFr.trim())
      return setError(t('studio.form.labelsRequired'));
    if (!changing && sectionFields(files, field.section).includes(field.name))
      return setError(t('studio.form.problems.duplicate', { name: field.name }));
    const requiredWhen =
      field.required || isContainerKind(field.type) ? undefined : field.requiredWhen;
    const problems = [
      ...constraintProblems(
        field.type,
        inList ? { ...field, patternMessageEn: 'x', patternMessageFr: 'x' } : field,
      ),
      ...conditionProblems(requiredWhen),
    ];
    if (problems[0]) return setError(t(`studio.form.problems.${problems[0]}`));
    // The condition is chosen by pointer; the `if`/`then` names the sibling by its name.
    const decider = siblings.find((s) => s.pointer === requiredWhen?.field);
    const design: FormFieldDesign = {
      ...field,
      requiredWhen: requiredWhen && decider ? { ...requiredWhen, field: decider.name } : undefined,
      columnIn: inList ? [] : field.columnIn,
    };
    try {
      const next = changing ? changeField(files, design) : addField(files, design);
      props.onAdd(next, field.section);
    } catch (failure) {
      return setError(failure instanceof Error ? failure.message : String(failure));
    }
    if (changing) return;
    setError(undefined);
    setField({ ...empty, section: field.section });
  };

  return (
    <Paper
      withBorder={!changing}
      p={changing ? 0 : 'md'}
      component="section"
      aria-labelledby={changing ? undefined : 'add-field-title'}
    >
      <form
        noValidate
        onSubmit={(event) => {
          event.preventDefault();
          add();
        }}
      >
        <Stack gap="sm">
          {!changing && (
            <Title order={3} size="h4" id="add-field-title">
              {t('studio.form.addField')}
            </Title>
          )}
          <Select
            label={t('studio.form.section')}
            description={changing ? undefined : t('studio.form.sectionHelp')}
            data={places.map((id) => ({ value: id, label: placeLabel(shown, id) }))}
            value={field.section}
            allowDeselect={false}
            readOnly={changing}
            searchable={!changing}
            onChange={(value) => value && set({ section: value, requiredWhen: undefined })}
          />
          <SimpleGrid cols={{ base: 1, sm: 2 }}>
            <TextInput
              label={t('studio.catalog.fieldName')}
              description={changing ? undefined : t('studio.form.nameHelp')}
              required
              readOnly={changing}
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
            <TextPair text={text} stem="label" labels="studio.catalog" required />
            <TextPair text={text} stem="help" labels="studio.form" />
          </SimpleGrid>
          {changing && field.type !== start.type && (
            <Alert color="yellow" role="status">
              {t('studio.form.kindChanged')}
            </Alert>
          )}
          <FieldConstraints
            field={field}
            set={set}
            catalogs={catalogs}
            documentTypes={props.documentTypes}
            inList={inList}
          />
          {!isContainerKind(field.type) && (
            <Checkbox
              label={t('studio.catalog.required')}
              checked={field.required}
              onChange={(event) => set({ required: event.currentTarget.checked })}
            />
          )}
          {!field.required && !isContainerKind(field.type) && siblings.length > 0 && (
            <FieldConditionInputs
              legend={t('studio.form.requiredWhen')}
              placeholder={t('studio.form.conditionNone')}
              fields={siblings}
              fieldLabel={(f) => decidingLabel(shown, f)}
              valueLabel={(f, value) => enumLabel(shown, f, value)}
              condition={field.requiredWhen}
              onChange={(requiredWhen) => set({ requiredWhen })}
            />
          )}
          {!inList && !isContainerKind(field.type) && lists.length > 0 && (
            <MultiSelect
              label={t('studio.form.columnIn')}
              description={t('studio.form.columnInHelp')}
              data={lists.map((list) => ({ value: list.id, label: listLabel(list, t) }))}
              value={field.columnIn ?? []}
              onChange={(columnIn) => set({ columnIn })}
            />
          )}
          <ErrorAlert>{error}</ErrorAlert>
          <Group justify={changing ? 'flex-end' : undefined}>
            {props.onCancel && (
              <Button variant="default" onClick={props.onCancel}>
                {t('studio.cancel')}
              </Button>
            )}
            <Button type="submit">
              {t(changing ? 'studio.form.applyChange' : 'studio.form.addButton')}
            </Button>
          </Group>
        </Stack>
      </form>
    </Paper>
  );
}

/** A list by its menu text and id ("Find (find)"). */
const listLabel = (list: { id: string; label: string }, t: (key: string) => string) =>
  `${t(list.label)} (${list.id})`;

/** The fields of one section in order, each changed, moved or removed with a button. */
export function SectionFields(props: {
  files: FormFiles;
  draft: Pick<StudioDraft, 'paths' | 'file'>;
  documentTypes: DocumentTypeChoice[];
  /** The section shown (the first one when none is, or it is gone). */
  section: string | undefined;
  onSection: (section: string) => void;
  onChange: (files: FormFiles, section: string) => void;
}) {
  const { t } = useTranslation();
  // The reader's texts: a French analyst reads the form's places and fields in French.
  const shown = useReaderTexts(props.files);
  const { files } = props;
  const places = fieldPlaces(files.entity);
  const section =
    props.section && places.includes(props.section) ? props.section : (places[0] ?? '');
  const setSection = props.onSection;
  const fields = section ? sectionFields(files, section) : [];
  const [removing, setRemoving] = useState<string | undefined>();
  const [changing, setChanging] = useState<string | undefined>();
  // Undefined for a field the designer cannot write back as it is: changed in the JSON.
  const design = useMemo(
    () => (changing ? fieldDesignOf(files, section, changing) : undefined),
    [files, section, changing],
  );
  const lists = workflowLists(files);
  const textsOf = (name: string) =>
    [...section.split('/'), name].reduce<unknown>((node, part) => asNode(node)?.[part], shown);
  const label = (name: string) => {
    const text = textsOf(name);
    return typeof text === 'string' ? text : (groupTitle(text) ?? name);
  };
  const inList = section.split('/').some((_, i, names) => {
    let node: unknown = files.entity.schema;
    for (const name of names.slice(0, i + 1)) node = asNode(asNode(node)?.properties)?.[name];
    return asNode(node)?.type === 'array';
  });
  const topSection = !section.includes('/');
  return (
    <Paper withBorder p="md" component="section" aria-labelledby="section-fields-title">
      <Stack gap="xs">
        <Title order={3} size="h4" id="section-fields-title">
          {t('studio.form.fields')}
        </Title>
        <Select
          label={t('studio.form.section')}
          data={places}
          value={section}
          allowDeselect={false}
          searchable
          onChange={(value) => value && setSection(value)}
        />
        {topSection && section && (
          <SectionConditionForm
            key={section}
            files={files}
            section={section}
            onChange={(next) => props.onChange(next, section)}
          />
        )}
        <ul style={{ listStyle: 'none', margin: 0, padding: 0 }}>
          {fields.map((name, index) => (
            <li key={name}>
              <Group justify="space-between" wrap="nowrap" py={4}>
                <Text size="sm">
                  {label(name)}{' '}
                  <Text span c="dimmed" size="xs">
                    ({name}
                    {kindText(files, section, name, t)})
                  </Text>
                </Text>
                <Group gap={4} wrap="nowrap">
                  <ActionIcon
                    variant="subtle"
                    aria-label={t('studio.form.changeOf', { name: label(name) })}
                    onClick={() => setChanging(name)}
                  >
                    <IconPencil size={16} />
                  </ActionIcon>
                  {!inList && lists.length > 0 && (
                    <FieldColumns
                      files={files}
                      section={section}
                      name={name}
                      label={label(name)}
                      onChange={(next) => props.onChange(next, section)}
                    />
                  )}
                  <FieldButtons
                    name={name}
                    index={index}
                    count={fields.length}
                    wrap="nowrap"
                    onMove={(by) => props.onChange(moveField(files, section, name, by), section)}
                    onRemove={() => setRemoving(name)}
                  />
                </Group>
              </Group>
            </li>
          ))}
        </ul>
      </Stack>
      <Modal
        opened={changing !== undefined}
        onClose={() => setChanging(undefined)}
        title={t('studio.form.changeTitle', { name: changing ? label(changing) : '' })}
        closeButtonProps={{ 'aria-label': t('studio.close') }}
        size="xl"
      >
        {changing && design ? (
          <AddFieldForm
            key={`${section}/${changing}`}
            files={files}
            draft={props.draft}
            documentTypes={props.documentTypes}
            start={design}
            onAdd={(next) => {
              props.onChange(next, section);
              setChanging(undefined);
            }}
            onCancel={() => setChanging(undefined)}
          />
        ) : (
          <>
            <Text>{t('studio.form.changeInJson')}</Text>
            <Group justify="flex-end" mt="md">
              <Button variant="default" onClick={() => setChanging(undefined)}>
                {t('studio.close')}
              </Button>
            </Group>
          </>
        )}
      </Modal>
      <KeepDialog
        opened={removing !== undefined}
        title={t('studio.form.removeTitle')}
        text={t('studio.form.removeText', { name: removing ? label(removing) : '' })}
        confirmLabel={t('studio.form.removeButton')}
        onClose={() => setRemoving(undefined)}
        onConfirm={() => {
          if (removing) props.onChange(removeField(files, section, removing), section);
          setRemoving(undefined);
        }}
      />
    </Paper>
  );
}

/** A field's kind in words, after its name in the list. */
function kindText(files: FormFiles, section: string, name: string, t: (key: string) => string) {
  let schema: unknown = files.entity.schema;
  let ui: unknown = files.entity.uiSchema;
  for (const part of [...section.split('/'), name]) {
    const node = asNode(schema);
    const items = node?.type === 'array' ? asNode(node.items) : undefined;
    schema = asNode((items ?? node)?.properties)?.[part];
    ui = asNode(items ? asNode(ui)?.items : ui)?.[part];
  }
  const kind = kindOf(schema, ui);
  return kind ? `, ${t(`studio.form.types.${kind}`)}` : '';
}

/** The lists showing a field as a column, chosen in a small menu of checkboxes. */
function FieldColumns(props: {
  files: FormFiles;
  section: string;
  name: string;
  label: string;
  onChange: (files: FormFiles) => void;
}) {
  const { t } = useTranslation();
  const { files, section, name } = props;
  const shown = columnLists(files, section, name);
  return (
    <Popover position="bottom-end" withArrow trapFocus>
      <Popover.Target>
        <ActionIcon
          variant={shown.length ? 'light' : 'subtle'}
          aria-label={t('studio.form.columnsOf', { name: props.label, count: shown.length })}
        >
          <IconTableColumn size={16} />
        </ActionIcon>
      </Popover.Target>
      <Popover.Dropdown>
        <Stack gap="xs" role="group" aria-label={t('studio.form.columnIn')}>
          <Text size="sm" fw={500}>
            {t('studio.form.columnIn')}
          </Text>
          {workflowLists(files).map((list) => (
            <Checkbox
              key={list.id}
              label={listLabel(list, t)}
              checked={shown.includes(list.id)}
              onChange={(event) =>
                props.onChange(
                  setFieldColumn(files, section, name, list.id, event.currentTarget.checked),
                )
              }
            />
          ))}
        </Stack>
      </Popover.Dropdown>
    </Popover>
  );
}

/** Whether the section is shown always or only while a field of another section holds a value. */
function SectionConditionForm(props: {
  files: FormFiles;
  section: string;
  onChange: (files: FormFiles) => void;
}) {
  const { t } = useTranslation();
  // The reader's texts: a French analyst reads the form's places and fields in French.
  const shown = useReaderTexts(props.files);
  const { files, section } = props;
  const saved = sectionCondition(files.entity, section);
  const [condition, setCondition] = useState<FieldCondition | undefined>(saved);
  const [error, setError] = useState<string | undefined>();
  const fields = useMemo(() => decidingFields(files.entity, section), [files.entity, section]);
  const listed = (files.entity.sections as Node[] | undefined)?.some((s) => s.id === section);
  if (!listed) return null;
  const changed = JSON.stringify(condition) !== JSON.stringify(saved);
  const save = () => {
    const problem = conditionProblems(condition)[0];
    if (problem) return setError(t(`studio.form.problems.${problem}`));
    try {
      props.onChange(setSectionCondition(files, section, condition));
      setError(undefined);
    } catch (failure) {
      setError(failure instanceof Error ? failure.message : String(failure));
    }
  };
  return (
    <Stack gap="xs">
      <FieldConditionInputs
        legend={t('studio.form.shownWhen')}
        placeholder={t('studio.form.conditionAlways')}
        fields={fields}
        fieldLabel={(f) => decidingLabel(shown, f)}
        valueLabel={(f, value) => enumLabel(shown, f, value)}
        condition={condition}
        onChange={setCondition}
        operators={['equals', 'oneOf']}
      />
      <Text size="xs" c="dimmed">
        {condition ? t('studio.form.shownWhenHelp') : t('studio.form.shownAlways')}
      </Text>
      <ErrorAlert>{error}</ErrorAlert>
      {changed && (
        <Group>
          <Button variant="default" size="xs" onClick={save}>
            {t('studio.form.saveCondition')}
          </Button>
        </Group>
      )}
    </Stack>
  );
}

/** The form as the draft defines it, in English or French, validating a sample. */
function FormPreview(props: {
  entity: string;
  result: CheckResult;
  checking: boolean;
  section?: string;
}) {
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
    <PreviewFrame id="form-preview-title" result={result} checking={props.checking}>
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
