import { useState } from 'react';
import { Alert, Anchor, Button, Group, Stack, Text, TextInput, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { Link, Navigate, useNavigate, useSearchParams } from 'react-router-dom';
import { checkPassword } from '../../../core/identity/password-policy';
import { usePortal, HOME_PATH } from '../../../portal/module';
import {
  ConfirmationChannelChoice,
  destinationField,
  offeredChannels,
  type ConfirmationChannel,
} from './ConfirmationChannelChoice';
import { CorrectionPage } from './CorrectionPage';
import { PasswordField } from './PasswordField';
import { PasswordRulesList } from './PasswordRulesList';
import { accountData, NO_VALUES, registrationProblems, type FormField } from './registrationChecks';
import { RegistrationFields, RegistrationSummary, useRegistrationForm } from './RegistrationForm';

const inputId = (field: string) => `register-${field}`;

/**
 * Self-registration (public, signed-out only): details, user type, a confirmation code through a
 * channel that is on, and a password. Changing the field the code went to restarts the code step.
 */
export function RegisterPage() {
  // The one-time link of a returned registration's notice opens the page in its correction mode.
  const [search] = useSearchParams();
  const correction = search.get('correction');
  return correction ? <CorrectionPage token={correction} /> : <NewRegistration />;
}

function NewRegistration() {
  const { t } = useTranslation();
  const { api, session } = usePortal();
  const navigate = useNavigate();
  const form = useRegistrationForm(NO_VALUES);
  const { options, values, type, declared, errorFor } = form;
  const [chosenChannel, setChannel] = useState<ConfirmationChannel>('mobile');
  const [sentMessage, setSentMessage] = useState<string | null>(null);
  const [challengeId, setChallengeId] = useState<string | null>(null);
  const [code, setCode] = useState('');
  const [password, setPassword] = useState('');
  const [confirm, setConfirm] = useState('');

  if (session.signedIn) return <Navigate to="/" replace />;

  const channels = offeredChannels(options, type, declared);
  // A type that does not let the person name the entry of the chosen channel: the first offered.
  const channel = channels.includes(chosenChannel) ? chosenChannel : (channels[0] ?? 'mobile');
  const destinationOf = (destinationField(options ?? {}, channel) ??
    'primaryMobileNo') as FormField;
  const locked = challengeId === null ? null : destinationOf;
  const destinationValue = (values[destinationOf] ?? '').trim();

  const login = values.loginIdentifier.trim();
  form.checks.current.details = () =>
    registrationProblems(values, options, declared, t, destinationOf);
  form.checks.current.register = () => {
    const problems = registrationProblems(values, options, declared, t, destinationOf);
    const add = (path: string, rule: string, message: string) =>
      problems.push({ path, rule, message });
    if (code.trim() === '') add('/code', 'required', t('register.errors.code'));
    // One problem per broken rule: each its own line under the field and in the summary.
    if (password === '') add('/password', 'required', t('validation.required'));
    for (const broken of password ? checkPassword(type?.passwordRules, password, login) : [])
      add('/password', broken.rule, t(`validation.${broken.rule}`, broken.params));
    if (password !== confirm) add('/confirm', 'same', t('register.passwordsDiffer'));
    return problems;
  };

  const sendCode = async () => {
    if (!form.check('details')) return;
    // The code endpoint names its field `/destination`: the field the chosen channel uses.
    const [error, sent] = await form.send(
      () =>
        api.post<{ challengeId: string; message: string }>('challenge', '', {
          channel,
          destination: destinationValue,
          purpose: 'registration',
        }),
      { '/destination': `/${destinationOf}` },
    );
    if (error) return;
    setChallengeId(sent.challengeId);
    setSentMessage(sent.message);
  };

  const changeDestination = () => {
    setChallengeId(null);
    setCode('');
    form.clear();
    // Back to the field to correct.
    setTimeout(() => document.getElementById(inputId(destinationOf))?.focus());
  };

  const register = async () => {
    if (!form.check('register')) return;
    const [error] = await form.send(() =>
      api.post('connectid', '/registration', {
        challengeId,
        code: code.trim(),
        channel,
        password,
        data: accountData(values, type, !!form.identityType, declared),
      }),
    );
    if (!error) navigate('/success');
  };

  return (
    <Stack maw={560} gap="sm">
      <Title order={2}>{t('register.title')}</Title>
      <Text c="dimmed">{t('register.intro')}</Text>
      <RegistrationSummary form={form} inputId={inputId} />
      <form
        noValidate
        onSubmit={(event) => {
          event.preventDefault();
          void (challengeId === null ? sendCode() : register());
        }}
      >
        <Stack gap="sm">
          <RegistrationFields form={form} inputId={inputId} locked={locked} />
          <ConfirmationChannelChoice
            channels={channels}
            value={channel}
            onChange={setChannel}
            disabled={challengeId !== null}
          />
          {challengeId === null ? (
            <Group>
              <Button type="submit" loading={form.busy}>
                {t('register.sendCode')}
              </Button>
            </Group>
          ) : (
            <>
              <Alert color="green" role="status">
                {channel === 'mobile'
                  ? t('register.codeSentTo', { mobile: values.primaryMobileNo.trim() })
                  : sentMessage}
                {options?.developerOutbox && (channel === 'mobile' || channel === 'email') && (
                  <Text size="sm" mt="xs">
                    {t('register.developerOutbox')}{' '}
                    <Anchor
                      href={`${options.developerOutbox}?recipient=${encodeURIComponent(destinationValue)}`}
                      target="_blank"
                      rel="noopener"
                    >
                      {t('register.developerOutboxLink')}
                    </Anchor>
                  </Text>
                )}
                <Group mt="xs">
                  <Button variant="default" size="xs" onClick={changeDestination}>
                    {t(`register.changeDestination.${channel}`)}
                  </Button>
                </Group>
              </Alert>
              <TextInput
                id={inputId('code')}
                label={t('register.code')}
                value={code}
                onChange={(e) => setCode(e.currentTarget.value)}
                required
                error={errorFor('code')}
                inputMode="numeric"
                autoComplete="one-time-code"
              />
              <PasswordRulesList
                id="register-password-rules"
                rules={type?.passwordRules}
                password={password}
                login={login}
              />
              {(['password', 'confirm'] as const).map((field) => (
                <PasswordField
                  key={field}
                  id={inputId(field)}
                  label={t(`register.${field}`)}
                  value={field === 'password' ? password : confirm}
                  onChange={(e) =>
                    (field === 'password' ? setPassword : setConfirm)(e.currentTarget.value)
                  }
                  required
                  error={errorFor(field)}
                  autoComplete="new-password"
                />
              ))}
              <Group>
                <Button type="submit" loading={form.busy}>
                  {t('register.submit')}
                </Button>
              </Group>
            </>
          )}
        </Stack>
      </form>
    </Stack>
  );
}

/** Where a registration ends: pending approval, what happens next, and the ways on. */
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
      <Title order={3} size="h4">
        {t('register.nextSteps')}
      </Title>
      <Text>{t('register.signInLater')}</Text>
      <Group>
        <Button component={Link} to={HOME_PATH}>
          {t('register.home')}
        </Button>
        <Button variant="default" onClick={() => session.login(HOME_PATH)}>
          {t('register.signIn')}
        </Button>
      </Group>
    </Stack>
  );
}
