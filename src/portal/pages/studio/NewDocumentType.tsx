import { useState, type ReactNode } from 'react';
import {
  Alert,
  Button,
  Group,
  Loader,
  SegmentedControl,
  Select,
  SimpleGrid,
  Stack,
  Text,
  TextInput,
} from '@mantine/core';
import { IconPlus } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import {
  copyableTypes,
  documentTypeFiles,
  documentTypeProblems,
  type DocumentTypeDesign,
} from '../../../core/studio/document-type-design';
import { ErrorAlert } from '../../../engine/ErrorAlert';
import { CheckSummary } from './CheckSummary';
import { useDraftCheck, type StudioDraft } from './useStudioDraft';
import { StudioDialog } from './StudioDialog';

type Start = 'blank' | 'copy';

/** Identifiers, prefixes and roles typed as code; their labels stay in the page's font. */
const MONO = { input: { fontFamily: 'var(--mantine-font-family-monospace)' } };

const EMPTY: DocumentTypeDesign = {
  id: '',
  titles: { en: '', fr: '' },
  prefix: '',
  applicantRole: 'submit',
  officerRole: 'process',
};

/**
 * The studio's "New document type": a dialog asking the type's identifier, titles, route prefix
 * and roles, from blank or copying a type, that writes the whole type into the draft
 * (document-type-design.ts) and checks the draft at once, so it can be published as it is. Its
 * button sits beside the studio's heading (`children`), what it did below them.
 */
