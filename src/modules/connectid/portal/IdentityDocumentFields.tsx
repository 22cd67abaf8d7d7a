import {
  Alert,
  List,
  Select,
  TextInput,
  useComputedColorScheme,
  VisuallyHidden,
} from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { DateTimeField } from '../../../engine/DateTimeField';
import { checkOf } from '../../../core/identity/declared-checks';
import type { RegistrationForm } from './RegistrationForm';
import { IDENTITY_FIELDS, type IdentityField } from './registrationChecks';

/**
 * The identity document of a registration (or its correction): type, number and dates, verified
 * as they are typed in the panel below them (specification 001).
 */
export function IdentityDocumentFields({
  form,
  inputId,
}: {
  form: RegistrationForm;
  inputId: (field: string) => string;
}) {
  const { t } = useTranslation();
  const scheme = useComputedColorScheme('light');
  const { values: document, documentProblems: problems, errorFor, identityType: type } = form;
  const checks = form.declared.account?.identityType?.checks ?? {};
  const passed = problems.length === 0;
  // A field the panel below finds fault with points a screen reader there, not repeating it.
  const marked = (field: IdentityField) => ({
    error: problems.some((p) => p.path === `/identity/${field}`) ? (
      <VisuallyHidden>{t('account.registration.seeVerification')}</VisuallyHidden>
    ) : (
      errorFor(field)
    ),
  });
  return (
    <>
      <Select
        id={inputId('identityType')}
        label={t('account.identity.identityType')}
        placeholder={t('account.registration.identityTypePrompt')}
        data={(form.options?.identityTypes ?? []).map((i) => ({
          value: i.code,
          label: i.description,
        }))}
        value={document.identityType || null}
        onChange={(code) => {
          form.set('identityType', code ?? '');
          // Another type, other checks: the dates' earlier refusals no longer hold.
          form.forget(IDENTITY_FIELDS);
        }}
        clearable
        error={errorFor('identityType')}
      />
      {type && (
        <>
          <TextInput
            id={inputId('identityNo')}
            label={t('account.identity.identityNo')}
            value={document.identityNo}
            // A document chosen is known by its number, whatever its type.
            required
            {...marked('identityNo')}
            onChange={(event) => {
              form.set('identityNo', event.currentTarget.value);
              form.forget(['identityNo']);
            }}
          />
          {(['dateOfIssuance', 'dateOfExpiry'] as const).map((field) => (
            <DateTimeField
              key={field}
              id={inputId(field)}
              label={t(`account.identity.${field}`)}
              withTime={false}
              value={document[field]}
              required={Object.entries(checks).some(
                ([check, pointer]) =>
                  pointer === `/identity/${field}` && checkOf(type, check) === 'MANDATORY',
              )}
              {...marked(field)}
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
                {problems.map((p) => (
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
