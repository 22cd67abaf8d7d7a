import { useEffect, useState } from 'react';
import { Alert, Button, Group, Loader, Stack, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { resolvePointer } from '../../../core/rules/registry';
import { usePortal, HOME_PATH } from '../../../portal/module';
import {
  accountData,
  failureText,
  FORM_FIELDS,
  IDENTITY_FIELDS,
  pointerOf,
  registrationProblems,
  type RegistrationValues,
} from './registrationChecks';
import { RegistrationFields, RegistrationSummary, useRegistrationForm } from './RegistrationForm';
import { ErrorAlert } from '../../../engine/ErrorAlert';

type Section = Record<string, unknown>;
interface Opened {
  login: string;
  data: Record<string, Section | unknown>;
  notes: string | null;
}

/** Fields the correction keeps as registered: the login and the mobile its code confirmed. */
const FIXED: ReadonlySet<string> = new Set(['loginIdentifier', 'primaryMobileNo']);
const inputId = (field: string) => `correct-${field}`;
const asSection = (value: unknown): Section =>
  typeof value === 'object' && value !== null ? (value as Section) : {};

/**
 * The correction of a returned self-registration, opened by its notice's one-time link: the
 * reviewer's notes and the registration, login and mobile number fixed. Sent, it is reviewed again.
 */
export function CorrectionPage({ token }: { token: string }) {
  const { t } = useTranslation();
  const { api, session } = usePortal();
  const [opened, setOpened] = useState<Opened | null>(null);
  const [invalid, setInvalid] = useState<string | null>(null);
  const [done, setDone] = useState(false);

  useEffect(() => {
    void api
      .post<Opened>('connectid', '/registration/correction/open', { token })
      .then(([error, data]) => (error ? setInvalid(failureText(error, t)) : setOpened(data)));
    // Opened once: a change of language must not open the link again.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [api, token]);

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
        <ErrorAlert>{invalid}</ErrorAlert>
      ) : !opened ? (
        <Group>
          <Loader size="sm" />
          <Text>{t('account.correction.loading')}</Text>
        </Group>
      ) : (
        <CorrectionForm token={token} opened={opened} onDone={() => setDone(true)} />
      )}
    </Stack>
  );
}

function CorrectionForm({
  token,
  opened,
  onDone,
}: {
  token: string;
  opened: Opened;
  onDone: () => void;
}) {
  const { t } = useTranslation();
  const { api } = usePortal();
  const { data } = opened;
  const form = useRegistrationForm({
    ...(Object.fromEntries(
      FORM_FIELDS.map((field) => {
        const value = resolvePointer(data, pointerOf(field));
        return [field, typeof value === 'string' ? value : ''];
      }),
    ) as RegistrationValues),
    loginIdentifier: opened.login,
  });
  form.checks.current.correction = () =>
    registrationProblems(form.values, form.options, form.declared, t);

  const send = async () => {
    if (!form.check('correction')) return;
    const typed = accountData(form.values, form.type, !!form.identityType, form.declared);
    const { loginIdentifier: _login, ...identity } = typed.identity;
    const stored = (name: string) => asSection(data[name]);
    // Addresses beyond the first (none from the registration page) stay as they were.
    const others = Array.isArray(data.addresses) ? data.addresses.slice(1) : [];
    const addresses = [...(typed.addresses ?? []), ...others];
    const { addresses: _stored, ...rest } = data;
    const [error] = await form.send(() =>
      api.post('connectid', '/registration/correction', {
        token,
        data: {
          ...rest,
          identity: {
            // The document's fields as corrected (a type removed takes its fields with it).
            ...Object.fromEntries(
              Object.entries(stored('identity')).filter(
                ([k]) => !IDENTITY_FIELDS.some((f) => f === k),
              ),
            ),
            ...identity,
          },
          contact: { ...stored('contact'), emailAddress: typed.contact.emailAddress },
          organisation: { ...stored('organisation'), ...typed.organisation },
          ...(addresses.length ? { addresses } : {}),
        },
      }),
    );
    if (!error) onDone();
  };

  return (
    <>
      <Text c="dimmed">{t('account.correction.intro')}</Text>
      {opened.notes && (
        <Alert color="blue" title={t('account.correction.notes')} data-testid="return-notes">
          <Text size="sm" style={{ whiteSpace: 'pre-wrap' }}>
            {opened.notes}
          </Text>
        </Alert>
      )}
      <RegistrationSummary form={form} inputId={inputId} />
      <form
        noValidate
        onSubmit={(event) => {
          event.preventDefault();
          void send();
        }}
      >
        <Stack gap="sm">
          <Text size="sm">{t('account.correction.fixed')}</Text>
          <RegistrationFields form={form} inputId={inputId} fixed={FIXED} />
          {form.busy && (
            <Alert color="blue" role="status">
              {t('messages.processing', { context: 'connectid' })}
            </Alert>
          )}
          <Group>
            <Button type="submit" loading={form.busy}>
              {t('account.correction.submit')}
            </Button>
          </Group>
        </Stack>
      </form>
    </>
  );
}
