import { useState } from 'react';
import { Alert, Button, Stack, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { FieldError } from '../../../core/api/errors';
import { usePortal } from '../../../portal/module';
import { fieldMessages } from './fieldMessages';
import { PasswordField } from './PasswordField';
import { ErrorAlert } from '../../../engine/ErrorAlert';

/** Changing one's own password: the current one again, the new one twice; the policy applies. */
export function PasswordPage() {
  const { t } = useTranslation();
  const { api } = usePortal();
  const [current, setCurrent] = useState('');
  const [next, setNext] = useState('');
  const [confirm, setConfirm] = useState('');
  const [errors, setErrors] = useState<FieldError[]>([]);
  const [message, setMessage] = useState<string | null>(null);
  const [done, setDone] = useState(false);
  const [busy, setBusy] = useState(false);
  const errorOf = (path: string) => fieldMessages(errors.filter((e) => e.path === path));

  const save = async () => {
    setDone(false);
    setMessage(null);
    if (next !== confirm) {
      setErrors([{ path: '/confirm', rule: 'same', message: t('register.passwordsDiffer') }]);
      return;
    }
    setBusy(true);
    const [error] = await api.post('connectid', '/profile/password', {
      currentPassword: current,
      newPassword: next,
    });
    setBusy(false);
    if (error) {
      setMessage(error.message);
      setErrors(
        (error.fields ?? []).map((f) =>
          f.path === '/password' ? { ...f, path: '/newPassword' } : f,
        ),
      );
      return;
    }
    setErrors([]);
    setCurrent('');
    setNext('');
    setConfirm('');
    setDone(true);
  };

  return (
    <Stack maw={480} gap="sm">
      <Title order={2}>{t('profile.passwordTitle')}</Title>
      {done && (
        <Alert color="green" role="status">
          {t('profile.passwordUpdated')}
        </Alert>
      )}
      <ErrorAlert>{message}</ErrorAlert>
      {(
        [
          ['profile.currentPassword', current, setCurrent, '/currentPassword'],
          ['profile.newPassword', next, setNext, '/newPassword'],
          ['register.confirm', confirm, setConfirm, '/confirm'],
        ] as const
      ).map(([label, value, set, path]) => (
        <PasswordField
          key={path}
          label={t(label)}
          value={value}
          onChange={(e) => set(e.currentTarget.value)}
          error={errorOf(path)}
          required
        />
      ))}
      <Button onClick={() => void save()} loading={busy} w="fit-content">
        {t('profile.changePassword')}
      </Button>
    </Stack>
  );
}
