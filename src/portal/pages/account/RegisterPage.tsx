import { useEffect, useState } from 'react';
import {
  Alert,
  Button,
  Group,
  PasswordInput,
  Select,
  Stack,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { Navigate, useNavigate } from 'react-router-dom';
import type { FieldError } from '../../../core/api/errors';
import { usePortal } from '../../context';

interface RegistrationOptions {
  userTypes: Array<{ code: string; description: string }>;
  identityTypes: Array<{ code: string; description: string }>;
}

const FIELDS = [
  'loginIdentifier',
  'firstName',
  'lastName',
  'emailAddress',
  'primaryMobileNo',
] as const;
type Field = (typeof FIELDS)[number];

/**
 * Self-registration (public, signed-out only): the person's details, a confirmation code sent to
 * their mobile, and a password. The server checks everything again; the account is pending
 * until an administrator reviews it.
 */
export function RegisterPage() {
  const { t } = useTranslation();
  const { api, session } = usePortal();
  const navigate = useNavigate();
  const [options, setOptions] = useState<RegistrationOptions | null>(null);
  const [values, setValues] = useState<Record<Field, string>>({
    loginIdentifier: '',
    firstName: '',
    lastName: '',
    emailAddress: '',
    primaryMobileNo: '',
  });
  const [userType, setUserType] = useState<string | null>(null);
  const [challengeId, setChallengeId] = useState<string | null>(null);
  const [code, setCode] = useState('');
  const [password, setPassword] = useState('');
  const [confirm, setConfirm] = useState('');
  const [errors, setErrors] = useState<FieldError[]>([]);
  const [message, setMessage] = useState<string | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    void api
      .get<RegistrationOptions>('connectid', '/registration/options')
      .then(([error, data]) => {
        if (error) setMessage(error.message);
        else {
          setOptions(data);
          setUserType(data.userTypes[0]?.code ?? null);
        }
      });
  }, [api]);

  if (session.signedIn) return <Navigate to="/" replace />;
  const errorOf = (path: string) =>
    errors
      .filter((e) => e.path.endsWith(path))
      .map((e) => e.message)
      .join(' ') || undefined;

  const sendCode = async () => {
    setBusy(true);
    setMessage(null);
    const [error, result] = await api.post<{ challengeId: string }>('challenge', '', {
      channel: 'mobile',
      destination: values.primaryMobileNo,
      purpose: 'registration',
    });
    setBusy(false);
    if (error) {
      setMessage(error.message);
      setErrors(error.fields ?? []);
      return;
    }
    setChallengeId(result.challengeId);
    setNotice(t('register.codeSent'));
  };

  const register = async () => {
    if (password !== confirm) {
      setErrors([{ path: '/confirm', rule: 'same', message: t('register.passwordsDiffer') }]);
      return;
    }
    setBusy(true);
    setMessage(null);
    const [error] = await api.post('connectid', '/registration', {
      challengeId,
      code,
      password,
      data: {
        identity: {
          loginIdentifier: values.loginIdentifier,
          firstName: values.firstName,
          lastName: values.lastName,
        },
        contact: { emailAddress: values.emailAddress, primaryMobileNo: values.primaryMobileNo },
        organisation: { userType },
      },
    });
    setBusy(false);
    if (error) {
      setMessage(error.message);
      setErrors(error.fields ?? []);
      return;
    }
    navigate('/success');
  };

  return (
    <Stack maw={560} gap="sm">
      <Title order={2}>{t('register.title')}</Title>
      <Text c="dimmed">{t('register.intro')}</Text>
      {message && (
        <Alert color="red" role="alert">
          {message}
          {/* Every problem is listed here too, also those of fields this page does not show. */}
          {errors.length > 0 && (
            <ul>
              {errors.map((e) => (
                <li key={`${e.path} ${e.rule}`}>{e.message}</li>
              ))}
            </ul>
          )}
        </Alert>
      )}
      {notice && (
        <Alert color="green" role="status">
          {notice}
        </Alert>
      )}
      {FIELDS.map((field) => (
        <TextInput
          key={field}
          label={t(`register.${field}`)}
          value={values[field]}
          required
          disabled={challengeId !== null}
          error={errorOf(`/${field}`)}
          onChange={(event) => {
            const value = event.currentTarget.value;
            setValues((old) => ({ ...old, [field]: value }));
          }}
        />
      ))}
      <Select
        label={t('register.userType')}
        data={(options?.userTypes ?? []).map((u) => ({ value: u.code, label: u.description }))}
        value={userType}
        onChange={setUserType}
        disabled={challengeId !== null}
        error={errorOf('/userType')}
        allowDeselect={false}
      />
      {challengeId === null ? (
        <Group>
          <Button onClick={() => void sendCode()} loading={busy}>
            {t('register.sendCode')}
          </Button>
        </Group>
      ) : (
        <>
          <TextInput
            label={t('register.code')}
            value={code}
            onChange={(e) => setCode(e.currentTarget.value)}
            required
            error={errorOf('/code')}
            inputMode="numeric"
          />
          <PasswordInput
            label={t('register.password')}
            value={password}
            onChange={(e) => setPassword(e.currentTarget.value)}
            required
            error={errorOf('/password')}
          />
          <PasswordInput
            label={t('register.confirm')}
            value={confirm}
            onChange={(e) => setConfirm(e.currentTarget.value)}
            required
            error={errorOf('/confirm')}
          />
          <Group>
            <Button onClick={() => void register()} loading={busy}>
              {t('register.submit')}
            </Button>
          </Group>
        </>
      )}
    </Stack>
  );
}

/** Where a registration ends: pending approval, with the notice that follows. */
export function RegistrationSuccessPage() {
  const { t } = useTranslation();
  const { session } = usePortal();
  if (session.signedIn) return <Navigate to="/" replace />;
  return (
    <Stack maw={560}>
      <Title order={2}>{t('register.successTitle')}</Title>
      <Alert color="green" role="status">
        {t('register.pending')}
      </Alert>
    </Stack>
  );
}
