import { useState } from 'react';
import { Alert, Button, Group, Modal, Stack, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { ApiClient } from '../core/api/client';
import type { FieldError } from '../core/api/errors';
import type { CatalogEntryRecord } from '../core/definitions/catalog-entry';
import type { CatalogDefinition } from '../core/definitions/types';
import { translate, type Language, type TextTree } from '../core/i18n/translate';
import {
  TRANSLATED_LANGUAGES,
  TRANSLATIONS_FIELD,
  translationOf,
  type Translations,
} from '../core/i18n/localized';
import { toFieldErrors } from '../core/validation/field-errors';
import { CatalogEntryHistory } from './CatalogEntryHistory';
import { DateTimeField } from './DateTimeField';
import {
  EntryField,
  entryFormFields,
  translationInput,
  type EntryFormField,
  type EntryValue,
} from './catalogEntryWidgets';
import { localInputToIso, toLocalInput } from './format';
import { loadValidator } from './validator';
import { ErrorAlert } from './ErrorAlert';

export interface CatalogEntryFormProps {
  opened: boolean;
  onClose: () => void;
  onSaved: () => void;
  /** The entry to edit; a new entry when absent. */
  entry?: CatalogEntryRecord;
  /** Every catalogue, so a reference field can show the name of the entry it names. */
  allCatalogs?: CatalogDefinition[];
  catalog: CatalogDefinition;
  api: ApiClient;
  backend: string;
  language: Language;
  translations: Partial<Record<Language, TextTree>>;
  validatorUrl: string;
  /** A preview: the entry is checked as the server would and never sent. */
  preview?: boolean;
}

/** The input a problem at `path` belongs to: `/i18n/fr/name` -> `i18n.fr.name`. */
function fieldOf(path: string): string {
  const segments = path.replace(/^\//, '').split('/');
  if (segments[0] === TRANSLATIONS_FIELD && segments.length >= 3)
    return translationInput(segments[2]!, segments[1] as Language);
  return segments[0] ?? '';
}

function initialValues(
  fields: EntryFormField[],
  entry?: CatalogEntryRecord,
): Record<string, EntryValue> {
  const values: Record<string, EntryValue> = {};
  const asInput = (iso: unknown) =>
    typeof iso === 'string' && iso !== '' ? toLocalInput(new Date(iso)) : '';
  for (const field of fields) {
    const value = entry?.data[field.name];
    if (field.kind === 'boolean') values[field.name] = value === true;
    else if (field.kind === 'datetime') values[field.name] = asInput(value);
    else values[field.name] = typeof value === 'number' || typeof value === 'string' ? value : '';
    if (field.translatable)
      for (const language of TRANSLATED_LANGUAGES)
        values[translationInput(field.name, language)] =
          translationOf(entry?.data, field.name, language) ?? '';
  }
  // A new entry is valid from this minute on.
  const now = new Date();
  now.setSeconds(0, 0);
  values.startTime = entry ? asInput(entry.data.startTime) : toLocalInput(now);
  values.endTime = asInput(entry?.data.endTime);
  return values;
}

/** The New Entry and Edit Entry dialogs of any catalogue; closing with unsaved changes asks first. */
export function CatalogEntryForm(props: CatalogEntryFormProps) {
  // The form's state lives in an inner component so that each opening starts afresh.
  const { t } = useTranslation();
  const [dirty, setDirty] = useState(false);
  const [asking, setAsking] = useState(false);
  const { onClose } = props;
  const close = () => {
    setAsking(false);
    setDirty(false);
    onClose();
  };
  const requestClose = () => (dirty ? setAsking(true) : close());
  return (
    <Modal
      opened={props.opened}
      onClose={requestClose}
      title={t(props.entry ? 'catalog.editEntry' : 'catalog.newEntry')}
      closeButtonProps={{ 'aria-label': t('catalog.close') }}
      size="lg"
    >
      {asking && (
        <Alert color="yellow" role="alertdialog" aria-labelledby="unsaved-question" mb="md">
          <Text id="unsaved-question">{t('form.unsaved.catalog')}</Text>
          <Group mt="sm">
            <Button color="red" onClick={close}>
              {t('catalog.yes')}
            </Button>
            <Button variant="default" onClick={() => setAsking(false)} autoFocus>
              {t('catalog.no')}
            </Button>
          </Group>
        </Alert>
      )}
      {props.opened && (
        <EntryFormBody
          {...props}
          onClose={requestClose}
          onDirty={setDirty}
          onSaved={() => {
            setDirty(false);
            props.onSaved();
          }}
        />
      )}
      {props.opened && props.entry && !props.preview && (
        <CatalogEntryHistory {...props} entryId={props.entry.id} />
      )}
    </Modal>
  );
}

function EntryFormBody(props: CatalogEntryFormProps & { onDirty: (dirty: boolean) => void }) {
  const { onClose, onSaved, onDirty, entry, catalog, api, backend, language, translations } = props;
  const { t } = useTranslation();
  const fields = entryFormFields(catalog, language);
  const [values, setValues] = useState<Record<string, EntryValue>>(() =>
    initialValues(fields, entry),
  );
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [formError, setFormError] = useState<string | undefined>();
  const [saving, setSaving] = useState(false);

  const set = (name: string, value: EntryValue) => {
    onDirty(true);
    setValues((old) => ({ ...old, [name]: value }));
  };

  const document = (): Record<string, unknown> => {
    // What only the system writes is not sent: the server keeps it as stored.
    const data: Record<string, unknown> = {};
    const translations: Translations = {};
    for (const field of fields) {
      const value = values[field.name];
      if (field.translatable)
        for (const language of TRANSLATED_LANGUAGES) {
          // An empty translation is none: the reader of that language gets the English text.
          const text = String(values[translationInput(field.name, language)] ?? '');
          if (text !== '') (translations[language] ??= {})[field.name] = text;
        }
      if (field.kind === 'boolean') data[field.name] = value === true;
      else if (value === '' || value === undefined) continue;
      else if (field.kind === 'number') data[field.name] = Number(value);
      else data[field.name] = String(value);
    }
    if (Object.keys(translations).length > 0) data[TRANSLATIONS_FIELD] = translations;
    const startTime = localInputToIso(String(values.startTime ?? ''));
    const endTime = localInputToIso(String(values.endTime ?? ''));
    if (startTime !== undefined) data.startTime = startTime;
    if (endTime !== undefined) data.endTime = endTime;
    return data;
  };

  /** Each problem beside its input; the others, or the server's refusal, above the form. */
  const showErrors = (list: FieldError[], refusal?: string) => {
    const byField: Record<string, string> = {};
    const general: string[] = [];
    const inputs = new Set(['startTime', 'endTime', ...fields.map((f) => f.name)]);
    for (const error of list) {
      const name = fieldOf(error.path);
      if (inputs.has(name) || name.startsWith(`${TRANSLATIONS_FIELD}.`))
        byField[name] ??= error.message;
      else general.push(error.message);
    }
    setErrors(byField);
    setFormError(refusal ?? (general.length > 0 ? general.join(' ') : undefined));
  };

  const save = async () => {
    setSaving(true);
    setFormError(undefined);
    try {
      const data = document();
      let validate;
      try {
        validate = await loadValidator(props.validatorUrl);
      } catch {
        return setFormError(t('messages.unableToFetch', { context: 'catalog' }));
      }
      const list: FieldError[] = validate(data)
        ? []
        : toFieldErrors(validate.errors ?? [], translations, language);
      if (
        typeof data.endTime === 'string' &&
        typeof data.startTime === 'string' &&
        Date.parse(data.endTime) <= Date.parse(data.startTime)
      ) {
        list.push({
          path: '/endTime',
          rule: 'endAfterStart',
          message: translate(translations, language, 'validation.endAfterStart'),
        });
      }
      if (list.length > 0) return showErrors(list);
      if (!props.preview) {
        const path = `/${encodeURIComponent(catalog.id)}`;
        // An edit names the version it was made from: a concurrent change is a 409, never lost.
        const [error] = entry
          ? await api.put<unknown>(backend, `${path}/${entry.id}`, { version: entry.version, data })
          : await api.post<unknown>(backend, path, data);
        if (error) return showErrors(error.fields ?? [], error.message);
      }
      setErrors({});
      onSaved();
    } finally {
      setSaving(false);
    }
  };

  const period = (name: 'startTime' | 'endTime', required: boolean) => (
    <DateTimeField
      label={t(`catalog.${name}`)}
      required={required}
      value={String(values[name] ?? '')}
      onChange={(next) => set(name, next)}
      error={errors[name]}
    />
  );

  return (
    <form
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        void save();
      }}
    >
      <Stack gap="md">
        <ErrorAlert>{formError}</ErrorAlert>
        <Title order={4}>{t('catalog.entryData')}</Title>
        {fields.map((field) => (
          <EntryField
            key={field.name}
            {...props}
            field={field}
            values={values}
            errors={errors}
            set={set}
          />
        ))}
        <Title order={4}>{t('catalog.entryKeys')}</Title>
        {period('startTime', true)}
        {period('endTime', false)}
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose} disabled={saving}>
            {t('catalog.cancel')}
          </Button>
          <Button type="submit" loading={saving}>
            {t('catalog.save')}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
