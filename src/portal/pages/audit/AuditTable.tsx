import { Anchor, Badge, Stack, Table, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import type { AuditLine } from '../../../core/audit/lines';
import { formatDateTime } from '../../../core/format';
import { usePortal } from '../../context';
import { documentPath } from '../../documentLinks';

const KIND_COLOURS: Record<string, string> = {
  read: 'blue',
  change: 'teal',
  export: 'grape',
  'sign-in': 'gray',
  session: 'gray',
  publish: 'orange',
  'catalogue-change': 'yellow',
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

/**
 * Audit lines as a table of words: when, kind, what, who, the document (a link to it where the
 * reader may open it), through which screen or API, and the detail. Stacked into cards on a
 * narrow screen by the table's own scroll container; `document` false leaves the column out (a
 * document's own panel).
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
  const { bundle, session } = usePortal();
  const k = (key: string) => t(`audit.columns.${key}`);
  return (
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
          {lines.map((line) => {
            const path =
              line.documentId && line.documentType
                ? documentPath(bundle, session, line.documentType, line.documentId)
                : undefined;
            const name = line.documentNumber ?? line.documentId;
            return (
              <Table.Tr key={line.id} data-action={line.action}>
                <Table.Td style={{ whiteSpace: 'nowrap' }}>{formatDateTime(line.at)}</Table.Td>
                <Table.Td>
                  <Badge variant="light" tt="none" color={KIND_COLOURS[line.kind] ?? 'gray'}>
                    {t(`audit.kinds.${line.kind}`)}
                  </Badge>
                </Table.Td>
                <Table.Td>
                  <Stack gap={2}>
                    <Text size="sm">
                      {t(`audit.actions.${line.action}`, { defaultValue: line.action })}
                    </Text>
                    <DetailWords line={line} />
                  </Stack>
                </Table.Td>
                <Table.Td>{line.actorName}</Table.Td>
                {document && (
                  <Table.Td>
                    {name && path ? (
                      <Anchor component={Link} to={path}>
                        {name}
                      </Anchor>
                    ) : (
                      (name ?? '')
                    )}
                  </Table.Td>
                )}
                <Table.Td>
                  <Stack gap={2}>
                    {line.screen && (
                      <Text size="sm">{t('audit.screenWord', { screen: line.screen })}</Text>
                    )}
                    {line.route && (
                      <Text size="xs" c="dimmed">
                        {t('audit.api', { route: line.route })}
                      </Text>
                    )}
                    {line.addressClass && (
                      <Text size="xs" c="dimmed">
                        {t(`audit.addressClasses.${line.addressClass}`, {
                          defaultValue: line.addressClass,
                        })}
                      </Text>
                    )}
                  </Stack>
                </Table.Td>
              </Table.Tr>
            );
          })}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}
