import { useRef, useState } from 'react';
import {
  Alert,
  Button,
  FileButton,
  Group,
  List,
  Loader,
  Modal,
  Stack,
  Table,
  Text,
} from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { ApiClient } from '../core/api/client';
import type { FieldError } from '../core/api/errors';
import {
  CATALOG_IMPORT_MAX_ROWS,
  catalogCsvTitle,
  importProblemPlace,
  type CatalogCsvColumn,
} from '../core/definitions/catalog-csv';
import { readCatalogCsv, type CatalogCsvProblem } from '../core/definitions/catalog-csv-read';
import type { CatalogDefinition } from '../core/definitions/types';
import { formatCount } from '../core/format';
import type { Language, TextTree } from '../core/i18n/translate';
import { parseCsv } from './csv';
import { ErrorAlert } from './ErrorAlert';

/** What an import does to the catalogue's entries, each counted. */
type Count = 'created' | 'updated' | 'unchanged';

/** What the server answers an import with (`POST /{catalog}/import`). */
export interface CatalogImportResult extends Record<Count, number> {
  dryRun: boolean;
  problems: FieldError[];
}

export interface CatalogImportDialogProps {
  opened: boolean;
  catalog: CatalogDefinition;
  api: ApiClient;
  backend: string;
  language: Language;
  translations: Partial<Record<Language, TextTree>>;
  onClose: () => void;
  /** After the import wrote its rows: what it did, in words. */
  onImported: (summary: string) => void;
}

/** The dry run's answer for the file's entries, with the notes on its columns. */
interface Previewed {
  kind: 'preview';
  file: string;
  entries: Array<Record<string, unknown>>;
  result: CatalogImportResult;
  notes: string[];
  refused?: string;
}

/** Where the dialog stands: a file to choose, checked, previewed, being written. */
type Stage =
  | { kind: 'choose' }
  | { kind: 'checking'; file: string }
  | { kind: 'refusedFile'; file: string; problems: string[] }
  | { kind: 'failed'; file: string; message: string }
  | Previewed;

/** The texts of an import's counts once done: "12 entries created, 3 updated". */
const DONE = { created: 'created', updated: 'updated', unchanged: 'unchanged' };

/** At most this many problems are listed; the count says how many there are in all. */
const LISTED_PROBLEMS = 200;

/** Import CSV: the browser reads the file, a dry run says what it would do, Import writes every row or none. */
export function CatalogImportDialog(props: CatalogImportDialogProps) {
  const { t } = useTranslation();
  return (
    <Modal
      opened={props.opened}
      onClose={props.onClose}
      title={t('catalog.import.title')}
      closeButtonProps={{ 'aria-label': t('catalog.close') }}
      size="xl"
    >
      {props.opened && <ImportSteps {...props} />}
    </Modal>
  );
}

