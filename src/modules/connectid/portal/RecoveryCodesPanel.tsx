import { useCallback, useEffect, useState } from 'react';
import {
  Alert,
  Button,
  Code,
  CopyButton,
  Group,
  Loader,
  Modal,
  Paper,
  SimpleGrid,
  Stack,
  Text,
  Title,
} from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { formatDateTime } from '../../../engine/format';
import { ErrorAlert } from '../../../engine/ErrorAlert';
import { usePortal } from '../../../portal/module';

interface RecoveryStatus {
  remaining: number;
  createdAt: string | null;
}

/**
 * The person's recovery codes: how many are left (never the codes themselves); making codes
 * shows the ten new ones once, and making new ones while some are left is asked first (the old
 * ones stop working).
 */
export function RecoveryCodesPanel() {
  const { t } = useTranslation();
  const { api } = usePortal();
  const [status, setStatus] = useState<RecoveryStatus | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const [asking, setAsking] = useState(false);
  const [busy, setBusy] = useState(false);
  const [codes, setCodes] = useState<string[] | null>(null);

  const load = useCallback(async () => {
    const [error, result] = await api.get<RecoveryStatus>('system', '/account/recovery-codes');
    if (error) setFailure(error.message);
    else setStatus(result);
  }, [api]);
  useEffect(() => {
    void load();
  }, [load]);

  const make = async () => {
    setAsking(false);
    setBusy(true);
    setFailure(null);
    const [error, result] = await api.post<{ codes: string[] }>(
      'system',
      '/account/recovery-codes',
    );
    setBusy(false);
    if (error) setFailure(error.message);
    else setCodes(result.codes);
    await load();
  };

  const hasCodes = (status?.remaining ?? 0) > 0;
  return (
    <Paper withBorder p="md" component="section" aria-labelledby="recovery-codes-title">
      <Stack gap="sm">
        <Title order={3} size="h4" id="recovery-codes-title">
          {t('passkeys.recovery.title')}
        </Title>
        <Text size="sm" c="dimmed">
          {t('passkeys.recovery.help')}
        </Text>
        <ErrorAlert>{failure}</ErrorAlert>
        {!status && !failure ? (
          <Group gap="xs" role="status">
            <Loader size="xs" />
            <Text size="sm">{t('passkeys.recovery.loading')}</Text>
          </Group>
        ) : (
          status && (
            <>
              <Text fw={600} data-recovery-remaining={status.remaining}>
                {status.createdAt
                  ? t('passkeys.recovery.remaining', {
                      count: status.remaining,
                      date: formatDateTime(status.createdAt),
                    })
                  : t('passkeys.recovery.none')}
              </Text>
              <Button
                w="fit-content"
                loading={busy}
                variant={hasCodes ? 'outline' : 'filled'}
                onClick={() => (hasCodes ? setAsking(true) : void make())}
              >
                {t(hasCodes ? 'passkeys.recovery.replace' : 'passkeys.recovery.make')}
              </Button>
            </>
          )
        )}
      </Stack>
      <Modal
        opened={asking}
        onClose={() => setAsking(false)}
        title={t('passkeys.recovery.replace')}
        centered
        withCloseButton={false}
      >
        <Text mb="lg">{t('passkeys.recovery.replaceConfirm')}</Text>
        <Group justify="flex-end">
          <Button variant="default" onClick={() => setAsking(false)} data-autofocus>
            {t('confirm.back')}
          </Button>
          <Button color="red" onClick={() => void make()}>
            {t('passkeys.recovery.replace')}
          </Button>
        </Group>
      </Modal>
      <Modal
        opened={codes !== null}
        onClose={() => setCodes(null)}
        title={t('passkeys.recovery.shownTitle')}
        centered
        size="lg"
        // One named button (and Escape) closes it: the person says they have kept the codes.
        withCloseButton={false}
      >
        {codes && (
          <Stack gap="sm">
            <Alert color="yellow" role="alert">
              {t('passkeys.recovery.onlyOnce')}
            </Alert>
            <SimpleGrid cols={{ base: 1, xs: 2 }} spacing="xs" component="ol" m={0} p={0}>
              {codes.map((code) => (
                <Code
                  key={code}
                  component="li"
                  data-recovery-code
                  style={{ listStyle: 'none', fontSize: '1.05rem', letterSpacing: '0.08em' }}
                >
                  {code}
                </Code>
              ))}
            </SimpleGrid>
            <Group justify="flex-end">
              <CopyButton value={codes.join('\n')}>
                {({ copied, copy }) => (
                  <Button variant="default" onClick={copy}>
                    {t(copied ? 'passkeys.recovery.copied' : 'passkeys.recovery.copy')}
                  </Button>
                )}
              </CopyButton>
              <Button onClick={() => setCodes(null)}>{t('passkeys.recovery.kept')}</Button>
            </Group>
          </Stack>
        )}
      </Modal>
    </Paper>
  );
}
