import { Anchor, Badge, Box, Group, Paper, Stack, Table, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import type { AuditLine } from '../../../core/audit/lines';
import { formatDateTime } from '../../../core/format';
import { usePortal } from '../../context';
import { documentPath } from '../../documentLinks';

const KIND_COLOURS: Record<string, string> = {
  read: 'blue',
  change: 'cyan',
  export: 'grape',
  'sign-in': 'gray',
  session: 'gray',
  publish: 'orange',
  'catalogue-change': 'orange',
  account: 'cyan',
  retention: 'red',
};

/** What a line's detail says, in words: the part read, the rows listed, the status change. */
function DetailWords({ line }: { line: AuditLine }) {
  const { t } = useTranslation();
  const detail = line.detail ?? {};
  const words: string[] = [];
  if (typeof detail.part === 'string')
    words.push(t('audit.detail.part', { part: t(`audit.parts.${detail.part}`) }));
  if (typeof detail.version === 'number' && line.kind === 'read')
    words.push(t('audit.detail.version', { version: detail.version }));
  if (Array.isArray(detail.ids)) words.push(t('audit.detail.rows', { count: detail.ids.length }));
  if (typeof detail.name === 'string') words.push(t('audit.detail.upload', { name: detail.name }));
  if (typeof detail.fromStatus === 'string' && typeof detail.toStatus === 'string') {
    const status = (code: string) => t(`statuses.${code}`, { defaultValue: code });
    words.push(
      t('audit.detail.statusChange', {
        from: status(detail.fromStatus),
        to: status(detail.toStatus),
      }),
    );
  }
  if (typeof detail.lines === 'number')
    words.push(t('audit.detail.lines', { count: detail.lines }));
  if (line.target && line.kind === 'catalogue-change') words.push(line.target);
  return words.length ? <Text size="sm">{words.join(' · ')}</Text> : null;
}

/** The document a line names: its number (or id), a link where the reader may open it. */
function DocumentCell({ line }: { line: AuditLine }) {
  const { bundle, session } = usePortal();
  const path =
    line.documentId && line.documentType
      ? documentPath(bundle, session, line.documentType, line.documentId)
      : undefined;
  const name = line.documentNumber ?? line.documentId;
  if (!name) return null;
  return path ? (
    <Anchor component={Link} to={path}>
      {name}
    </Anchor>
  ) : (
    <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
      {name}
    </Text>
  );
}

/** Through which screen and API operation, from which network. */
function Through({ line }: { line: AuditLine }) {
  const { t } = useTranslation();
  return (
    <Stack gap={2}>
      {line.screen && <Text size="sm">{t('audit.screenWord', { screen: line.screen })}</Text>}
      {line.route && (
        <Text size="xs" c="dimmed">
          {t('audit.api', { route: line.route })}
        </Text>
      )}
      {line.addressClass && (
        <Text size="xs" c="dimmed">
          {t(`audit.addressClasses.${line.addressClass}`, { defaultValue: line.addressClass })}
        </Text>
      )}
    </Stack>
  );
}

function KindBadge({ line }: { line: AuditLine }) {
  const { t } = useTranslation();
  return (
    <Badge variant="light" tt="none" color={KIND_COLOURS[line.kind] ?? 'gray'}>
      {t(`audit.kinds.${line.kind}`)}
    </Badge>
  );
}

function What({ line }: { line: AuditLine }) {
  const { t } = useTranslation();
  return (
    <Stack gap={2}>
      <Text size="sm">{t(`audit.actions.${line.action}`, { defaultValue: line.action })}</Text>
      <DetailWords line={line} />
    </Stack>
  );
}

/** On a narrow screen: one card per line, nothing to scroll sideways. */
function AuditCards({
  lines,
  document,
  caption,
}: {
  lines: readonly AuditLine[];
  document: boolean;
  caption: string;
}) {
  return (
    <Stack component="ul" aria-label={caption} gap="xs" p={0} m={0} style={{ listStyle: 'none' }}>
      {lines.map((line) => (
        <Paper component="li" withBorder p="sm" key={line.id} data-action={line.action}>
          <Stack gap={4}>
            <Group justify="space-between" gap="xs">
              <Text size="sm" fw={600}>
                {formatDateTime(line.at)}
              </Text>
              <KindBadge line={line} />
            </Group>
            <What line={line} />
            <Text size="sm">{line.actorName}</Text>
            {document && <DocumentCell line={line} />}
            <Through line={line} />
          </Stack>
        </Paper>
      ))}
    </Stack>
  );
}

/**
 * Audit lines as a table of words: when, kind, what, who, the document (a link to it where the
 * reader may open it), through which screen or API, and the detail; one card per line on a
 * narrow screen. `document` false leaves the document out (a document's own panel).
 */
export function AuditTable({
  lines,
  caption,
  document = true,
}: {
  lines: readonly AuditLine[];
  caption: string;
  document?: boolean;
}) {
  const { t } = useTranslation();
  const k = (key: string) => t(`audit.columns.${key}`);
  return (
    <>
      <Box hiddenFrom="sm">
        <AuditCards lines={lines} document={document} caption={caption} />
      </Box>
      <Box visibleFrom="sm">
        <Table.ScrollContainer minWidth={720}>
          <Table striped withTableBorder captionSide="top" verticalSpacing="xs">
            <Table.Caption>{caption}</Table.Caption>
            <Table.Thead>
              <Table.Tr>
                <Table.Th scope="col">{k('at')}</Table.Th>
                <Table.Th scope="col">{k('kind')}</Table.Th>
                <Table.Th scope="col">{k('action')}</Table.Th>
                <Table.Th scope="col">{k('actor')}</Table.Th>
                {document && <Table.Th scope="col">{k('document')}</Table.Th>}
                <Table.Th scope="col">{k('through')}</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {lines.map((line) => (
                <Table.Tr key={line.id} data-action={line.action}>
                  <Table.Td style={{ whiteSpace: 'nowrap' }}>{formatDateTime(line.at)}</Table.Td>
                  <Table.Td>
                    <KindBadge line={line} />
                  </Table.Td>
                  <Table.Td>
                    <What line={line} />
                  </Table.Td>
                  <Table.Td>{line.actorName}</Table.Td>
                  {document && (
                    <Table.Td style={{ overflowWrap: 'anywhere' }}>
                      <DocumentCell line={line} />
                    </Table.Td>
                  )}
                  <Table.Td>
                    <Through line={line} />
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      </Box>
    </>
  );
}
