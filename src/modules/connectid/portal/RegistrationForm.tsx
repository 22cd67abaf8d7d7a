import { useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import {
  Alert,
  List,
  Select,
  Stack,
  Text,
  TextInput,
  useComputedColorScheme,
  VisuallyHidden,
  type ComboboxData,
} from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { ApiResult } from '../../../core/api/client';
import type { FieldError } from '../../../core/api/errors';
import { checkOf } from '../../../core/identity/declared-checks';
import { DateTimeField } from '../../../engine/DateTimeField';
import { ErrorSummary } from '../../../engine/ErrorSummary';
import { useLanguage, usePortal } from '../../../portal/module';
import { fieldMessages } from './fieldMessages';
import {
  ADDRESS_FIELDS,
  ADDRESS_TYPES,
  checkNamed,
  DETAIL_FIELDS,
  failureText,
  fieldOf,
  IDENTITY_FIELDS,
  identityProblems,
  optionsInLanguage,
  ORGANISATION_FIELDS,
  organisationFieldsOf,
  sectionOf,
  useDeclaredChecks,
  type FormField,
  type IdentityField,
  type RegistrationOptions,
  type RegistrationValues,
} from './registrationChecks';

/**
 * What the registration and its correction share: options in the language shown, values,
 * problems (worded again on a language change) and their summary.
 */
export function useRegistrationForm(initial: RegistrationValues) {
  const { t } = useTranslation();
  const { api } = usePortal();
  const language = useLanguage();
  const [loaded, setOptions] = useState<RegistrationOptions | null>(null);
  const options = useMemo(() => loaded && optionsInLanguage(loaded, language), [loaded, language]);
  const declared = useDeclaredChecks(loaded);
  const [values, setValues] = useState(initial);
  const [errors, setErrors] = useState<FieldError[]>([]);
  const [message, setMessage] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  // The page's own check whose problems are shown (none: the server's), with today's values.
  const [checked, setChecked] = useState<string | null>(null);
  const checks = useRef<Record<string, () => FieldError[]>>({});

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
  useEffect(() => {
    if (checked) setErrors(checks.current[checked]?.() ?? []);
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [language]);

  const clear = () => {
    setErrors([]);
    setMessage(null);
  };
  const fail = (problems: FieldError[], text: string | null = null) => {
    setErrors(problems);
    setMessage(text);
  };
  const identityType = options?.identityTypes.find((i) => i.code === values.identityType);
  return {
    options,
    declared,
    values,
    set: (field: FormField, value: string) => setValues((old) => ({ ...old, [field]: value })),
    type: options?.userTypes.find((u) => u.code === values.userType),
    identityType,
    // Verified as the person types, against today's date in the portal's time zone.
    documentProblems: identityProblems(values, identityType, declared, t),
    errors,
    message,
    busy,
    checks,
    errorFor: (field: string) => fieldMessages(errors.filter((e) => fieldOf(e.path) === field)),
    forget: (fields: readonly string[]) =>
      setErrors((old) => old.filter((e) => !fields.includes(fieldOf(e.path) ?? ''))),
    fail,
    /** Runs the page's check `step`; true when it finds nothing, else its problems are shown. */
    check(step: string) {
      const problems = checks.current[step]?.() ?? [];
      setChecked(problems.length ? step : null);
      if (problems.length) fail(problems);
      return problems.length === 0;
    },
    clear,
    /** Sends a request, the summary saying what the server refused (`renamed` paths renamed). */
    async send<T>(request: () => Promise<ApiResult<T>>, renamed: Record<string, string> = {}) {
      setBusy(true);
      clear();
      const answer = await request();
      setBusy(false);
      const [error] = answer;
      const fields = (error?.fields ?? []).map((f) => ({ ...f, path: renamed[f.path] ?? f.path }));
      if (error) fail(fields, fields.length ? null : failureText(error, t));
      return answer;
    },
  };
}
export type RegistrationForm = ReturnType<typeof useRegistrationForm>;

/** The name of a field of the registration page: the account's, or the page's own. */
export function useRegistrationLabel() {
  const { t } = useTranslation();
  return (field: string) => {
    const section = PAGE_LABELS.has(field) ? undefined : sectionOf(field as FormField);
    if (!section) return t(`register.${field}`);
    // A field with sub-texts (help, enumerations) keeps its name under `_`.
    const text = t(`account.${section}.${field}`, { returnObjects: true }) as unknown;
    return typeof text === 'string' ? text : t(`account.${section}.${field}._`);
  };
}

/** The fields the page names in its own words (`register.*`), not the account's. */
const PAGE_LABELS: ReadonlySet<string> = new Set([
  ...DETAIL_FIELDS,
  'userType',
  'code',
  'password',
  'confirm',
]);

/** The problems found, each naming its field, in a summary that takes the person to it. */
export function RegistrationSummary({
  form,
  inputId,
}: {
  form: Pick<RegistrationForm, 'errors' | 'message'>;
  inputId: (field: string) => string;
}) {
  const { t } = useTranslation();
  const labelOf = useRegistrationLabel();
  if (form.errors.length === 0 && !form.message) return null;
  return (
    <ErrorSummary
      title={t('register.errorSummary')}
      description={form.message ?? undefined}
      entries={form.errors.map((e) => {
        const field = fieldOf(e.path);
        return {
          key: `${e.path} ${e.rule}`,
          // The field's name first: five "This field is required" say nothing.
          text: field
            ? t('register.summaryEntry', { field: labelOf(field), message: e.message })
            : e.message,
          onOpen: field ? () => document.getElementById(inputId(field))?.focus() : undefined,
        };
      })}
    />
  );
}

const AUTOCOMPLETE: Partial<Record<FormField, string>> = {
  loginIdentifier: 'username',
  firstName: 'given-name',
  lastName: 'family-name',
  emailAddress: 'email',
  primaryMobileNo: 'tel',
  addressLine1: 'address-line1',
  addressLine2: 'address-line2',
  city: 'address-level2',
  postalCode: 'postal-code',
  country: 'country',
};
const HELP: Partial<Record<FormField, string>> = {
  loginIdentifier: 'register.loginIdentifierHelp',
  primaryMobileNo: 'register.primaryMobileNoHelp',
  agencyNo: 'account.registration.codeHelp.agencyNo',
  agentNo: 'account.registration.codeHelp.agentNo',
  traderNo: 'account.registration.codeHelp.traderNo',
};
/** The address fields an asked-for address requires. */
const REQUIRED_ADDRESS: readonly FormField[] = ['addressLine1', 'city'];

/**
 * The person's details, user type with what it asks, and identity document. `locked`: the field a
 * code went to; `fixed` fields stay as registered.
 */
export function RegistrationFields({
  form,
  inputId,
  locked = null,
  fixed = new Set(),
}: {
  form: RegistrationForm;
  inputId: (field: string) => string;
  locked?: string | null;
  fixed?: ReadonlySet<string>;
}) {
  const { t } = useTranslation();
  const labelOf = useRegistrationLabel();
  const scheme = useComputedColorScheme('light');
  const { options, values, errorFor, type, declared, identityType, documentProblems } = form;
  const shared = (field: FormField) => ({
    id: inputId(field),
    label: labelOf(field),
    error: errorFor(field),
    readOnly: locked === field || fixed.has(field),
  });
  const text = (field: FormField, required: boolean) => (
    <TextInput
      key={field}
      {...shared(field)}
      description={HELP[field] && !fixed.has(field) ? t(HELP[field]) : undefined}
      value={values[field]}
      required={required}
      variant={fixed.has(field) ? 'filled' : 'default'}
      type={field === 'emailAddress' ? 'email' : field === 'primaryMobileNo' ? 'tel' : 'text'}
      autoComplete={AUTOCOMPLETE[field]}
      onChange={(event) => form.set(field, event.currentTarget.value)}
    />
  );
  const identityChecks = declared.account?.identityType?.checks ?? {};
  const passed = documentProblems.length === 0;
  // A field the panel below finds fault with points a screen reader there, not repeating it.
  const marked = (field: IdentityField) =>
    documentProblems.some((p) => p.path === `/identity/${field}`)
      ? { error: <VisuallyHidden>{t('account.registration.seeVerification')}</VisuallyHidden> }
      : {};
  const organisation = type ? organisationFieldsOf(type, declared) : [];
  const addressCheck = checkOf(type, 'checkAddress');
  const requiredAddress = addressCheck === 'MANDATORY';
  const addressSelect = (field: 'addressType' | 'country', data: ComboboxData) => (
    <Select
      {...shared(field)}
      data={data}
      value={values[field] || null}
      onChange={(value) => form.set(field, value ?? '')}
      required={requiredAddress}
      clearable={!requiredAddress}
      searchable={field === 'country'}
      autoComplete={AUTOCOMPLETE[field]}
    />
  );
  return (
    <>
      {DETAIL_FIELDS.map((field) => text(field, true))}
      <Select
        {...shared('userType')}
        placeholder={t('register.userTypePrompt')}
        data={(options?.userTypes ?? []).map((u) => ({ value: u.code, label: u.description }))}
        value={values.userType || null}
        onChange={(next) => {
          form.set('userType', next ?? '');
          // Another type, other fields: their earlier refusals no longer hold.
          form.forget([...ORGANISATION_FIELDS, ...ADDRESS_FIELDS]);
        }}
        readOnly={ORGANISATION_FIELDS.some((field) => field === locked)}
        required
        allowDeselect={false}
      />
      {organisation.length > 0 && (
        <FieldGroup legend={t('account.organisation._')}>
          {organisation.map((field) =>
            text(field, checkOf(type, checkNamed(declared, field)) === 'MANDATORY'),
          )}
        </FieldGroup>
      )}
      {type && addressCheck !== 'PROHIBITED' && (
        <FieldGroup
          legend={t(`account.registration.${requiredAddress ? 'address' : 'addressOptional'}`)}
        >
          {addressSelect(
            'addressType',
            ADDRESS_TYPES.map((value) => ({
              value,
              label: t(`account.addresses.addressType.enum.${value}`),
            })),
          )}
          {(['addressLine1', 'addressLine2', 'city', 'postalCode'] as const).map((field) =>
            text(field, requiredAddress && REQUIRED_ADDRESS.includes(field)),
          )}
          {addressSelect(
            'country',
            (options?.countries ?? []).map((c) => ({
              value: c.code,
              label: `${c.name} (${c.code})`,
            })),
          )}
        </FieldGroup>
      )}
      {/* The identity document: type, number and dates, verified as they are typed in the panel
          below them (specification 001). */}
      <Select
        {...shared('identityType')}
        placeholder={t('account.registration.identityTypePrompt')}
        data={(options?.identityTypes ?? []).map((i) => ({ value: i.code, label: i.description }))}
        value={values.identityType || null}
        onChange={(code) => {
          form.set('identityType', code ?? '');
          // Another type, other checks: the dates' earlier refusals no longer hold.
          form.forget(IDENTITY_FIELDS);
        }}
        clearable
      />
      {identityType && (
        <>
          <TextInput
            {...shared('identityNo')}
            {...marked('identityNo')}
            value={values.identityNo}
            // A document chosen is known by its number, whatever its type.
            required
            onChange={(event) => {
              form.set('identityNo', event.currentTarget.value);
              form.forget(['identityNo']);
            }}
          />
          {(['dateOfIssuance', 'dateOfExpiry'] as const).map((field) => (
            <DateTimeField
              key={field}
              {...shared(field)}
              {...marked(field)}
              withTime={false}
              value={values[field]}
              required={Object.entries(identityChecks).some(
                ([check, pointer]) =>
                  pointer === `/identity/${field}` && checkOf(identityType, check) === 'MANDATORY',
              )}
              onChange={(value) => {
                form.set(field, value);
                // The panel verifies live: an earlier refusal would contradict it once corrected.
                form.forget([field]);
              }}
            />
          ))}
          <Alert
            color={passed ? 'green' : 'red'}
            role="status"
            title={t(
              passed
                ? 'account.registration.verificationTitle'
                : 'account.registration.verificationErrors',
            )}
            // Mantine's green title fails AA contrast on its panel, in either scheme.
            styles={passed ? { title: { color: scheme === 'dark' ? '#b9e4c3' : '#1b5e20' } } : {}}
            data-testid="document-verification"
          >
            {passed ? (
              t('account.registration.verificationPassed')
            ) : (
              <List size="sm">
                {documentProblems.map((p) => (
                  <List.Item key={p.path}>{p.message}</List.Item>
                ))}
              </List>
            )}
          </Alert>
        </>
      )}
    </>
  );
}

/** A fieldset with its legend for assistive technology, without the browser's frame. */
function FieldGroup({ legend, children }: { legend: string; children: ReactNode }) {
  return (
    <fieldset style={{ border: 0, margin: 0, padding: 0, minWidth: 0 }}>
      <Text component="legend" fw={700} size="md" p={0} mb="xs">
        {legend}
      </Text>
      <Stack gap="sm">{children}</Stack>
    </fieldset>
  );
}
