import { useEffect, useMemo, useRef, useState, type RefObject } from 'react';
import { Alert, Anchor, List, Select, Text, TextInput } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { ApiResult } from '../../../core/api/client';
import type { FieldError } from '../../../core/api/errors';
import { useLanguage, usePortal } from '../../../portal/module';
import { fieldMessages } from './fieldMessages';
import { IdentityDocumentFields } from './IdentityDocumentFields';
import { OrganisationFields, useRegistrationLabel } from './OrganisationFields';
import {
  ADDRESS_FIELDS,
  DETAIL_FIELDS,
  failureText,
  fieldOf,
  identityProblems,
  optionsInLanguage,
  ORGANISATION_FIELDS,
  useDeclaredChecks,
  type DetailField,
  type FormField,
  type RegistrationOptions,
  type RegistrationValues,
} from './registrationChecks';

/**
 * What the registration and its correction share: options in the language shown, values,
 * problems (worded again on a language change) and their summary, focused when shown.
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
  const summary = useRef<HTMLDivElement>(null);
  const [summaryShown, setSummaryShown] = useState(0);
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
    if (summaryShown > 0) summary.current?.focus();
  }, [summaryShown]);
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
    setSummaryShown((n) => n + 1);
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
    summary,
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

/** The problems found, each naming its field, in a summary that links to the field. */
export function ErrorSummary({
  form,
  inputId,
}: {
  form: Pick<RegistrationForm, 'errors' | 'message' | 'summary'>;
  inputId: (field: string) => string;
}) {
  const { t } = useTranslation();
  const labelOf = useRegistrationLabel();
  if (form.errors.length === 0 && !form.message) return null;
  return (
    <Alert
      ref={form.summary as RefObject<HTMLDivElement>}
      tabIndex={-1}
      color="red"
      role="alert"
      title={t('register.errorSummary')}
      data-testid="error-summary"
    >
      {form.message && <Text size="sm">{form.message}</Text>}
      {form.errors.length > 0 && (
        // Spaced so each entry's button keeps the 24 px target WCAG 2.5.8 asks.
        <List size="sm" spacing={4}>
          {form.errors.map((e) => {
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
                    // Inline and aligned on its top: an inline block's bullet followed its last
                    // line when an entry wrapped.
                    display="inline"
                    style={{ verticalAlign: 'top' }}
                    onClick={() => document.getElementById(inputId(field))?.focus()}
                  >
                    {/* The field's name first: five "This field is required" say nothing. */}
                    {t('register.summaryEntry', { field: labelOf(field), message: e.message })}
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
  );
}

const AUTOCOMPLETE: Record<DetailField, string> = {
  loginIdentifier: 'username',
  firstName: 'given-name',
  lastName: 'family-name',
  emailAddress: 'email',
  primaryMobileNo: 'tel',
};
const HELP: Partial<Record<DetailField, string>> = {
  loginIdentifier: 'register.loginIdentifierHelp',
  primaryMobileNo: 'register.primaryMobileNoHelp',
};

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
  const { options, values, errorFor } = form;
  return (
    <>
      {DETAIL_FIELDS.map((field) => (
        <TextInput
          key={field}
          id={inputId(field)}
          label={t(`register.${field}`)}
          description={HELP[field] && !fixed.has(field) ? t(HELP[field]) : undefined}
          value={values[field]}
          required
          readOnly={locked === field || fixed.has(field)}
          variant={fixed.has(field) ? 'filled' : 'default'}
          error={errorFor(field)}
          type={field === 'emailAddress' ? 'email' : field === 'primaryMobileNo' ? 'tel' : 'text'}
          autoComplete={AUTOCOMPLETE[field]}
          onChange={(event) => form.set(field, event.currentTarget.value)}
        />
      ))}
      <Select
        id={inputId('userType')}
        label={t('register.userType')}
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
        error={errorFor('userType')}
        allowDeselect={false}
      />
      <OrganisationFields form={form} locked={locked} inputId={inputId} />
      <IdentityDocumentFields form={form} inputId={inputId} />
    </>
  );
}