function ImportSteps({
  catalog,
  api,
  backend,
  language,
  translations,
  onClose,
  onImported,
}: CatalogImportDialogProps) {
  const { t } = useTranslation();
  const [stage, setStage] = useState<Stage>({ kind: 'choose' });
  const [confirming, setConfirming] = useState(false);
  const [writing, setWriting] = useState(false);
  const resetRef = useRef<() => void>(null);
  const address = `/${encodeURIComponent(catalog.id)}/import`;
  const title = (column: CatalogCsvColumn) =>
    catalogCsvTitle(catalog, column, translations, language);

  const check = async (file: File | null) => {
    // The same file may be chosen again once corrected: the input forgets it.
    resetRef.current?.();
    if (!file) return;
    setConfirming(false);
    setStage({ kind: 'checking', file: file.name });
    const refuse = (problems: string[]) =>
      setStage({ kind: 'refusedFile', file: file.name, problems });
    const parsed = parseCsv(await file.text());
    if (parsed.unreadable !== undefined)
      return refuse([t('catalog.import.unreadable', { row: parsed.unreadable })]);
    const reading = readCatalogCsv(parsed.rows, catalog, translations, language);
    if (reading.problems.length > 0) return refuse(reading.problems.map(fileProblemText));
    const [failure, result] = await api.post<CatalogImportResult>(backend, address, {
      entries: reading.entries,
      dryRun: true,
    });
    if (failure) return setStage({ kind: 'failed', file: file.name, message: failure.message });
    const notes = [
      ...(reading.ignored.length > 0
        ? [t('catalog.import.ignored', { columns: reading.ignored.join(', ') })]
        : []),
      ...(reading.missing.length > 0
        ? [t('catalog.import.missing', { columns: reading.missing.map(title).join(', ') })]
        : []),
    ];
    setStage({ kind: 'preview', file: file.name, entries: reading.entries, result, notes });
  };

  const fileProblemText = (problem: CatalogCsvProblem): string => {
    if (problem.kind === 'tooManyRows')
      return t('catalog.import.tooManyRows', {
        max: formatCount(CATALOG_IMPORT_MAX_ROWS, language),
        count: formatCount(problem.count, language),
      });
    if (problem.kind === 'noRows') return t('catalog.import.noRows');
    return t(`catalog.import.${problem.kind}`, { title: problem.title });
  };

  const write = async () => {
    if (stage.kind !== 'preview') return;
    setWriting(true);
    const [failure, result] = await api.post<CatalogImportResult>(backend, address, {
      entries: stage.entries,
      dryRun: false,
    });
    setWriting(false);
    setConfirming(false);
    // Refused after all (someone changed the catalogue meanwhile): the rows' problems again.
    if (failure)
      return setStage({
        ...stage,
        result: { ...stage.result, problems: failure.fields ?? [] },
        refused: failure.message,
      });
    onImported(t('catalog.import.done', { changes: changes(result, DONE) }));
  };

  /** "12 entries created, 3 updated": each count not zero (the first always). */
  const changes = (result: CatalogImportResult, keys: Partial<Record<Count, string>>) =>
    (Object.entries(keys) as Array<[Count, string]>)
      .filter(([kind], index) => index === 0 || result[kind] > 0)
      .map(([kind, key]) => t(`catalog.import.${key}`, { count: result[kind] }))
      .join(', ');

  const chooser = (
    <FileButton resetRef={resetRef} onChange={(file) => void check(file)} accept=".csv,text/csv">
      {(buttonProps) => (
        <Button
          variant={stage.kind === 'choose' ? 'filled' : 'default'}
          loading={stage.kind === 'checking'}
          {...buttonProps}
        >
          {t(stage.kind === 'choose' ? 'catalog.import.choose' : 'catalog.import.another')}
        </Button>
      )}
    </FileButton>
  );

  return (
    <Stack gap="md">
      <Text size="sm">{t('catalog.import.intro')}</Text>
      {stage.kind !== 'choose' && (
        <Text size="sm" fw={500}>
          {t('catalog.import.file', { name: stage.file })}
        </Text>
      )}
      {stage.kind === 'checking' && (
        <Group gap="xs" role="status">
          <Loader size="sm" />
          <Text size="sm">{t('catalog.import.checking')}</Text>
        </Group>
      )}
      {stage.kind === 'refusedFile' && (
        <Alert color="red" role="alert">
          <List size="sm">
            {stage.problems.map((problem) => (
              <List.Item key={problem}>{problem}</List.Item>
            ))}
          </List>
        </Alert>
      )}
      {stage.kind === 'failed' && <ErrorAlert>{stage.message}</ErrorAlert>}
      {stage.kind === 'preview' && <Preview catalog={catalog} stage={stage} title={title} />}
      {confirming && stage.kind === 'preview' && (
        <Alert color="blue" role="alertdialog" aria-labelledby="import-question">
          <Text id="import-question">
            {t('catalog.import.confirm', {
              changes: changes(stage.result, { created: 'willCreate', updated: 'willUpdate' }),
            })}
          </Text>
          <Group mt="sm">
            <Button loading={writing} onClick={() => void write()}>
              {t('catalog.yes')}
            </Button>
            <Button
              variant="default"
              onClick={() => setConfirming(false)}
              disabled={writing}
              autoFocus
            >
              {t('catalog.no')}
            </Button>
          </Group>
          {writing && (
            <Text size="sm" mt="xs" role="status">
              {t('catalog.import.importing')}
            </Text>
          )}
        </Alert>
      )}
      <Group justify="flex-end">
        <Button variant="default" onClick={onClose} disabled={writing}>
          {t('catalog.cancel')}
        </Button>
        {chooser}
        {stage.kind === 'preview' && (
          <Button
            onClick={() => setConfirming(true)}
            disabled={
              confirming ||
              stage.result.problems.length > 0 ||
              stage.result.created + stage.result.updated === 0
            }
          >
            {t('catalog.import.import')}
          </Button>
        )}
      </Group>
    </Stack>
  );
}

/** The dry run's counts, the notes on the file's columns, and every problem by row and column. */
function Preview({
  catalog,
  stage: { result, notes, refused },
  title,
}: {
  catalog: CatalogDefinition;
  stage: Previewed;
  title: (column: CatalogCsvColumn) => string;
}) {
  const { t } = useTranslation();
  const problems = result.problems;
  const nothingToDo = problems.length === 0 && result.created + result.updated === 0;
  return (
    <Stack gap="sm">
      <Text fw={600}>{t('catalog.import.preview')}</Text>
      <List size="sm" data-testid="import-counts">
        <List.Item>{t('catalog.import.willCreate', { count: result.created })}</List.Item>
        <List.Item>{t('catalog.import.willUpdate', { count: result.updated })}</List.Item>
        <List.Item>{t('catalog.import.willKeep', { count: result.unchanged })}</List.Item>
      </List>
      {notes.map((note) => (
        <Alert key={note} color="yellow">
          {note}
        </Alert>
      ))}
      {nothingToDo && <Alert color="blue">{t('catalog.import.nothingToDo')}</Alert>}
      <ErrorAlert>{refused}</ErrorAlert>
      {problems.length > 0 && (
        <>
          <Alert color="red" role="alert">
            {t('catalog.import.problems', { count: problems.length })}
            {problems.length > LISTED_PROBLEMS &&
              ` ${t('catalog.import.listed', { count: LISTED_PROBLEMS })}`}
          </Alert>
          {/* No minimum width: on a phone the messages wrap rather than scroll out of sight. */}
          <Table withTableBorder striped captionSide="top">
            <Table.Caption>{t('catalog.import.problemsCaption')}</Table.Caption>
            <Table.Thead>
              <Table.Tr>
                <Table.Th scope="col">{t('catalog.import.row')}</Table.Th>
                <Table.Th scope="col">{t('catalog.import.column')}</Table.Th>
                <Table.Th scope="col">{t('catalog.import.problem')}</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {problems.slice(0, LISTED_PROBLEMS).map((problem, index) => {
                const place = importProblemPlace(catalog, problem.path);
                return (
                  <Table.Tr key={`${problem.path} ${problem.rule} ${index}`}>
                    {/* The file's row: its header is row 1, the first entry row 2. */}
                    <Table.Td>{place ? place.row + 2 : ''}</Table.Td>
                    <Table.Td>
                      {place?.column ? title(place.column) : t('catalog.import.wholeRow')}
                    </Table.Td>
                    <Table.Td>{problem.message}</Table.Td>
                  </Table.Tr>
                );
              })}
            </Table.Tbody>
          </Table>
        </>
      )}
    </Stack>
  );
}
