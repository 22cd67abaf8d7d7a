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
 * The identity document of a registration (or its correction): its type among the IdentityTypes
 * that allow self-registration (optional), then its number (required) and dates (DD/MM/YYYY, as
 * the type's checks ask), verified as they are typed in the panel below them: 'Document
 * Verification' when the basic checks pass, else 'Verification Errors' listing each failed
 * check (specification 001).
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
  /**
   * A field the verification finds fault with is marked invalid, and says (to a screen
   * reader) that the panel below says why: the message once there, not again under the field
   * (and once in the summary, which links to the field). Other refusals (the server's) show
   * under it.
   */
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
            // The portal's date, DD/MM/YYYY, typed or picked (not the browser's mm/dd/yyyy).
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
                // The panel below verifies the document live: an earlier refusal of this
                // field, in the summary, would contradict it once corrected.
                form.forget([field]);
              }}
            />
          ))}
          {problems.length === 0 ? (
            <Alert
              color="green"
              role="status"
              title={t('account.registration.verificationTitle')}
              // Mantine's green title, even its darkest shade, is below the AA contrast ratio
              // on the light green of the panel: a darker green of our own, and in the dark
              // scheme a light one (the dark green was unreadable on the dark panel).
              styles={{ title: { color: scheme === 'dark' ? '#b9e4c3' : '#1b5e20' } }}
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
                {problems.map((p) => (
                  <List.Item key={p.path}>{p.message}</List.Item>
                ))}
              </List>
            </Alert>
          )}
        </>
      )}
    </>
  );
}
