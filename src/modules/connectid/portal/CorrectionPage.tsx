import { useEffect, useMemo, useRef, useState, type ChangeEvent } from 'react';
import {
  Alert,
  Button,
  Group,
  List,
  Loader,
  Select,
  Stack,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import type { FieldError } from '../../../core/api/errors';
import { usePortal, useLanguage, HOME_PATH } from '../../../portal/module';
import { fieldMessages } from './fieldMessages';
import { IdentityDocumentFields } from './IdentityDocumentFields';
import { OrganisationFields, useRegistrationLabel } from './OrganisationFields';
import {
  ADDRESS_FIELDS,
  ORGANISATION_FIELDS,
  organisationData,
  organisationProblems,
  type Address,
  type Organisation,
} from './organisationChecks';
import {
  DETAIL_FIELDS,
  detailProblems,
  failureText,
  optionsInLanguage,
  fieldOf,
  IDENTITY_FIELDS,
  identityProblems,
  useDeclaredChecks,
  type DetailField,
  type Details,
  type IdentityDocument,
  type RegistrationOptions,
} from './registrationChecks';

type Section = Record<string, unknown>;
interface Opened {
  login: string;
  data: Record<string, Section | unknown>;
  notes: string | null;
}

/** Fields the correction keeps as registered: the login and the mobile its code confirmed. */
const FIXED: ReadonlySet<DetailField> = new Set(['loginIdentifier', 'primaryMobileNo']);
const inputId = (field: string) => `correct-${field}`;
const asSection = (value: unknown): Section =>
  typeof value === 'object' && value !== null ? (value as Section) : {};
const section = (data: Opened['data'], name: string): Section => asSection(data[name]);
const textOf = (value: unknown) => (typeof value === 'string' ? value : '');
/** The fields of a stored section as the page's text inputs hold them. */
const textsOf = <F extends string>(fields: readonly F[], stored: Section): Record<F, string> =>
  Object.fromEntries(fields.map((field) => [field, textOf(stored[field])])) as Record<F, string>;

/**
 * The correction of a returned self-registration, opened by the one-time link of the return's
 * notice (`/#/register?correction=<token>`): its holder cannot sign in, since the account was
 * never accepted. It shows the reviewer's notes and the registration as the registration page
 * asks it (details, what the user type asks, the identity document and its verification); the
 * login and the mobile number stay as registered. Sent, the registration is pending review again.
 */
export function CorrectionPage({ token }: { token: string }) {
  const { t } = useTranslation();
  const { api, session } = usePortal();
  const [opened, setOpened] = useState<Opened | null>(null);
  const [loaded, setOptions] = useState<RegistrationOptions | null>(null);
  // The types and countries read in the language shown, whichever it is switched to.
  const language = useLanguage();
  const options = useMemo(() => loaded && optionsInLanguage(loaded, language), [loaded, language]);
  // The checks the definitions declare, on the portal's day: the server's own.
  const declared = useDeclaredChecks(loaded);
  const [values, setValues] = useState<Details | null>(null);
  const [userType, setUserType] = useState<string | null>(null);
  const [organisation, setOrganisation] = useState<Organisation | null>(null);
  const [address, setAddress] = useState<Address | null>(null);
  const [identity, setIdentity] = useState<IdentityDocument | null>(null);
  const labelOf = useRegistrationLabel();
  const [invalid, setInvalid] = useState<string | null>(null);
  const [errors, setErrors] = useState<FieldError[]>([]);
  const [message, setMessage] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [done, setDone] = useState(false);
  const summary = useRef<HTMLDivElement>(null);
  const [summaryShown, setSummaryShown] = useState(0);

  useEffect(() => {
    void api
      .post<Opened>('connectid', '/registration/correction/open', { token })
      .then(([error, data]) => {
        if (error) return setInvalid(failureText(error, t));
        setOpened(data);
        const identity = section(data.data, 'identity');
        const contact = section(data.data, 'contact');
        setValues({
          loginIdentifier: data.login,
          firstName: textOf(identity.firstName),
          lastName: textOf(identity.lastName),
          emailAddress: textOf(contact.emailAddress),
          primaryMobileNo: textOf(contact.primaryMobileNo),
        });
        setUserType(textOf(section(data.data, 'organisation').userType) || null);
        setOrganisation(
          textsOf(
            ORGANISATION_FIELDS.map(([field]) => field),
            section(data.data, 'organisation'),
          ),
        );
        // The page corrects the first address (the registration page gives one).
        const addresses = Array.isArray(data.data.addresses) ? data.data.addresses : [];
        setAddress(textsOf(ADDRESS_FIELDS, asSection(addresses[0])));
        setIdentity(textsOf(IDENTITY_FIELDS, identity));
      });
    void api
      .get<RegistrationOptions>('connectid', '/registration/options')
      .then(([error, data]) => {
        if (!error) setOptions(data);
      });
    // Opened once: a change of language must not open the link again.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [api, token]);

  // The summary takes the focus each time it is shown, so a screen reader reads it out.
  useEffect(() => {
    if (summaryShown > 0) summary.current?.focus();
  }, [summaryShown]);

  const fail = (problems: FieldError[], text: string | null = null) => {
    setErrors(problems);
    setMessage(text);
    setSummaryShown((n) => n + 1);
  };
  const errorFor = (field: string) =>
    fieldMessages(errors.filter((e) => fieldOf(e.path) === field));

  const chosenType = options?.userTypes.find((u) => u.code === userType);
  const identityType = options?.identityTypes.find((i) => i.code === identity?.identityType);
  const documentProblems = identity ? identityProblems(identity, identityType, declared, t) : [];

  const send = async () => {
    if (!opened || !values || !organisation || !address || !identity) return;
    const problems = [
      ...detailProblems(values, userType, t),
      ...organisationProblems(
        organisation,
        address,
        chosenType,
        declared.account?.userType.checks ?? {},
        t,
      ),
      ...documentProblems,
    ];
    if (problems.length) return fail(problems);
    setBusy(true);
    setErrors([]);
    setMessage(null);
    const { data } = opened;
    const stored = section(data, 'identity');
    const typed = organisationData(userType, organisation, address, chosenType);
    // Addresses beyond the first (none from the registration page) stay as they were.
    const others = Array.isArray(data.addresses) ? data.addresses.slice(1) : [];
    const addresses = [...(typed.addresses ?? []), ...others];
    const { addresses: _stored, ...rest } = data;
    const [error] = await api.post('connectid', '/registration/correction', {
      token,
      data: {
        ...rest,
        identity: {
          // The document's fields as corrected (a type removed takes its fields with it).
          ...Object.fromEntries(
            Object.entries(stored).filter(([k]) => !IDENTITY_FIELDS.some((f) => f === k)),
          ),
          ...(identityType
            ? Object.fromEntries(
                IDENTITY_FIELDS.map((f) => [f, identity[f].trim()]).filter(([, v]) => v !== ''),
              )
            : {}),
          firstName: values.firstName.trim(),
          lastName: values.lastName.trim(),
        },
        contact: { ...section(data, 'contact'), emailAddress: values.emailAddress.trim() },
        organisation: { ...section(data, 'organisation'), ...typed.organisation },
        ...(addresses.length ? { addresses } : {}),
      },
    });
    setBusy(false);
    if (error) return fail(error.fields ?? [], error.fields?.length ? null : failureText(error, t));
    setDone(true);
  };

  if (session.signedIn) {
    return <Alert color="red">{t('errors.ALREADY_SIGNED_IN')}</Alert>;
  }
  if (done) {
    return (
      <Stack maw={560}>
        <Title order={2}>{t('account.correction.doneTitle')}</Title>
        <Alert color="green" role="status">
          {t('account.correction.done')}
        </Alert>
        <Group>
          <Button component={Link} to={HOME_PATH}>
            {t('register.home')}
          </Button>
        </Group>
      </Stack>
    );
  }

  return (
    <Stack maw={560} gap="sm">
      <Title order={2}>{t('account.correction.title')}</Title>
      {invalid ? (
        <Alert color="red" role="alert">
          {invalid}
        </Alert>
      ) : !opened || !values ? (
        <Group>
          <Loader size="sm" />
          <Text>{t('account.correction.loading')}</Text>
        </Group>
      ) : (
        <>
          <Text c="dimmed">{t('account.correction.intro')}</Text>
          {opened.notes && (
            <Alert color="blue" title={t('account.correction.notes')} data-testid="return-notes">
              <Text size="sm" style={{ whiteSpace: 'pre-wrap' }}>
                {opened.notes}
              </Text>
            </Alert>
          )}
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
                <List size="sm" spacing={4}>
                  {errors.map((e) => {
                    const field = fieldOf(e.path);
                    return (
                      <List.Item key={`${e.path} ${e.rule}`}>
                        {field
                          ? t('register.summaryEntry', {
                              field: labelOf(field),
                              message: e.message,
                            })
                          : e.message}
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
              void send();
            }}
          >
            <Stack gap="sm">
              <Text size="sm">{t('account.correction.fixed')}</Text>
              {DETAIL_FIELDS.map((field) => (
                <TextInput
                  key={field}
                  id={inputId(field)}
                  label={t(`register.${field}`)}
                  value={values[field]}
                  required
                  readOnly={FIXED.has(field)}
                  // Filled, so a field that cannot change does not look like one to type in.
                  variant={FIXED.has(field) ? 'filled' : 'default'}
                  error={errorFor(field)}
                  type={
                    field === 'emailAddress'
                      ? 'email'
                      : field === 'primaryMobileNo'
                        ? 'tel'
                        : 'text'
                  }
                  onChange={(event: ChangeEvent<HTMLInputElement>) => {
                    const value = event.currentTarget.value;
                    setValues((old) => (old ? { ...old, [field]: value } : old));
                  }}
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
                onChange={setUserType}
                required
                error={errorFor('userType')}
                allowDeselect={false}
              />
              {organisation && address && (
                <OrganisationFields
                  type={chosenType}
                  organisation={organisation}
                  onOrganisation={(field, value) =>
                    setOrganisation((old) => (old ? { ...old, [field]: value } : old))
                  }
                  address={address}
                  onAddress={(field, value) =>
                    setAddress((old) => (old ? { ...old, [field]: value } : old))
                  }
                  countries={options?.countries ?? []}
                  locked={null}
                  errorFor={errorFor}
                  inputId={inputId}
                />
              )}
              {identity && (
                <IdentityDocumentFields
                  types={options?.identityTypes ?? []}
                  checks={declared.account?.identityType?.checks ?? {}}
                  document={identity}
                  onChange={(field, value) =>
                    setIdentity((old) => (old ? { ...old, [field]: value } : old))
                  }
                  problems={documentProblems}
                  errorFor={errorFor}
                  inputId={inputId}
                  onForget={(fields) =>
                    setErrors((old) => old.filter((e) => !fields.includes(fieldOf(e.path) ?? '')))
                  }
                />
              )}
              {busy && (
                <Alert color="blue" role="status">
                  {t('messages.processing', { context: 'connectid' })}
                </Alert>
              )}
              <Group>
                <Button type="submit" loading={busy}>
                  {t('account.correction.submit')}
                </Button>
              </Group>
            </Stack>
          </form>
        </>
      )}
    </Stack>
  );
}
