import { useEffect, useRef, useState, type ChangeEvent } from 'react';
import {
  Alert,
  Anchor,
  Button,
  Group,
  List,
  PasswordInput,
  Select,
  Stack,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { Link, Navigate, useNavigate, useSearchParams } from 'react-router-dom';
import type { FieldError } from '../../../core/api/errors';
import { checkPassword } from '../../../core/identity/password-policy';
import { usePortal } from '../../context';
import { HOME_PATH } from '../../paths';
import { CorrectionPage } from './CorrectionPage';
import { PasswordRulesList } from './PasswordRulesList';
import {
  DETAIL_FIELDS,
  detailProblems,
  failureText,
  fieldOf,
  identityProblems,
  IDENTITY_FIELDS,
  localDay,
  type DetailField,
  type Details,
  type IdentityDocument,
  type RegistrationOptions,
} from './registrationChecks';

const EMPTY: Details = {
  loginIdentifier: '',
  firstName: '',
  lastName: '',
  emailAddress: '',
  primaryMobileNo: '',
};
const NO_DOCUMENT: IdentityDocument = {
  identityType: '',
  identityNo: '',
  dateOfIssuance: '',
  dateOfExpiry: '',
};
const inputId = (field: string) => `register-${field}`;

/**
 * Self-registration (public, signed-out only): the person's details and what they register as,
 * a confirmation code sent to their mobile, and a password meeting the policy listed above it.
 * Problems are shown under each field and listed, linked, in a summary at the top. Only the
 * mobile number is fixed once the code is sent (the code belongs to it); changing it starts the
 * code step again. The server checks everything again; the account is pending until reviewed.
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
  const [options, setOptions] = useState<RegistrationOptions | null>(null);
  const [values, setValues] = useState<Details>(EMPTY);
  // No type is chosen for the person: the list starts on its prompt.
  const [userType, setUserType] = useState<string | null>(null);
  const [identity, setIdentity] = useState<IdentityDocument>(NO_DOCUMENT);
  const [challengeId, setChallengeId] = useState<string | null>(null);
  const [code, setCode] = useState('');
  const [password, setPassword] = useState('');
  const [confirm, setConfirm] = useState('');
  const [errors, setErrors] = useState<FieldError[]>([]);
  const [message, setMessage] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const summary = useRef<HTMLDivElement>(null);
  const [summaryShown, setSummaryShown] = useState(0);

  useEffect(() => {
    void api
      .get<RegistrationOptions>('connectid', '/registration/options')
      .then(([error, data]) => {
        if (error) setMessage(failureText(error, t));
        else setOptions(data);
      });
    // Asked once: a change of language must not fetch the options again.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [api]);

  // The summary takes the focus each time it is shown, so a screen reader reads it out.
  useEffect(() => {
    if (summaryShown > 0) summary.current?.focus();
  }, [summaryShown]);

  if (session.signedIn) return <Navigate to="/" replace />;

  const chosenType = options?.userTypes.find((u) => u.code === userType);
  const identityType = options?.identityTypes.find((i) => i.code === identity.identityType);
  // Verified as the person types, against today's date where they are.
  const documentProblems = identityProblems(identity, identityType, localDay(new Date()), t);
  const labelOf = (field: string) =>
    (IDENTITY_FIELDS as readonly string[]).includes(field)
      ? t(`account.identity.${field}`)
      : t(`register.${field}`);
  const errorFor = (field: string) =>
    errors
      .filter((e) => fieldOf(e.path) === field)
      .map((e) => e.message)
      .join(' ') || undefined;
  const fail = (problems: FieldError[], text: string | null = null) => {
    setErrors(problems);
    setMessage(text);
    setSummaryShown((n) => n + 1);
  };

  const sendCode = async () => {
    const problems = [...detailProblems(values, userType, t), ...documentProblems];
    if (problems.length) return fail(problems);
    setBusy(true);
    setErrors([]);
    setMessage(null);
    const [error, result] = await api.post<{ challengeId: string }>('challenge', '', {
      channel: 'mobile',
      destination: values.primaryMobileNo,
      purpose: 'registration',
    });
    setBusy(false);
    if (error) return fail(error.fields ?? [], error.fields?.length ? null : failureText(error, t));
    setChallengeId(result.challengeId);
  };

  const changeMobile = () => {
    setChallengeId(null);
    setCode('');
    setErrors([]);
    setMessage(null);
    // Back to the field to correct.
    setTimeout(() => document.getElementById(inputId('primaryMobileNo'))?.focus());
  };

  const register = async () => {
    const problems = [...detailProblems(values, userType, t), ...documentProblems];
    if (code.trim() === '') {
      problems.push({ path: '/code', rule: 'required', message: t('register.errors.code') });
    }
    const weak = checkPassword(
      chosenType?.passwordRules,
      password,
      values.loginIdentifier.trim(),
    ).map((p) => t(`validation.${p.rule}`, { limit: p.params.limit }));
    if (password === '') weak.unshift(t('validation.required'));
    if (weak.length)
      problems.push({ path: '/password', rule: 'passwordPolicy', message: weak.join(' ') });
    if (password !== confirm) {
      problems.push({ path: '/confirm', rule: 'same', message: t('register.passwordsDiffer') });
    }
    if (problems.length) return fail(problems);
    setBusy(true);
    setErrors([]);
    setMessage(null);
    const [error] = await api.post('connectid', '/registration', {
      challengeId,
      code: code.trim(),
      password,
      data: {
        identity: {
          loginIdentifier: values.loginIdentifier.trim(),
          firstName: values.firstName.trim(),
          lastName: values.lastName.trim(),
          // The document only when a type is chosen, and only the fields filled.
          ...(identityType
            ? Object.fromEntries(
                IDENTITY_FIELDS.map((f) => [f, identity[f].trim()]).filter(([, v]) => v !== ''),
              )
            : {}),
        },
        contact: {
          emailAddress: values.emailAddress.trim(),
          primaryMobileNo: values.primaryMobileNo.trim(),
        },
        organisation: { userType },
      },
    });
    setBusy(false);
    if (error) return fail(error.fields ?? [], error.fields?.length ? null : failureText(error, t));
    navigate('/success');
  };

  const onChange = (field: DetailField) => (event: ChangeEvent<HTMLInputElement>) => {
    const value = event.currentTarget.value;
    setValues((old) => ({ ...old, [field]: value }));
  };
  const help: Partial<Record<DetailField, string>> = {
    loginIdentifier: t('register.loginIdentifierHelp'),
    primaryMobileNo: t('register.primaryMobileNoHelp'),
  };

  return (
    <Stack maw={560} gap="sm">
      <Title order={2}>{t('register.title')}</Title>
      <Text c="dimmed">{t('register.intro')}</Text>
      {(errors.length > 0 || message) && (
        <Alert
          ref={summary}
          tabIndex={-1}
          color="red"
          role="alert"
          title={t('register.errorSummary')}
          data-testid="error-summary"
        >
          {message && <Text size="sm">{message}</Text>}
          {errors.length > 0 && (
            <List size="sm">
              {errors.map((e) => {
                const field = fieldOf(e.path);
                return (
                  <List.Item key={`${e.path} ${e.rule}`}>
                    {field ? (
                      // A button, not a link: a `#id` link would change the hash route.
                      <Anchor
                        component="button"
                        type="button"
                        size="sm"
                        c="inherit"
                        underline="always"
                        ta="start"
                        // Inline, so a wrapped entry keeps its bullet on its first line.
                        display="inline"
                        onClick={() => document.getElementById(inputId(field))?.focus()}
                      >
                        {/* The field's name first: five "This field is required" say nothing. */}
                        {t('register.summaryEntry', {
                          field: labelOf(field),
                          message: e.message,
                        })}
                      </Anchor>
                    ) : (
                      e.message
                    )}
                  </List.Item>
                );
              })}
            </List>
          )}
        </Alert>
      )}
      <form
        noValidate
        onSubmit={(event) => {
          event.preventDefault();
          void (challengeId === null ? sendCode() : register());
        }}
      >
        <Stack gap="sm">
          {DETAIL_FIELDS.map((field) => (
            <TextInput
              key={field}
              id={inputId(field)}
              label={t(`register.${field}`)}
              description={help[field]}
              value={values[field]}
              required
              readOnly={field === 'primaryMobileNo' && challengeId !== null}
              error={errorFor(field)}
              type={
                field === 'emailAddress' ? 'email' : field === 'primaryMobileNo' ? 'tel' : 'text'
              }
              autoComplete={AUTOCOMPLETE[field]}
              onChange={onChange(field)}
            />
          ))}
          <Select
            id={inputId('userType')}
            label={t('register.userType')}
            placeholder={t('register.userTypePrompt')}
            data={(options?.userTypes ?? []).map((u) => ({
              value: u.code,
              label: t(`register.userTypes.${u.code}`, { defaultValue: u.description }),
            }))}
            value={userType}
            onChange={setUserType}
            required
            error={errorFor('userType')}
            allowDeselect={false}
          />
          <Select
            id={inputId('identityType')}
            label={t('account.identity.identityType')}
            placeholder={t('account.registration.identityTypePrompt')}
            data={(options?.identityTypes ?? []).map((i) => ({
              value: i.code,
              label: t(`register.identityTypes.${i.code}`, { defaultValue: i.description }),
            }))}
            value={identity.identityType || null}
            onChange={(code) => {
              setIdentity((old) => ({ ...old, identityType: code ?? '' }));
              // Another type, other checks: the dates' earlier refusals no longer hold.
              setErrors((old) =>
                old.filter((e) => !IDENTITY_FIELDS.some((f) => f === fieldOf(e.path))),
              );
            }}
            clearable
            error={errorFor('identityType')}
          />
          {identityType && (
            <>
              {(['identityNo', 'dateOfIssuance', 'dateOfExpiry'] as const).map((field) => (
                <TextInput
                  key={field}
                  id={inputId(field)}
                  label={t(`account.identity.${field}`)}
                  type={field === 'identityNo' ? 'text' : 'date'}
                  value={identity[field]}
                  required={
                    (field === 'dateOfIssuance' &&
                      identityType.checkIdentityValidDateFrom === 'MANDATORY') ||
                    (field === 'dateOfExpiry' &&
                      identityType.checkIdentityValidDateTo === 'MANDATORY')
                  }
                  error={errorFor(field)}
                  onChange={(event) => {
                    const value = event.currentTarget.value;
                    setIdentity((old) => ({ ...old, [field]: value }));
                    // The panel below verifies the document live: an earlier refusal of this
                    // field, under it and in the summary, would contradict it once corrected.
                    setErrors((old) => old.filter((e) => fieldOf(e.path) !== field));
                  }}
                />
              ))}
              {documentProblems.length === 0 ? (
                <Alert
                  color="green"
                  role="status"
                  title={t('account.registration.verificationTitle')}
                  // Mantine's green title, even its darkest shade, is below the AA contrast ratio
                  // on the light green of the panel: a darker green of our own.
                  styles={{ title: { color: '#1b5e20' } }}
                  data-testid="document-verification"
                >
                  {t('account.registration.verificationPassed')}
                </Alert>
              ) : (
                <Alert
                  color="red"
                  role="status"
                  title={t('account.registration.verificationErrors')}
                  data-testid="document-verification"
                >
                  <List size="sm">
                    {documentProblems.map((p) => (
                      <List.Item key={p.path}>{p.message}</List.Item>
                    ))}
                  </List>
                </Alert>
              )}
            </>
          )}
          {challengeId === null ? (
            <Group>
              <Button type="submit" loading={busy}>
                {t('register.sendCode')}
              </Button>
            </Group>
          ) : (
            <>
              <Alert color="green" role="status">
                {t('register.codeSentTo', { mobile: values.primaryMobileNo.trim() })}
                {options?.developerOutbox && (
                  <Text size="sm" mt="xs">
                    {t('register.developerOutbox')}{' '}
                    <Anchor
                      href={`${options.developerOutbox}?recipient=${encodeURIComponent(values.primaryMobileNo.trim())}`}
                      target="_blank"
                      rel="noopener"
                    >
                      {t('register.developerOutboxLink')}
                    </Anchor>
                  </Text>
                )}
                <Group mt="xs">
                  <Button variant="default" size="xs" onClick={changeMobile}>
                    {t('register.changeMobile')}
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
                rules={chosenType?.passwordRules}
                password={password}
                login={values.loginIdentifier.trim()}
              />
              <PasswordInput
                id={inputId('password')}
                label={t('register.password')}
                value={password}
                onChange={(e) => setPassword(e.currentTarget.value)}
                required
                error={errorFor('password')}
                autoComplete="new-password"
              />
              <PasswordInput
                id={inputId('confirm')}
                label={t('register.confirm')}
                value={confirm}
                onChange={(e) => setConfirm(e.currentTarget.value)}
                required
                error={errorFor('confirm')}
                autoComplete="new-password"
              />
              <Group>
                <Button type="submit" loading={busy}>
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

const AUTOCOMPLETE: Record<DetailField, string> = {
  loginIdentifier: 'username',
  firstName: 'given-name',
  lastName: 'family-name',
  emailAddress: 'email',
  primaryMobileNo: 'tel',
};

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
