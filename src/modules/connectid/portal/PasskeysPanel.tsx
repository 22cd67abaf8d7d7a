import { useCallback, useEffect, useState } from 'react';
import {
  Alert,
  Badge,
  Button,
  Group,
  Loader,
  Modal,
  Paper,
  Stack,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { browserSupportsWebAuthn, startRegistration } from '@simplewebauthn/browser';
import { useTranslation } from 'react-i18next';
import type { ApiError } from '../../../core/api/errors';
import { formatDateTime } from '../../../engine/format';
import { ErrorAlert } from '../../../engine/ErrorAlert';
import { usePortal } from '../../../portal/module';

interface Passkey {
  id: string;
  name: string;
  createdAt: string;
  lastUsedAt: string | null;
  backedUp: boolean;
}

/** The longest name the server takes (identity/passkeys.ts, PASSKEY_NAME_MAX). */
const NAME_MAX = 60;

/**
 * The person's passkeys: each with when it was added and last used, removed after a
 * confirmation; "Add a passkey" names it, then lets the browser make it (WebAuthn).
 */
export function PasskeysPanel() {
  const { t } = useTranslation();
  const { api } = usePortal();
  const [passkeys, setPasskeys] = useState<Passkey[] | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const [done, setDone] = useState<string | null>(null);
  const [naming, setNaming] = useState(false);
  const [name, setName] = useState('');
  const [busy, setBusy] = useState(false);
  const [removing, setRemoving] = useState<Passkey | null>(null);
  const supported = browserSupportsWebAuthn();

  const load = useCallback(async () => {
    const [error, result] = await api.get<{ items: Passkey[] }>('system', '/account/passkeys');
    if (error) setFailure(error.message);
    else setPasskeys(result.items);
  }, [api]);
  useEffect(() => {
    void load();
  }, [load]);

  const refused = (error: ApiError) => {
    setFailure(error.message);
    setBusy(false);
  };

  const add = async () => {
    const chosen = name.trim();
    if (!chosen) return;
    setNaming(false);
    setBusy(true);
    setFailure(null);
    setDone(null);
    const [error, options] = await api.post<Record<string, unknown>>(
      'system',
      '/account/passkeys/options',
    );
    if (error) return refused(error);
    let response: unknown;
    try {
      response = await startRegistration({ optionsJSON: options as never });
    } catch {
      // Cancelled, timed out, or the device already holds a passkey of this account.
      setFailure(t('passkeys.notMade'));
      setBusy(false);
      return;
    }
    const [saveError] = await api.post('system', '/account/passkeys', { name: chosen, response });
    if (saveError) return refused(saveError);
    setBusy(false);
    setName('');
    setDone(t('passkeys.added', { name: chosen }));
    await load();
  };

  const remove = async (passkey: Passkey) => {
    setRemoving(null);
    setBusy(true);
    setFailure(null);
    setDone(null);
    const [error] = await api.delete(
      'system',
      `/account/passkeys/${encodeURIComponent(passkey.id)}`,
    );
    if (error) return refused(error);
    setBusy(false);
    setDone(t('passkeys.removed', { name: passkey.name }));
    await load();
  };

  return (
    <Paper withBorder p="md" component="section" aria-labelledby="passkeys-title">
      <Stack gap="sm">
        <Title order={3} size="h4" id="passkeys-title">
          {t('passkeys.title')}
        </Title>
        <Text size="sm" c="dimmed">
          {t('passkeys.help')}
        </Text>
        <ErrorAlert>{failure}</ErrorAlert>
        <div aria-live="polite">
          {done && (
            <Alert color="green" role="status">
              {done}
            </Alert>
          )}
        </div>
        {!passkeys && !failure ? (
          <Group gap="xs" role="status">
            <Loader size="xs" />
            <Text size="sm">{t('passkeys.loading')}</Text>
          </Group>
        ) : (
          passkeys && (
            <>
              {passkeys.length === 0 ? (
                <Text size="sm">{t('passkeys.none')}</Text>
              ) : (
                <Stack gap="xs" component="ul" style={{ listStyle: 'none', padding: 0, margin: 0 }}>
                  {passkeys.map((passkey) => (
                    <Paper
                      key={passkey.id}
                      component="li"
                      withBorder
                      p="sm"
                      data-passkey={passkey.name}
                    >
                      <Group justify="space-between" gap="sm" wrap="wrap">
                        <Stack gap={2} style={{ minWidth: 0, flex: '1 1 14rem' }}>
                          <Group gap="xs">
                            <Text fw={600} style={{ wordBreak: 'break-word' }}>
                              {passkey.name}
                            </Text>
                            {passkey.backedUp && (
                              <Badge variant="light" size="sm" tt="none">
                                {t('passkeys.synced')}
                              </Badge>
                            )}
                          </Group>
                          <Text size="sm" c="dimmed">
                            {t('passkeys.addedOn', { date: formatDateTime(passkey.createdAt) })}
                            {' · '}
                            {passkey.lastUsedAt
                              ? t('passkeys.lastUsed', {
                                  date: formatDateTime(passkey.lastUsedAt),
                                })
                              : t('passkeys.neverUsed')}
                          </Text>
                        </Stack>
                        <Button
                          color="red"
                          variant="outline"
                          size="xs"
                          disabled={busy}
                          onClick={() => setRemoving(passkey)}
                          aria-label={t('passkeys.removeNamed', { name: passkey.name })}
                        >
                          {t('passkeys.remove')}
                        </Button>
                      </Group>
                    </Paper>
                  ))}
                </Stack>
              )}
              {supported ? (
                <Button w="fit-content" loading={busy} onClick={() => setNaming(true)}>
                  {t('passkeys.add')}
                </Button>
              ) : (
                <Alert color="yellow">{t('passkeys.unsupported')}</Alert>
              )}
            </>
          )
        )}
      </Stack>
      <Modal opened={naming} onClose={() => setNaming(false)} title={t('passkeys.add')} centered>
        <form
          onSubmit={(event) => {
            event.preventDefault();
            void add();
          }}
        >
          <Stack gap="sm">
            <TextInput
              label={t('passkeys.name')}
              description={t('passkeys.nameHelp')}
              value={name}
              onChange={(event) => setName(event.currentTarget.value)}
              maxLength={NAME_MAX}
              required
              data-autofocus
            />
            <Group justify="flex-end">
              <Button variant="default" onClick={() => setNaming(false)}>
                {t('confirm.back')}
              </Button>
              <Button type="submit" disabled={!name.trim()}>
                {t('passkeys.continue')}
              </Button>
            </Group>
          </Stack>
        </form>
      </Modal>
      <Modal
        opened={removing !== null}
        onClose={() => setRemoving(null)}
        title={t('passkeys.removeTitle')}
        centered
        withCloseButton={false}
      >
        <Text mb="lg">{t('passkeys.removeConfirm', { name: removing?.name ?? '' })}</Text>
        <Group justify="flex-end">
          <Button variant="default" onClick={() => setRemoving(null)} data-autofocus>
            {t('confirm.back')}
          </Button>
          <Button color="red" onClick={() => removing && void remove(removing)}>
            {t('passkeys.remove')}
          </Button>
        </Group>
      </Modal>
    </Paper>
  );
}
