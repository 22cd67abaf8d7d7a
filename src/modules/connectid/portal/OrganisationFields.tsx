import type { ReactNode } from 'react';
import { Select, Stack, Text, TextInput } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { checkOf } from '../../../core/identity/declared-checks';
import type { RegistrationForm } from './RegistrationForm';
import {
  ADDRESS_FIELDS,
  ADDRESS_TYPES,
  checkNamed,
  IDENTITY_FIELDS,
  ORGANISATION_FIELDS,
  organisationFieldsOf,
} from './registrationChecks';

/** A field's label from the account's texts, whether the field has sub-texts (`_`) or not. */
export function useAccountLabel() {
  const { t } = useTranslation();
  return (section: string, field: string) => {
    const text = t(`account.${section}.${field}`, { returnObjects: true }) as unknown;
    return typeof text === 'string' ? text : t(`account.${section}.${field}._`);
  };
}

/** The name of a field of the registration page, for its error summary. */
export function useRegistrationLabel() {
  const { t } = useTranslation();
  const label = useAccountLabel();
  return (field: string) =>
    (IDENTITY_FIELDS as readonly string[]).includes(field)
      ? t(`account.identity.${field}`)
      : (ORGANISATION_FIELDS as readonly string[]).includes(field)
        ? label('organisation', field)
        : (ADDRESS_FIELDS as readonly string[]).includes(field)
          ? label('addresses', field)
          : t(`register.${field}`);
}

/** The organisation fields and address the chosen user type's checks ask for, once chosen. */
export function OrganisationFields({
  form,
  locked,
  inputId,
}: {
  form: RegistrationForm;
  /** The field the confirmation code went to: fixed until the person changes it. */
  locked: string | null;
  inputId: (field: string) => string;
}) {
  const { t } = useTranslation();
  const label = useAccountLabel();
  const { type, values, errorFor, declared } = form;
  if (!type) return null;
  const fields = organisationFieldsOf(type, declared);
  const addressCheck = checkOf(type, 'checkAddress');
  const requiredAddress = addressCheck === 'MANDATORY';
  const select = (field: 'addressType' | 'country') => ({
    id: inputId(field),
    label: label('addresses', field),
    value: values[field] || null,
    onChange: (value: string | null) => form.set(field, value ?? ''),
    required: requiredAddress,
    clearable: !requiredAddress,
    error: errorFor(field),
  });

  return (
    <>
      {fields.length > 0 && (
        <Group legend={label('organisation', '_')}>
          <Stack gap="sm">
            {fields.map((field) => (
              <TextInput
                key={field}
                id={inputId(field)}
                label={label('organisation', field)}
                description={
                  ['agencyNo', 'agentNo', 'traderNo'].includes(field)
                    ? t(`account.registration.codeHelp.${field}`)
                    : undefined
                }
                value={values[field]}
                required={checkOf(type, checkNamed(declared, field)) === 'MANDATORY'}
                readOnly={locked === field}
                error={errorFor(field)}
                onChange={(event) => form.set(field, event.currentTarget.value)}
              />
            ))}
          </Stack>
        </Group>
      )}
      {addressCheck !== 'PROHIBITED' && (
        <Group
          legend={t(
            requiredAddress
              ? 'account.registration.address'
              : 'account.registration.addressOptional',
          )}
        >
          <Stack gap="sm">
            <Select
              {...select('addressType')}
              data={ADDRESS_TYPES.map((value) => ({
                value,
                label: t(`account.addresses.addressType.enum.${value}`),
              }))}
            />
            {ADDRESS_TEXTS.map(([field, autoComplete, required]) => (
              <TextInput
                key={field}
                id={inputId(field)}
                label={label('addresses', field)}
                value={values[field]}
                required={required && requiredAddress}
                error={errorFor(field)}
                onChange={(event) => form.set(field, event.currentTarget.value)}
                autoComplete={autoComplete}
              />
            ))}
            <Select
              {...select('country')}
              data={(form.options?.countries ?? []).map((c) => ({
                value: c.code,
                label: `${c.name} (${c.code})`,
              }))}
              searchable
              autoComplete="country"
            />
          </Stack>
        </Group>
      )}
    </>
  );
}

/** The address's text fields: autocomplete, and whether an asked-for address requires it. */
const ADDRESS_TEXTS = [
  ['addressLine1', 'address-line1', true],
  ['addressLine2', 'address-line2', false],
  ['city', 'address-level2', true],
  ['postalCode', 'postal-code', false],
] as const;

/** A fieldset with its legend for assistive technology, without the browser's frame. */
function Group({ legend, children }: { legend: string; children: ReactNode }) {
  return (
    <fieldset style={{ border: 0, margin: 0, padding: 0, minWidth: 0 }}>
      <Text component="legend" fw={700} size="md" p={0} mb="xs">
        {legend}
      </Text>
      {children}
    </fieldset>
  );
}
