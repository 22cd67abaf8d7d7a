import { useState } from 'react';
import { Button, Group, Stack, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { ApiError } from '../../../core/api/errors';
import { holdersOf, ownHolderName } from '../../../core/documents/certificate-holders';
import type { DocumentView } from '../../../core/documents/types';
import { personRefused } from '../../../core/documents/person-decisions';
import { fullRoles, type WorkflowDefinition } from '../../../core/documents/workflow';
import { downloadFromApi } from '../../download';
import { usePortal } from '../../context';
import { useLanguage } from '../../useLanguage';
import { backendOf } from '../../../core/documents/conventions';
import { certificatePagePath } from '../../../core/documents/certificate-view';
import { Link } from 'react-router-dom';

/**
 * The downloads of a document's certificates: its own, and one per person holding their own
 * (`certificate.holders`), so the main holder downloads every one of them. Shown once the
 * certificate (e-visa) is printable and to its holder or the certificate's roles.
 */
export function CertificateDownloads({
  workflow,
  document,
  onFailure,
}: {
  workflow: WorkflowDefinition;
  document: DocumentView;
  onFailure: (failure: ApiError) => void;
}) {
  const { t } = useTranslation();
  const { session } = usePortal();
  const language = useLanguage();
  const [busy, setBusy] = useState<string | undefined>();
  const certificate = workflow.certificate;
  if (!certificate?.statuses.includes(document.status)) return null;
  if (
    document.owner !== session.subject &&
    !session.hasAnyRole(fullRoles(workflow, certificate.roles))
  )
    return null;
  const backend = backendOf(workflow);
  const holders = certificate.holders ? holdersOf(certificate.holders, document.data) : [];
  const base = `/${backend}/${workflow.id}/${document.id}/certificate`;
  const own = document.number ?? document.id;
  // Beside the other people's, the document's own is named by its holder too.
  const ownName = ownHolderName(certificate, document.data);
  const holderLabel = (name: string, number: string) =>
    t(certificate.holders?.download ?? 'certificate.downloadHolder', { name, number });
  // The main person refused (`persons`): the document's own certificate is nobody's.
  const ownRefused = personRefused(workflow.persons, document.data, 0);
  const files = [
    ...(ownRefused
      ? []
      : [
          {
            key: 'own',
            path: base,
            filename: `${own}.pdf`,
            page: certificatePagePath(workflow.id, document.id),
            number: own,
            label:
              holders.length && ownName
                ? holderLabel(ownName, own)
                : t(certificate.download ?? 'certificate.download'),
          },
        ]),
    ...holders.map((holder) => ({
      key: holder.number,
      path: `${base}/${encodeURIComponent(holder.number)}`,
      filename: `${holder.number}.pdf`,
      page: certificatePagePath(workflow.id, document.id, holder.number),
      number: holder.number,
      label: holderLabel(holder.name, holder.number),
    })),
  ];
  const download = async (file: (typeof files)[number]) => {
    setBusy(file.key);
    const done = await downloadFromApi(session, file.path, file.filename, language);
    setBusy(undefined);
    if (!done)
      onFailure({
        status: 0,
        code: 'DOWNLOAD_FAILED',
        // A backend may word it its own way (`messages.unableToFetch_<backend>`).
        message: t('messages.unableToFetch', { context: backend }),
      });
  };
  const buttons = (
    <Group>
      {files.map((file) => [
        <Button
          key={file.key}
          variant="default"
          loading={busy === file.key}
          onClick={() => void download(file)}
          // A holder's name and number may not fit a phone's width: the label wraps.
          h="auto"
          mih={36}
          py={6}
          styles={{ label: { whiteSpace: 'normal', textAlign: 'start' } }}
        >
          {file.label}
        </Button>,
        // The same certificate as a web page: read aloud, zoomed, printed.
        <Button
          key={`${file.key}-page`}
          component={Link}
          to={file.page}
          variant="subtle"
          h="auto"
          mih={36}
          py={6}
          styles={{ label: { whiteSpace: 'normal', textAlign: 'start' } }}
        >
          {t('certificate.viewPage', { number: file.number })}
        </Button>,
      ])}
    </Group>
  );
  if (holders.length === 0 && !ownRefused) return buttons;
  return (
    <Stack gap="xs" component="section" aria-labelledby="certificate-downloads-title">
      <Text id="certificate-downloads-title" fw={600}>
        {t('certificate.downloadsTitle')}
      </Text>
      {buttons}
    </Stack>
  );
}
