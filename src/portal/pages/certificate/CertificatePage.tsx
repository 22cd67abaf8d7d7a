import { useEffect, useState, type ReactNode } from 'react';
import { Alert, Anchor, Button, Group, Stack, Table, Text, Title } from '@mantine/core';
import { useDocumentTitle } from '@mantine/hooks';
import { IconDownload, IconPrinter } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router-dom';
import type { ApiError } from '../../../core/api/errors';
import type {
  CertificateView,
  CertificateViewField,
  CertificateViewSection,
} from '../../../core/documents/certificate-view';
import { backendOf } from '../../../core/documents/conventions';
import type { WorkflowDefinition } from '../../../core/documents/workflow';
import { usePortal } from '../../context';
import { downloadFromApi } from '../../download';
import { PageLoading } from '../../lazyPage';
import { useLanguage } from '../../useLanguage';
import './certificate-print.css';

type Answer = { view: CertificateView } | { error: ApiError } | undefined;

/** The refusals a reader may meet, each said its own way; anything else is "could not load". */
const REFUSALS: Record<string, string> = {
  NOT_FOUND: 'certificate.webPage.notFound',
  FORBIDDEN: 'certificate.webPage.notFound',
  ACTION_NOT_ALLOWED: 'certificate.webPage.notIssued',
};

/**
 * An issued document's certificate (its own, or with `:number` one of its people's) as a web page:
 * what the PDF says, read by a screen reader or zoomed as any page, printed without the portal
 * around it. The certificate speaks its holder's language (`lang`); the buttons, the reader's.
 */
export function CertificatePage({ workflow }: { workflow: WorkflowDefinition }) {
  const { t } = useTranslation();
  const { api, session } = usePortal();
  const language = useLanguage();
  const { id = '', number } = useParams();
  const backend = backendOf(workflow);
  const pdfPath = `/${workflow.id}/${encodeURIComponent(id)}/certificate${
    number === undefined ? '' : `/${encodeURIComponent(number)}`
  }`;
  const viewPath = `/${workflow.id}/${encodeURIComponent(id)}/certificate/view${
    number === undefined ? '' : `/${encodeURIComponent(number)}`
  }`;
  const [answer, setAnswer] = useState<Answer>();
  const [downloading, setDownloading] = useState(false);
  const [downloadFailed, setDownloadFailed] = useState(false);

  useEffect(() => {
    let current = true;
    setAnswer(undefined);
    void api.get<CertificateView>(backend, viewPath).then(([error, view]) => {
      if (current) setAnswer(error ? { error } : { view });
    });
    return () => {
      current = false;
    };
  }, [api, backend, viewPath]);

  const view = answer && 'view' in answer ? answer.view : undefined;
  useDocumentTitle(
    view ? `${view.title} ${view.number} - ${t('app.shortName')}` : t('app.shortName'),
  );

  if (!answer) return <PageLoading label="certificate.webPage.loading" />;
  if ('error' in answer)
    return (
      <Alert color="red" role="alert" title={t('certificate.webPage.errorTitle')} maw={700}>
        {t(REFUSALS[answer.error.code] ?? 'certificate.webPage.failed')}
      </Alert>
    );

  const download = async () => {
    setDownloading(true);
    setDownloadFailed(false);
    const filename = `${answer.view.number}.pdf`;
    const done = await downloadFromApi(session, `/${backend}${pdfPath}`, filename, language);
    setDownloading(false);
    setDownloadFailed(!done);
  };

  return (
    <Stack gap="md" maw={860} className="certificate-page">
      {/* The reader's tools, left off the printout. */}
      <Group
        gap="sm"
        className="certificate-tools"
        role="group"
        aria-label={t('certificate.webPage.tools')}
      >
        <Button leftSection={<IconPrinter size={18} aria-hidden />} onClick={() => window.print()}>
          {t('certificate.webPage.print')}
        </Button>
        <Button
          variant="default"
          leftSection={<IconDownload size={18} aria-hidden />}
          loading={downloading}
          onClick={() => void download()}
        >
          {t('certificate.webPage.download')}
        </Button>
      </Group>
      {downloadFailed && (
        <Alert color="red" role="alert" className="certificate-tools">
          {t('messages.unableToFetch', { context: backend })}
        </Alert>
      )}
      <CertificateArticle view={answer.view} />
    </Stack>
  );
}

