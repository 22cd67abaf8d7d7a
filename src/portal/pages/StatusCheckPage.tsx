import { useState, type FormEvent } from 'react';
import {
  Alert,
  Badge,
  Button,
  Group,
  Paper,
  SimpleGrid,
  Stack,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { ApiError } from '../../core/api/errors';
import { backendOf } from '../../core/documents/conventions';
import type { Language } from '../../core/i18n/translate';
import { formatDateTime } from '../../core/format';
import {
  SHARE_CHECK_PATH,
  SHARE_CODE_NOT_VERIFIED,
  sharesCodes,
  type ShareCheckResult,
  type Validity,
} from '../../engine/documents/share-code-types';
import { usePortal } from '../context';
import { useLanguage } from '../useLanguage';
import './status-check.css';

/**
 * The public status check (docs/status-sharing.md, "In the portal"): whoever the holder gave a
 * share code (an employer, a landlord) enters it with the holder's date of birth, or an
 * organisation's registration number, and reads what the code's purpose shows; then prints it.
 * No sign-in: the server limits attempts and logs every check for the holder.
 */

/** The longest text each box takes: a code with spaces or dashes; a date or a number. */
const LIMITS = { code: 20, holderFactor: 100 } as const;
type Field = keyof typeof LIMITS;

/** The codes' alphabet (no 0 O 1 I L), nine of them once spaces and dashes are gone. */
const CODE_PATTERN = /^[23456789ABCDEFGHJKMNPQRSTUVWXYZ]{9}$/;

const LOCALES: Record<Language, string> = { en: 'en-NZ', fr: 'fr-FR' };

const VALIDITY_COLOURS: Record<Validity, string> = {
  inForce: 'green',
  notYetInForce: 'gray',
  expired: 'orange',
};

/** `2027-03-15` as the language writes it: "15 March 2027", "15 mars 2027". */
function longDate(value: string | null, language: string): string {
  if (!value) return '-';
  const match = /^(\d{4})-(\d{2})-(\d{2})/.exec(value);
  if (!match) return value;
  const date = new Date(Date.UTC(Number(match[1]), Number(match[2]) - 1, Number(match[3])));
  const locale = LOCALES[language as Language] ?? LOCALES.en;
  return new Intl.DateTimeFormat(locale, { dateStyle: 'long', timeZone: 'UTC' }).format(date);
}

/** A field's problem, as a text key and its values (translated when shown). */
type Problem = { key: string; values?: Record<string, unknown> };

function checkFields(values: Record<Field, string>): Partial<Record<Field, Problem>> {
  const problems: Partial<Record<Field, Problem>> = {};
  const code = values.code.replace(/[\s-]+/g, '').toUpperCase();
  if (code === '') problems.code = { key: 'validation.required' };
  else if (!CODE_PATTERN.test(code)) problems.code = { key: 'status-check.codeShape' };
  const factor = values.holderFactor.trim();
  if (factor === '') problems.holderFactor = { key: 'validation.required' };
  else if (factor.length > LIMITS.holderFactor)
    problems.holderFactor = { key: 'validation.maxLength', values: { limit: LIMITS.holderFactor } };
  return problems;
}

export function StatusCheckPage() {
  const { t } = useTranslation();
  const { api, bundle } = usePortal();
  const language = useLanguage();
  // The backend of the document types that share codes (the first; they share one check).
  const sharing = bundle.workflows.find((workflow) => sharesCodes(workflow));
  const backend = sharing ? backendOf(sharing) : undefined;
  const [values, setValues] = useState<Record<Field, string>>({ code: '', holderFactor: '' });
  const [problems, setProblems] = useState<Partial<Record<Field, Problem>>>({});
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<ApiError | null>(null);
  const [result, setResult] = useState<ShareCheckResult | null>(null);

  const change = (field: Field, value: string) => {
    setValues((current) => ({ ...current, [field]: value }));
    setProblems((current) => ({ ...current, [field]: undefined }));
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setFailure(null);
    setResult(null);
    const found = checkFields(values);
    setProblems(found);
    if (Object.keys(found).length > 0 || !backend) return;
    setBusy(true);
    const [error, answer] = await api.post<ShareCheckResult>(
      backend,
      `${SHARE_CHECK_PATH}?lang=${language}`,
      { code: values.code.trim(), holderFactor: values.holderFactor.trim() },
    );
    setBusy(false);
    if (error?.fields?.length) {
      const marked: Partial<Record<Field, Problem>> = {};
      for (const field of error.fields) {
        const name = field.path.slice(1);
        if (name === 'code' || name === 'holderFactor')
          marked[name] = { key: `validation.${field.rule}`, values: { limit: LIMITS[name] } };
      }
      setProblems(marked);
      if (Object.keys(marked).length === 0) setFailure(error);
    } else if (error) setFailure(error);
    else setResult(answer);
  };

  const failureText = (error: ApiError) => {
    if (error.code === SHARE_CODE_NOT_VERIFIED || error.status === 404)
      return t('status-check.notVerified');
    if (error.status === 429) return t('status-check.tooMany');
    return t(`errors.${error.code}`, { defaultValue: error.message });
  };

  const fieldError = (field: Field) => {
    const problem = problems[field];
    return problem ? t(problem.key, problem.values) : undefined;
  };

  return (
    <Stack gap="lg" maw={860}>
      <Stack gap="sm" className="status-check-no-print">
        <Title order={2}>{t('status-check.title')}</Title>
        <Text>{t('status-check.intro')}</Text>
        <form
          onSubmit={(event) => void submit(event)}
          noValidate
          aria-label={t('status-check.formLabel')}
        >
          <Stack gap="sm">
            <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="md" verticalSpacing="sm">
              <TextInput
                label={t('status-check.code')}
                description={t('status-check.codeHelp')}
                inputWrapperOrder={['label', 'input', 'description', 'error']}
                value={values.code}
                onChange={(event) => change('code', event.currentTarget.value)}
                required
                maxLength={LIMITS.code}
                error={fieldError('code')}
                autoComplete="off"
                autoCapitalize="characters"
                spellCheck={false}
                styles={{ input: { fontFamily: 'monospace', letterSpacing: '0.08em' } }}
              />
              <TextInput
                label={t('status-check.holderFactor')}
                description={t('status-check.holderFactorHelp')}
                inputWrapperOrder={['label', 'input', 'description', 'error']}
                value={values.holderFactor}
                onChange={(event) => change('holderFactor', event.currentTarget.value)}
                required
                maxLength={LIMITS.holderFactor}
                error={fieldError('holderFactor')}
                autoComplete="off"
              />
            </SimpleGrid>
            <Group>
              <Button type="submit" loading={busy} disabled={!backend}>
                {t('status-check.submit')}
              </Button>
            </Group>
          </Stack>
        </form>
        {!backend && <Text c="dimmed">{t('status-check.unavailable')}</Text>}
      </Stack>
      <div aria-live="polite">
        {failure && (
          <Alert
            color="red"
            role="alert"
            title={t('status-check.failedTitle')}
            data-status-check-failure
          >
            {failureText(failure)}
          </Alert>
        )}
        {result && <StatusResult result={result} />}
      </div>
    </Stack>
  );
}

/** What the code shows, in the language the server wrote it, printable for the checker's records. */
function StatusResult({ result }: { result: ShareCheckResult }) {
  const { t } = useTranslation();
  // The labels and values are in the language of the check; the words around them follow it too.
  const lng = result.language;
  const say = (key: string, values?: Record<string, unknown>) => t(key, { ...values, lng });
  return (
    <Paper
      withBorder
      p={{ base: 'sm', sm: 'lg' }}
      component="article"
      className="status-check-result"
      lang={lng}
      aria-labelledby="status-check-result-title"
      data-status-check-result
      data-validity={result.validity}
    >
      <Stack gap="md">
        <Group justify="space-between" align="flex-start" wrap="wrap">
          <Stack gap={4}>
            <Title order={2} id="status-check-result-title" size="h3">
              {say('status-check.resultTitle', { title: result.documentTitle })}
            </Title>
            <Text size="sm">
              {say('status-check.resultPurpose', { purpose: result.purposeLabel })}
            </Text>
          </Stack>
          {/* Light, with the text's own colour: white on the filled greens is under 4.5:1. */}
          <Badge
            size="lg"
            variant="light"
            tt="none"
            color={VALIDITY_COLOURS[result.validity]}
            c="var(--mantine-color-text)"
          >
            {say(`status-check.validity.${result.validity}`)}
          </Badge>
        </Group>
        <dl>
          <dt>{say('status-check.name')}</dt>
          <dd data-field="name">{result.name}</dd>
          {/* An image only: a photo uploaded as another kind of file is not drawn. */}
          {result.photo?.startsWith('data:image/') && (
            <>
              <dt>{say('status-check.photo')}</dt>
              <dd>
                <img src={result.photo} alt={say('status-check.photoOf', { name: result.name })} />
              </dd>
            </>
          )}
          <dt>{say('status-check.status')}</dt>
          <dd data-field="status">{say(`status-check.validity.${result.validity}`)}</dd>
          {/* Each bound the document has; a granted one not yet issued may have neither. */}
          {result.validFrom && (
            <>
              <dt>{say('status-check.validFrom')}</dt>
              <dd>{longDate(result.validFrom, lng)}</dd>
            </>
          )}
          {result.validUntil && (
            <>
              <dt>{say('status-check.validUntil')}</dt>
              <dd>{longDate(result.validUntil, lng)}</dd>
            </>
          )}
          {!result.validFrom && !result.validUntil && (
            <>
              <dt>{say('status-check.validity.dates')}</dt>
              <dd>{say('status-check.validity.datesNotSet')}</dd>
            </>
          )}
          {result.fields.map((field, index) => (
            <FieldRow key={`${field.label}-${index}`} label={field.label} value={field.value} />
          ))}
        </dl>
        <Text size="sm" data-check-reference>
          {say('status-check.reference', {
            reference: result.reference,
            at: formatDateTime(result.checkedAt),
          })}
        </Text>
        <Group className="status-check-no-print">
          <Button variant="default" onClick={() => window.print()}>
            {say('status-check.print')}
          </Button>
        </Group>
      </Stack>
    </Paper>
  );
}

function FieldRow({ label, value }: { label: string; value: string }) {
  return (
    <>
      <dt>{label}</dt>
      <dd>{value === '' ? '-' : value}</dd>
    </>
  );
}
