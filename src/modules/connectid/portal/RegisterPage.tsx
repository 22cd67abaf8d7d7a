import { useEffect, useMemo, useRef, useState, type ChangeEvent } from 'react';
import {
  Alert,
  Anchor,
  Button,
  Group,
  List,
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
import { usePortal, useLanguage, HOME_PATH } from '../../../portal/module';
import {
  ConfirmationChannelChoice,
  destinationField,
  offeredChannels,
  type ConfirmationChannel,
} from './ConfirmationChannelChoice';
import { CorrectionPage } from './CorrectionPage';
import { fieldMessages } from './fieldMessages';
import { IdentityDocumentFields } from './IdentityDocumentFields';
import { OrganisationFields, useRegistrationLabel } from './OrganisationFields';
import {
  ADDRESS_FIELDS,
  NO_ADDRESS,
  NO_ORGANISATION,
  organisationData,
  organisationProblems,
  type Address,
  type Organisation,
} from './organisationChecks';
import { PasswordField } from './PasswordField';
import { PasswordRulesList } from './PasswordRulesList';
import {
  DETAIL_FIELDS,
  detailProblems,
  failureText,
  optionsInLanguage,
  fieldOf,
  identityProblems,
  IDENTITY_FIELDS,
  useDeclaredChecks,
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
 * Self-registration (public, signed-out only): the person's details, what they register as and
 * what that type asks (organisation fields, an address), a confirmation code sent through a
 * channel that is on (their mobile by default; their e-mail, or the contact of the agency, agent
 * or trader they name), and a password meeting the policy listed above it. Problems are shown
 * under each field and listed, linked, in a summary at the top. Only the field the code went to
 * is fixed once it is sent (the code belongs to it); changing it starts the code step again. The server checks everything again; the account is pending until reviewed.
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
  const [loaded, setOptions] = useState<RegistrationOptions | null>(null);
  const [values, setValues] = useState<Details>(EMPTY);
  // No type is chosen for the person: the list starts on its prompt.
  const [userType, setUserType] = useState<string | null>(null);
  const [identity, setIdentity] = useState<IdentityDocument>(NO_DOCUMENT);
  const [organisation, setOrganisation] = useState<Organisation>(NO_ORGANISATION);
  const [address, setAddress] = useState<Address>(NO_ADDRESS);
  const [chosenChannel, setChannel] = useState<ConfirmationChannel>('mobile');
  const [sentMessage, setSentMessage] = useState<string | null>(null);
  const labelOf = useRegistrationLabel();
  const [challengeId, setChallengeId] = useState<string | null>(null);
  const [code, setCode] = useState('');
  const [password, setPassword] = useState('');
  const [confirm, setConfirm] = useState('');
  const [errors, setErrors] = useState<FieldError[]>([]);
  const [message, setMessage] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const summary = useRef<HTMLDivElement>(null);
  const [summaryShown, setSummaryShown] = useState(0);
  // Which of the page's own checks the errors shown come from (null: the server's, or none).
  const [checkedStep, setCheckedStep] = useState<'details' | 'register' | null>(null);
  const language = useLanguage();
  // The types and countries read in the language shown, whichever it is switched to.
  const options = useMemo(() => loaded && optionsInLanguage(loaded, language), [loaded, language]);
  // The checks the definitions declare, on the portal's day: the server's own.
  const declared = useDeclaredChecks(loaded);
  // Problems the page found are worded again in the language the person switches to.
  const recheck = useRef<() => void>(() => undefined);
  useEffect(() => recheck.current(), [language]);

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
  const channels = offeredChannels(options, chosenType);
  // A type that does not let the person name the entry of the chosen channel: the first offered.
  const channel = channels.includes(chosenChannel) ? chosenChannel : (channels[0] ?? 'mobile');
  const destinationOf = destinationField(options ?? {}, channel) ?? 'primaryMobileNo';
  const locked = challengeId === null ? null : destinationOf;
  const destinationValue = (
    destinationOf in values
      ? values[destinationOf as keyof Details]
      : (organisation[destinationOf as keyof Organisation] ?? '')
  ).trim();
  const typeProblems = () => {
    const problems = organisationProblems(
      organisation,
      address,
      chosenType,
      declared.account?.userType.checks ?? {},
      t,
    );
    const path = `/organisation/${destinationOf}`;
    // The entry the code goes to must be named, even where the type makes it optional.
    return problems.concat(
      destinationValue === '' &&
        !(destinationOf in values) &&
        !problems.some((p) => p.path === path)
        ? [{ path, rule: 'required', message: t('register.errors.destination') }]
        : [],
    );
  };
  const identityType = options?.identityTypes.find((i) => i.code === identity.identityType);
  // Verified as the person types, against today's date in the portal's time zone.
  const documentProblems = identityProblems(identity, identityType, declared, t);
  const errorFor = (field: string) =>
    fieldMessages(errors.filter((e) => fieldOf(e.path) === field));
  const fail = (problems: FieldError[], text: string | null = null) => {
    setErrors(problems);
    setMessage(text);
    setSummaryShown((n) => n + 1);
  };

  /** The problems the page finds itself before sending a code. */
  const detailsStepProblems = () => [
    ...detailProblems(values, userType, t),
    ...typeProblems(),
    ...documentProblems,
  ];
  /** ...and before registering: the code and the password too. */
  const registerStepProblems = () => {
    const problems = detailsStepProblems();
    if (code.trim() === '') {
      problems.push({ path: '/code', rule: 'required', message: t('register.errors.code') });
    }
    // One problem per broken rule: each its own line under the field and in the summary.
    if (password === '')
      problems.push({ path: '/password', rule: 'required', message: t('validation.required') });
    else
      for (const broken of checkPassword(
        chosenType?.passwordRules,
        password,
        values.loginIdentifier.trim(),
      ))
        problems.push({
          path: '/password',
          rule: broken.rule,
          message: t(`validation.${broken.rule}`, { limit: broken.params.limit }),
        });
    if (password !== confirm) {
      problems.push({ path: '/confirm', rule: 'same', message: t('register.passwordsDiffer') });
    }
    return problems;
  };
  recheck.current = () => {
    if (checkedStep === 'details') setErrors(detailsStepProblems());
    if (checkedStep === 'register') setErrors(registerStepProblems());
  };
  const sendCode = async () => {
    const problems = detailsStepProblems();
    setCheckedStep(problems.length ? 'details' : null);
    if (problems.length) return fail(problems);
    setBusy(true);
    setErrors([]);
    setMessage(null);
    const [error, result] = await api.post<{ challengeId: string; message: string }>(
      'challenge',
      '',
      { channel, destination: destinationValue, purpose: 'registration' },
    );
    setBusy(false);
    if (error) {
      // The code endpoint names its field `/destination`: the field the chosen channel uses.
      const fields = (error.fields ?? []).map((f) =>
        f.path === '/destination' ? { ...f, path: `/${destinationOf}` } : f,
      );
      return fail(fields, fields.length ? null : failureText(error, t));
    }
    setChallengeId(result.challengeId);
    setSentMessage(result.message);
  };

  const changeDestination = () => {
    setChallengeId(null);
    setCode('');
    setErrors([]);
    setMessage(null);
    // Back to the field to correct.
    setTimeout(() => document.getElementById(inputId(destinationOf))?.focus());
  };

  const register = async () => {
    const problems = registerStepProblems();
    setCheckedStep(problems.length ? 'register' : null);
    if (problems.length) return fail(problems);
    setBusy(true);
    setErrors([]);
    setMessage(null);
    const [error] = await api.post('connectid', '/registration', {
      challengeId,
      code: code.trim(),
      channel,
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
        ...organisationData(userType, organisation, address, chosenType),
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
            // Spaced so each entry's button keeps the 24 px target WCAG 2.5.8 asks.
            <List size="sm" spacing={4}>
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
                        // Inline and aligned on its top: a button is laid out as an inline
                        // block, whose last line the bullet followed when an entry wrapped.
                        display="inline"
                        style={{ verticalAlign: 'top' }}
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
              readOnly={locked === field}
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
              label: u.description,
            }))}
            value={userType}
            onChange={(next) => {
              setUserType(next);
              // Another type, other fields: their earlier refusals no longer hold.
              setErrors((old) =>
                old.filter((e) => {
                  const field = fieldOf(e.path) ?? '';
                  return !(field in NO_ORGANISATION) && !ADDRESS_FIELDS.some((f) => f === field);
                }),
              );
            }}
            readOnly={challengeId !== null && destinationOf in NO_ORGANISATION}
            required
            error={errorFor('userType')}
            allowDeselect={false}
          />
          <OrganisationFields
            type={chosenType}
            organisation={organisation}
            onOrganisation={(field, value) =>
              setOrganisation((old) => ({ ...old, [field]: value }))
            }
            address={address}
            onAddress={(field, value) => setAddress((old) => ({ ...old, [field]: value }))}
            countries={options?.countries ?? []}
            locked={locked}
            errorFor={errorFor}
            inputId={inputId}
          />
          <IdentityDocumentFields
            types={options?.identityTypes ?? []}
            checks={declared.account?.identityType?.checks ?? {}}
            document={identity}
            onChange={(field, value) => setIdentity((old) => ({ ...old, [field]: value }))}
            problems={documentProblems}
            errorFor={errorFor}
            inputId={inputId}
            onForget={(fields) =>
              setErrors((old) => old.filter((e) => !fields.includes(fieldOf(e.path) ?? '')))
            }
          />
          <ConfirmationChannelChoice
            channels={channels}
            value={channel}
            onChange={setChannel}
            disabled={challengeId !== null}
          />
          {challengeId === null ? (
            <Group>
              <Button type="submit" loading={busy}>
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
                rules={chosenType?.passwordRules}
                password={password}
                login={values.loginIdentifier.trim()}
              />
              <PasswordField
                id={inputId('password')}
                label={t('register.password')}
                value={password}
                onChange={(e) => setPassword(e.currentTarget.value)}
                required
                error={errorFor('password')}
                autoComplete="new-password"
              />
              <PasswordField
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