export function NewDocumentType({ draft, children }: { draft: StudioDraft; children: ReactNode }) {
  const { t } = useTranslation();
  const [opened, setOpened] = useState(false);
  const [start, setStart] = useState<Start>('blank');
  const [design, setDesign] = useState<DocumentTypeDesign>(EMPTY);
  const [prefixTouched, setPrefixTouched] = useState(false);
  const [tried, setTried] = useState(false);
  const [created, setCreated] = useState<string | undefined>();
  const { checking, result, setResult, failure, run } = useDraftCheck(draft);
  const sources = copyableTypes(draft);
  const wanted: DocumentTypeDesign = start === 'copy' ? design : { ...design, copyOf: undefined };
  const problems = documentTypeProblems(wanted, draft);
  const errorOf = (field: keyof DocumentTypeDesign, language?: 'en' | 'fr') => {
    if (!tried) return undefined;
    const problem = problems.find(
      (p) => p.field === field && (!language || p.key.endsWith(`.${language}`)),
    );
    return problem && t(problem.key);
  };
  const set = (change: Partial<DocumentTypeDesign>) => setDesign((old) => ({ ...old, ...change }));
  const close = () => {
    setOpened(false);
    setTried(false);
  };

  const create = async () => {
    setTried(true);
    if (problems.length > 0) return;
    const files = documentTypeFiles(wanted, draft);
    for (const [path, text] of Object.entries(files)) draft.setFile(path, text);
    const workflow = JSON.parse(files[`workflows/${wanted.id}.json`] ?? '{}') as {
      rolePrefix?: string;
      seeAll?: string[];
      actions?: Record<string, { roles?: string[] }>;
    };
    const roles = new Set(
      Object.values(workflow.actions ?? {}).flatMap((action) => action.roles ?? []),
    );
    setCreated(
      t('studio.newType.created', {
        title: wanted.titles.en.trim(),
        count: Object.keys(files).length,
        roles: [...roles].map((role) => `${workflow.rolePrefix ?? ''}${role}`).join(', '),
      }),
    );
    close();
    setDesign(EMPTY);
    setPrefixTouched(false);
    await run(undefined, files);
  };

  const rolePrefix = `${design.id || '…'}-`;
  return (
    <Stack gap="xs">
      <Group justify="space-between" wrap="wrap">
        {children}
        <Button
          variant="default"
          leftSection={<IconPlus size={16} />}
          onClick={() => {
            setCreated(undefined);
            setResult(undefined);
            setOpened(true);
          }}
        >
          {t('studio.newType.open')}
        </Button>
      </Group>
      {created && (
        <Alert
          color="green.9"
          role="status"
          withCloseButton
          closeButtonLabel={t('studio.close')}
          onClose={() => {
            setCreated(undefined);
            setResult(undefined);
          }}
        >
          {created}
          {result?.valid && !checking && ` ${t('studio.newType.valid')}`}
        </Alert>
      )}
      {checking && (
        <Group gap="xs" role="status">
          <Loader size="xs" />
          <Text size="sm">{t('studio.newType.checking')}</Text>
        </Group>
      )}
      <ErrorAlert>{failure?.message}</ErrorAlert>
      {result && !checking && !result.valid && <CheckSummary result={result} />}
      <StudioDialog
        opened={opened}
        title={t('studio.newType.title')}
        submitLabel={t('studio.newType.create')}
        size="lg"
        namedForm
        onClose={close}
        onSubmit={() => void create()}
      >
        <Text size="sm">{t('studio.newType.intro')}</Text>
        <Stack gap={4}>
          <Text size="sm" fw={500} id="new-type-start">
            {t('studio.newType.start')}
          </Text>
          <SegmentedControl
            aria-labelledby="new-type-start"
            value={start}
            onChange={(value) => setStart(value as Start)}
            data={[
              { value: 'blank', label: t('studio.newType.blank') },
              { value: 'copy', label: t('studio.newType.copy') },
            ]}
          />
        </Stack>
        {start === 'copy' && (
          <Select
            label={t('studio.newType.copyOf')}
            description={t('studio.newType.copyHelp', { rolePrefix })}
            data={sources.map((source) => ({
              value: source.id,
              label: `${source.title} (${source.id})`,
            }))}
            value={design.copyOf ?? null}
            onChange={(value) => set({ copyOf: value ?? undefined })}
            error={errorOf('copyOf')}
            required
            searchable
          />
        )}
        <TextInput
          label={t('studio.newType.id')}
          description={t('studio.newType.idHelp')}
          required
          styles={MONO}
          value={design.id}
          error={errorOf('id')}
          onChange={(event) => {
            const id = event.currentTarget.value.trim();
            set({ id, ...(!prefixTouched && { prefix: id ? `/${id}` : '' }) });
          }}
          data-autofocus
        />
        <SimpleGrid cols={{ base: 1, sm: 2 }}>
          {(['en', 'fr'] as const).map((language) => (
            <TextInput
              key={language}
              label={t(language === 'en' ? 'studio.newType.titleEn' : 'studio.newType.titleFr')}
              lang={language}
              required
              value={design.titles[language]}
              error={errorOf('titles', language)}
              onChange={(event) => {
                const title = event.currentTarget.value;
                setDesign((old) => ({ ...old, titles: { ...old.titles, [language]: title } }));
              }}
            />
          ))}
        </SimpleGrid>
        <TextInput
          label={t('studio.newType.prefix')}
          description={t('studio.newType.prefixHelp')}
          required
          styles={MONO}
          value={design.prefix}
          error={errorOf('prefix')}
          onChange={(event) => {
            setPrefixTouched(true);
            set({ prefix: event.currentTarget.value.trim() });
          }}
        />
        {start === 'blank' && (
          <SimpleGrid cols={{ base: 1, sm: 2 }}>
            {(['applicantRole', 'officerRole'] as const).map((field) => (
              <TextInput
                key={field}
                label={t(`studio.newType.${field}`)}
                description={t('studio.newType.roleHelp', {
                  role: `${rolePrefix}${design[field]}`,
                })}
                required
                styles={MONO}
                value={design[field]}
                error={errorOf(field)}
                onChange={(event) => set({ [field]: event.currentTarget.value.trim() })}
              />
            ))}
          </SimpleGrid>
        )}
      </StudioDialog>
    </Stack>
  );
}
