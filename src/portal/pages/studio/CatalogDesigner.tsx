import { useMemo, useState } from 'react';
import {
  Alert,
  Button,
  Checkbox,
  Group,
  NumberInput,
  Paper,
  Select,
  SimpleGrid,
  Stack,
  Switch,
  Table,
  TagsInput,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { roleList, type CatalogDefinition } from '../../../core/definitions/types';
import { CURRENCY } from '../../../core/format';
import {
  CATALOG_FIELD_TYPES,
  catalogFile,
  catalogFileText,
  catalogOfDesign,
  designOfCatalog,
  designProblems,
  mayBeMoney,
  mayTranslate,
  newCatalogDesign,
  newField,
  type CatalogDesign,
  type CatalogFieldDesign,
} from '../../../core/studio/catalog-design';
import { CatalogEntryForm } from '../../../engine';
import { usePortal } from '../../context';
import { FieldButtons, PreviewFrame, textBinding, TextPair } from './designerParts';
import { catalogOptions, draftCatalogs } from './draftFiles';
import { KeepDialog } from './StudioDialog';
import {
  previewValidatorUrl,
  useDraftCheck,
  type CheckResult,
  type StudioDraft,
} from './useStudioDraft';
import { ErrorAlert } from '../../../engine/ErrorAlert';

const NEW = '';

/** Creates and changes catalogues with forms, previewed from the server's check of the draft. */
export function CatalogDesigner({ draft }: { draft: StudioDraft }) {
  const { t } = useTranslation();
  const { paths, file } = draft;
  const catalogs = useMemo(() => draftCatalogs({ paths, file }), [paths, file]);
  const [selected, setSelected] = useState<string>(NEW);
  // The form starts afresh when another catalogue is chosen, not when a new one is saved.
  const [opened, setOpened] = useState<string>(NEW);
  const before = catalogs.find((c) => c.id === selected);
  return (
    <Stack gap="md">
      <Select
        label={t('studio.catalog.choose')}
        data={[
          { value: NEW, label: t('studio.catalog.new') },
          ...catalogs
            .map((c) => ({ value: c.id, label: `${c.labels.en?.title ?? c.id} (${c.id})` }))
            .sort((a, b) => a.label.localeCompare(b.label)),
        ]}
        value={selected}
        onChange={(value) => {
          setSelected(value ?? NEW);
          setOpened(value ?? NEW);
        }}
        searchable
        allowDeselect={false}
        maw={480}
      />
      <CatalogForm
        key={opened}
        draft={draft}
        catalogs={catalogs}
        before={before}
        onSaved={setSelected}
        onRemoved={() => {
          setSelected(NEW);
          setOpened(NEW);
        }}
      />
    </Stack>
  );
}

function CatalogForm(props: {
  draft: StudioDraft;
  catalogs: CatalogDefinition[];
  before: CatalogDefinition | undefined;
  onSaved: (id: string) => void;
  onRemoved: () => void;
}) {
  const { t } = useTranslation();
  const { draft, catalogs, before } = props;
  const [design, setDesign] = useState<CatalogDesign>(() =>
    before ? designOfCatalog(before) : newCatalogDesign(),
  );
  const [problems, setProblems] = useState<string[]>([]);
  const [askRemove, setAskRemove] = useState(false);
  const [preview, setPreview] = useState<{ result: CheckResult; catalog: CatalogDefinition }>();
  const { checking, failure, run } = useDraftCheck(draft);

  const categories = [...new Set(catalogs.map((c) => c.category))].sort();
  const roles = [
    ...new Set(
      catalogs.flatMap((c) => [...roleList(c.searcherRoles), ...roleList(c.managerRoles)]),
    ),
  ].sort();
  const set = (change: Partial<CatalogDesign>) => setDesign((old) => ({ ...old, ...change }));
  const text = textBinding(design, set);
  const setField = (index: number, change: Partial<CatalogFieldDesign>) =>
    set({ fields: design.fields.map((f, i) => (i === index ? { ...f, ...change } : f)) });
  const moveField = (index: number, by: -1 | 1) => {
    const fields = [...design.fields];
    const [moved] = fields.splice(index, 1);
    if (moved) fields.splice(index + by, 0, moved);
    set({ fields });
  };

  const save = async () => {
    const found = designProblems(design);
    setProblems(found.map((p) => t(p.key, p.values)));
    if (found.length > 0) return;
    const catalog = catalogOfDesign(design, before);
    const [file, json] = [catalogFile(design.id), catalogFileText(catalog)];
    draft.setFile(file, json);
    // The check sees the draft as it is after this change: the file is given again.
    const result = await run(undefined, { [file]: json });
    if (!result) return;
    setPreview({ result, catalog });
    if (!before) props.onSaved(design.id);
  };

  return (
    <Stack gap="md">
      <form
        noValidate
        aria-label={t('studio.catalog.formLabel')}
        onSubmit={(event) => {
          event.preventDefault();
          void save();
        }}
      >
        <Stack gap="md">
          <SimpleGrid cols={{ base: 1, sm: 2 }}>
            <TextInput
              label={t('studio.catalog.id')}
              description={t('studio.catalog.idHelp')}
              required
              disabled={before !== undefined}
              {...text('id', true)}
            />
            <Select
              label={t('studio.catalog.category')}
              required
              data={categories.map((c) => ({
                value: c,
                label: t(`menu.categories.${c.replace(/\./g, '-')}`, c),
              }))}
              value={design.category || null}
              onChange={(value) => set({ category: value ?? '' })}
            />
            <TextPair text={text} stem="title" labels="studio.catalog" required />
            {(['searcherRoles', 'managerRoles'] as const).map((key) => (
              <TagsInput
                key={key}
                label={t(`studio.catalog.${key}`)}
                description={t('studio.catalog.rolesHelp')}
                data={roles}
                value={roleList(design[key])}
                onChange={(value) => set({ [key]: value.join(', ') })}
              />
            ))}
          </SimpleGrid>
          <Title order={3} size="h4">
            {t('studio.catalog.fields')}
          </Title>
          {design.fields.map((field, index) => (
            <FieldEditor
              key={index}
              index={index}
              field={field}
              count={design.fields.length}
              catalogs={catalogs}
              onChange={(change) => setField(index, change)}
              onMove={(by) => moveField(index, by)}
              onRemove={() => set({ fields: design.fields.filter((_, i) => i !== index) })}
            />
          ))}
          <Group>
            <Button
              variant="default"
              onClick={() => set({ fields: [...design.fields, newField()] })}
            >
              {t('studio.catalog.addField')}
            </Button>
          </Group>
          <ErrorAlert>
            {problems.length > 0 &&
              problems.map((problem) => (
                <Text key={problem} size="sm">
                  {problem}
                </Text>
              ))}
          </ErrorAlert>
          <ErrorAlert>{failure?.message}</ErrorAlert>
          <Group>
            <Button type="submit" loading={checking}>
              {t('studio.catalog.save')}
            </Button>
            {before && (
              <Button variant="subtle" color="red" onClick={() => setAskRemove(true)}>
                {t('studio.catalog.remove')}
              </Button>
            )}
          </Group>
        </Stack>
      </form>
      {preview && <CatalogPreview {...preview} catalogs={catalogs} checking={checking} />}
      <KeepDialog
        opened={askRemove}
        title={t('studio.catalog.removeTitle')}
        text={t('studio.catalog.removeText', { title: design.titleEn || design.id })}
        confirmLabel={t('studio.catalog.remove')}
        onClose={() => setAskRemove(false)}
        onConfirm={() => {
          draft.setFile(catalogFile(design.id), null);
          setAskRemove(false);
          props.onRemoved();
        }}
      />
    </Stack>
  );
}

function FieldEditor(props: {
  index: number;
  count: number;
  field: CatalogFieldDesign;
  catalogs: CatalogDefinition[];
  onChange: (change: Partial<CatalogFieldDesign>) => void;
  onMove: (by: -1 | 1) => void;
  onRemove: () => void;
}) {
  const { t } = useTranslation();
  const { field, index, onChange } = props;
  const name = field.name || t('studio.catalog.fieldNumber', { number: index + 1 });
  const text = textBinding(field, onChange);
  return (
    <Paper withBorder p="sm" component="fieldset" aria-label={name}>
      <Stack gap="xs">
        <Group justify="space-between">
          <Text fw={600} size="sm">
            {name}
          </Text>
          <FieldButtons
            name={name}
            index={index}
            count={props.count}
            onMove={props.onMove}
            onRemove={props.onRemove}
          />
        </Group>
        <SimpleGrid cols={{ base: 1, sm: 2, lg: 4 }}>
          <TextInput label={t('studio.catalog.fieldName')} required {...text('name', true)} />
          <Select
            label={t('studio.catalog.fieldType')}
            data={CATALOG_FIELD_TYPES.map((type) => ({
              value: type,
              label: t(`studio.catalog.types.${type}`),
            }))}
            value={field.type}
            allowDeselect={false}
            onChange={(value) => value && onChange({ type: value as CatalogFieldDesign['type'] })}
          />
          <NumberInput
            label={t('studio.catalog.maxLength')}
            disabled={field.type !== 'text'}
            min={1}
            max={4000}
            value={field.maxLength ?? ''}
            onChange={(value) =>
              onChange({ maxLength: typeof value === 'number' ? value : undefined })
            }
          />
          <Select
            label={t('studio.catalog.reference')}
            placeholder={t('studio.catalog.noReference')}
            clearable
            clearButtonProps={{ 'aria-label': t('studio.catalog.clearReference') }}
            searchable
            data={catalogOptions(props.catalogs)}
            value={field.reference ?? null}
            onChange={(value) => onChange({ reference: value ?? undefined })}
          />
          <TextPair text={text} stem="label" labels="studio.catalog" required />
        </SimpleGrid>
        <Group gap="lg">
          {(['required', 'key', 'column'] as const).map((flag) => (
            <Checkbox
              key={flag}
              label={t(`studio.catalog.${flag}`)}
              checked={field[flag]}
              onChange={(event) => onChange({ [flag]: event.currentTarget.checked })}
            />
          ))}
          {/* A text the entry owns may be given in every language; a number may be money. */}
          <Switch
            label={t('studio.catalog.translatable')}
            disabled={!mayTranslate(field)}
            checked={field.translatable && mayTranslate(field)}
            onChange={(event) => onChange({ translatable: event.currentTarget.checked })}
          />
          <Switch
            label={t('studio.catalog.money', { currency: field.currency ?? CURRENCY })}
            disabled={!mayBeMoney(field)}
            checked={field.currency !== undefined && mayBeMoney(field)}
            onChange={(event) =>
              onChange({ currency: event.currentTarget.checked ? CURRENCY : undefined })
            }
          />
        </Group>
      </Stack>
    </Paper>
  );
}

/** The search page and entry dialog of the catalogue as the draft defines it. */
function CatalogPreview(props: {
  result: CheckResult;
  catalog: CatalogDefinition;
  catalogs: CatalogDefinition[];
  checking: boolean;
}) {
  const { t } = useTranslation();
  const { api, bundle } = usePortal();
  const [entryOpen, setEntryOpen] = useState(false);
  const [valid, setValid] = useState(false);
  const { result, catalog } = props;
  const columns = catalog.columns ?? Object.keys(catalog.schema.properties ?? {});
  return (
    <PreviewFrame id="catalog-preview-title" result={result} checking={props.checking}>
      {(language) =>
        result.valid &&
        result.version && (
          <div lang={language}>
            <Group justify="space-between" mb="xs">
              <Title order={4} size="h5">
                {catalog.labels[language]?.title}
              </Title>
              <Button size="xs" onClick={() => setEntryOpen(true)}>
                {t('studio.catalog.tryEntry')}
              </Button>
            </Group>
            <Table.ScrollContainer minWidth={320}>
              <Table withTableBorder>
                <Table.Thead>
                  <Table.Tr>
                    {columns.map((column) => (
                      <Table.Th key={column}>
                        {catalog.labels[language]?.fields[column] ?? column}
                      </Table.Th>
                    ))}
                  </Table.Tr>
                </Table.Thead>
                <Table.Tbody>
                  <Table.Tr>
                    <Table.Td colSpan={columns.length}>
                      <Text size="sm" c="dimmed">
                        {t('studio.catalog.previewRows')}
                      </Text>
                    </Table.Td>
                  </Table.Tr>
                </Table.Tbody>
              </Table>
            </Table.ScrollContainer>
            {valid && (
              <Alert color="green" role="status" mt="xs">
                {t('studio.catalog.entryValid')}
              </Alert>
            )}
            <CatalogEntryForm
              opened={entryOpen}
              onClose={() => setEntryOpen(false)}
              onSaved={() => {
                setEntryOpen(false);
                setValid(true);
              }}
              catalog={catalog}
              allCatalogs={props.catalogs}
              api={api}
              backend="catalog"
              language={language}
              translations={bundle.translations}
              validatorUrl={previewValidatorUrl(result.version, 'catalog', catalog.id)}
              preview
            />
          </div>
        )
      }
    </PreviewFrame>
  );
}