/** French puts a space before ":" or "?": a non-breaking one, so the sign never starts a line. */
const keptWithItsWord = (text: string) => text.replace(/ ([:;!?»])/g, '\u00a0$1');

/** The certificate itself, in its holder's language. */
export function CertificateArticle({ view }: { view: CertificateView }) {
  return (
    <article lang={view.language} aria-labelledby="certificate-title" className="certificate">
      <Stack gap="lg">
        <div>
          <Text fw={700} c="var(--certificate-accent)">
            {view.issuer}
          </Text>
          <Title order={2} id="certificate-title">
            {/* A number is not cut at its dashes on a phone. */}
            {view.title} <span style={{ whiteSpace: 'nowrap' }}>{view.number}</span>
          </Title>
        </div>
        {view.sections.map((section, index) => (
          <Section key={index} section={section} index={index} />
        ))}
        <Stack gap={4} className="certificate-notes">
          {view.notes.map((note) => (
            <Text key={note} size="sm">
              {note}
            </Text>
          ))}
          {view.checkUrl && (
            <Text size="sm">
              {keptWithItsWord(view.checkText ?? '')}{' '}
              {/* Underlined: told apart from the text around it by more than its colour. */}
              <Anchor href={view.checkUrl} underline="always" style={{ overflowWrap: 'anywhere' }}>
                {view.checkUrl}
              </Anchor>
            </Text>
          )}
        </Stack>
      </Stack>
    </article>
  );
}

/** A section: its heading, its fields as a description list, its tables as tables. */
function Section({ section, index }: { section: CertificateViewSection; index: number }) {
  const headingId = `certificate-section-${index}`;
  // Runs of plain fields make one list each; a table stands between them.
  const parts: ReactNode[] = [];
  let run: CertificateViewField[] = [];
  const closeRun = () => {
    if (run.length) parts.push(<Fields key={`fields-${parts.length}`} fields={run} />);
    run = [];
  };
  for (const field of section.fields) {
    if (!field.table) {
      run.push(field);
      continue;
    }
    closeRun();
    parts.push(
      <FieldTable
        key={`table-${parts.length}`}
        field={field}
        caption={field.label || section.heading || ''}
      />,
    );
  }
  closeRun();
  if (section.heading === null) return <div>{parts}</div>;
  return (
    <section aria-labelledby={headingId}>
      <Title order={3} size="h4" id={headingId} mb="xs" className="certificate-heading">
        {section.heading}
      </Title>
      {parts}
    </section>
  );
}

function Fields({ fields }: { fields: CertificateViewField[] }) {
  return (
    <dl className="certificate-fields">
      {fields.map((field, index) => (
        <div key={index} className="certificate-field">
          <dt>{field.label}</dt>
          <dd>
            {field.value}
            {field.lines &&
              (field.numbered ? (
                <ol>
                  {field.lines.map((line, i) => (
                    <li key={i}>{line}</li>
                  ))}
                </ol>
              ) : (
                field.lines.map((line, i) => <div key={i}>{line}</div>)
              ))}
          </dd>
        </div>
      ))}
    </dl>
  );
}

function FieldTable({ field, caption }: { field: CertificateViewField; caption: string }) {
  const table = field.table!;
  const align = (column: number) => (table.alignRight[column] ? 'right' : 'left');
  return (
    <Table.ScrollContainer minWidth={480}>
      <Table withTableBorder withColumnBorders className="certificate-table">
        {caption && <caption>{caption}</caption>}
        <Table.Thead>
          <Table.Tr>
            {table.columns.map((heading, column) => (
              <Table.Th key={column} scope="col" style={{ textAlign: align(column) }}>
                {heading}
              </Table.Th>
            ))}
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {table.rows.map((row, index) => (
            <Table.Tr key={index}>
              {row.map((cell, column) => (
                <Table.Td key={column} style={{ textAlign: align(column) }}>
                  {cell}
                </Table.Td>
              ))}
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}
