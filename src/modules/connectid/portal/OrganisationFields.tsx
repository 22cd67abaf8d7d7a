import type { ReactNode } from 'react';
import { Select, Stack, Text, TextInput } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { IDENTITY_FIELDS } from './registrationChecks';
import {
  ADDRESS_FIELDS,
  ADDRESS_TYPES,
  ORGANISATION_FIELDS,
  checkOf,
  organisationFieldsOf,
  type Address,
  type AddressField,
  type Organisation,
  type OrganisationField,
  type UserTypeChecks,
} from './organisationChecks';

interface OrganisationFieldsProps {
  type: UserTypeChecks | undefined;
  organisation: Organisation;
  onOrganisation: (field: OrganisationField, value: string) => void;
  address: Address;
  onAddress: (field: AddressField, value: string) => void;
  countries: ReadonlyArray<{ code: string; name: string }>;
  /** The field the confirmation code went to: fixed until the person changes it. */
  locked: string | null;
  errorFor: (field: string) => ReactNode;
  inputId: (field: string) => string;
}

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
      : ORGANISATION_FIELDS.some(([name]) => name === field)
        ? label('organisation', field)
        : (ADDRESS_FIELDS as readonly string[]).includes(field)
          ? label('addresses', field)
          : t(`register.${field}`);
}

/**
 * What the chosen user type asks of the person beyond their name and contacts (catalogue
 * UserTypes' checks): the organisation fields it does not prohibit, required where mandatory,
 * and one address when it asks for one. Nothing shows until a type is chosen.
 */
export function OrganisationFields(props: OrganisationFieldsProps) {
  const { t } = useTranslation();
  const label = useAccountLabel();
  const { type, organisation, address, locked, errorFor, inputId } = props;
  if (!type) return null;
  const fields = organisationFieldsOf(type);
  const addressCheck = checkOf(type, 'checkAddress');
  const requiredAddress = addressCheck === 'MANDATORY';
  const textField = (field: AddressField, required: boolean) => (
    <TextInput
      key={field}
      id={inputId(field)}
      label={label('addresses', field)}
      value={address[field]}
      required={required}
      error={errorFor(field)}
      onChange={(event) => props.onAddress(field, event.currentTarget.value)}
      autoComplete={
        field === 'addressLine1'
          ? 'address-line1'
          : field === 'addressLine2'
            ? 'address-line2'
            : field === 'city'
              ? 'address-level2'
              : 'postal-code'
      }
    />
  );
  return (
    <>
      {fields.length > 0 && (
        <Group legend={label('organisation', '_')}>
          <Stack gap="sm">
            {fields.map(([field, check]) => (
              <TextInput
                key={field}
                id={inputId(field)}
                label={label('organisation', field)}
                description={
                  ['agencyNo', 'agentNo', 'traderNo'].includes(field)
                    ? t(`account.registration.codeHelp.${field}`)
                    : undefined
                }
                value={organisation[field]}
                required={checkOf(type, check) === 'MANDATORY'}
                readOnly={locked === field}
                error={errorFor(field)}
                onChange={(event) => props.onOrganisation(field, event.currentTarget.value)}
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
              id={inputId('addressType')}
              label={label('addresses', 'addressType')}
              data={ADDRESS_TYPES.map((value) => ({
                value,
                label: t(`account.addresses.addressType.enum.${value}`),
              }))}
              value={address.addressType || null}
              onChange={(value) => props.onAddress('addressType', value ?? '')}
              required={requiredAddress}
              clearable={!requiredAddress}
              error={errorFor('addressType')}
            />
            {textField('addressLine1', requiredAddress)}
            {textField('addressLine2', false)}
            {textField('city', requiredAddress)}
            {textField('postalCode', false)}
            <Select
              id={inputId('country')}
              label={label('addresses', 'country')}
              data={props.countries.map((c) => ({ value: c.code, label: `${c.name} (${c.code})` }))}
              value={address.country || null}
              onChange={(value) => props.onAddress('country', value ?? '')}
              searchable
              required={requiredAddress}
              clearable={!requiredAddress}
              error={errorFor('country')}
              autoComplete="country"
            />
          </Stack>
        </Group>
      )}
    </>
  );
}

/**
 * A group of fields named for assistive technology (a fieldset and its legend), drawn without
 * the browser's frame so its fields line up with the others.
 */
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
