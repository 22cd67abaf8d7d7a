import { Alert, List, Select, TextInput } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { FieldError } from '../../../core/api/errors';
import {
  IDENTITY_FIELDS,
  type IdentityDocument,
  type IdentityField,
  type RegistrationIdentityType,
} from './registrationChecks';

interface IdentityDocumentFieldsProps {
  types: readonly RegistrationIdentityType[];
  document: IdentityDocument;
  onChange: (field: IdentityField, value: string) => void;
  /** The verification's problems (identityProblems), shown in its panel. */
  problems: readonly FieldError[];
  errorFor: (field: string) => string | undefined;
  inputId: (field: string) => string;
  /** Earlier refusals of these fields no longer hold (the type or the field changed). */
  onForget: (fields: readonly string[]) => void;
}

/**
 * The identity document of a registration (or its correction): its type among the IdentityTypes
 * that allow self-registration (optional), then its number and dates, verified as they are
 * typed in the panel below them: 'Document Verification' when the basic checks pass, else
 * 'Verification Errors' listing each failed check (specification 001).
 */
export function IdentityDocumentFields(props: IdentityDocumentFieldsProps) {
  const { t } = useTranslation();
  const { document, problems, errorFor, inputId } = props;
  const type = props.types.find((i) => i.code === document.identityType);
  return (
    <>
      <Select
        id={inputId('identityType')}
        label={t('account.identity.identityType')}
        placeholder={t('account.registration.identityTypePrompt')}
        data={props.types.map((i) => ({
          value: i.code,
          label: i.description,
        }))}
        value={document.identityType || null}
        onChange={(code) => {
          props.onChange('identityType', code ?? '');
          // Another type, other checks: the dates' earlier refusals no longer hold.
          props.onForget(IDENTITY_FIELDS);
        }}
        clearable
        error={errorFor('identityType')}
      />
      {type && (
        <>
          {(['identityNo', 'dateOfIssuance', 'dateOfExpiry'] as const).map((field) => (
            <TextInput
              key={field}
              id={inputId(field)}
              label={t(`account.identity.${field}`)}
              type={field === 'identityNo' ? 'text' : 'date'}
              value={document[field]}
              required={
                (field === 'dateOfIssuance' && type.checkIdentityValidDateFrom === 'MANDATORY') ||
                (field === 'dateOfExpiry' && type.checkIdentityValidDateTo === 'MANDATORY')
              }
              error={errorFor(field)}
              onChange={(event) => {
                const value = event.currentTarget.value;
                props.onChange(field, value);
                // The panel below verifies the document live: an earlier refusal of this
                // field, under it and in the summary, would contradict it once corrected.
                props.onForget([field]);
              }}
            />
          ))}
          {problems.length === 0 ? (
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
