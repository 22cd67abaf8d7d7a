import { useState, type FormEvent } from 'react';
import {
  Alert,
  Button,
  Group,
  List,
  SimpleGrid,
  Stack,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router-dom';
import type { ApiError } from '../../../core/api/errors';
import type { VerificationResult } from '../../../core/dashboard/types';
import { formatDate } from '../../../core/format';
import { usePortal } from '../../context';
import { DEFAULT_BACKEND } from '../../../core/documents/conventions';

/** The server's limits on the two fields (src/server/dashboard/verification.ts). */
const LIMITS = { number: 50, secondFactor: 100 } as const;
type CheckField = keyof typeof LIMITS;

/** A field's problem as a rule, translated when shown (so a language switch re-words it). */
interface FieldRule {
  rule: string;
  limit?: number;
}

/** The answer of the server, kept as data (never as text) for the same reason. */
type Outcome =
  { kind: 'found'; result: VerificationResult } | { kind: 'failed'; error: ApiError } | undefined;

/** The error the server gives for "no such document" (DocumentVerifier's NOT_VERIFIED). */
const NOT_VERIFIED = 'DOCUMENT_NOT_VERIFIED';

/** Empty fields are refused in the browser: such a check could never succeed, and would count. */
function checkFields(values: Record<CheckField, string>): Partial<Record<CheckField, FieldRule>> {
  const problems: Partial<Record<CheckField, FieldRule>> = {};
  for (const field of Object.keys(LIMITS) as CheckField[]) {
    const value = values[field].trim();
    if (value === '') problems[field] = { rule: 'required' };
    else if (value.length > LIMITS[field])
      problems[field] = { rule: 'maxLength', limit: LIMITS[field] };
  }
  return problems;
}

/**
 * The public electronic-document check: genuine and in force, with its validity and nothing
 * personal. The server decides and limits attempts.
 */
export function DocumentCheck() {
  const { t } = useTranslation();
  const { api } = usePortal();
  // A certificate's QR code opens /home?number=...&via=qr; it never carries the second factor.
  const [searchParams] = useSearchParams();
  // Opened by a scan (the QR code adds `via=qr`), the check says so: its log tells scans apart.
  const via = searchParams.get('via') === 'qr' ? 'qr' : 'number';
  const [values, setValues] = useState<Record<CheckField, string>>(() => ({
    number: (searchParams.get('number') ?? '').slice(0, LIMITS.number),
    secondFactor: '',
  }));
  const [problems, setProblems] = useState<Partial<Record<CheckField, FieldRule>>>({});
  const [busy, setBusy] = useState(false);
  const [outcome, setOutcome] = useState<Outcome>();

  const fieldError = (field: CheckField) => {
    const problem = problems[field];
    return problem ? t(`validation.${problem.rule}`, { limit: problem.limit }) : undefined;
  };

  const change = (field: CheckField, value: string) => {
    setValues((current) => ({ ...current, [field]: value }));
    setProblems((current) => ({ ...current, [field]: undefined }));
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setOutcome(undefined);
    const found = checkFields(values);
    setProblems(found);
    if (Object.keys(found).length > 0) return;
    setBusy(true);
    const [error, result] = await api.post<VerificationResult>(DEFAULT_BACKEND, '/verification', {
      number: values.number.trim(),
      secondFactor: values.secondFactor.trim(),
      via,
    });
    setBusy(false);
    if (error?.fields?.length) {
      // The server checks the same rules: its answer marks the same fields.
      setProblems(
        Object.fromEntries(
          error.fields.map((field) => {
            const name = field.path.slice(1) as CheckField;
            return [name, { rule: field.rule, limit: LIMITS[name] }];
          }),
        ),
      );
    } else if (error) setOutcome({ kind: 'failed', error });
    else setOutcome({ kind: 'found', result });
  };

  const failureText = (error: ApiError) =>
    error.code === NOT_VERIFIED
      ? t('dashboard.errors.documentNotVerified')
      : t(`errors.${error.code}`, { defaultValue: error.message });

  return (
    <Stack gap="sm" component="section" aria-labelledby="document-check-title">
      <Title id="document-check-title" order={3} size="h4">
        {t('pages.check.title')}
      </Title>
      <Text size="sm">{t('pages.check.intro')}</Text>
      <form onSubmit={(event) => void submit(event)} noValidate>
        <Stack gap="sm">
          {/* Labels, boxes and hints on the same lines: the hint goes under its box. */}
          <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="md" verticalSpacing="sm">
            {(Object.keys(LIMITS) as CheckField[]).map((field) => (
              <TextInput
                key={field}
                label={t(`pages.check.${field}`)}
                description={
                  field === 'secondFactor' ? t('pages.check.secondFactorHelp') : undefined
                }
                inputWrapperOrder={['label', 'input', 'description', 'error']}
                value={values[field]}
                onChange={(event) => change(field, event.currentTarget.value)}
                required
                maxLength={LIMITS[field]}
                error={fieldError(field)}
                autoComplete="off"
              />
            ))}
          </SimpleGrid>
          <Group>
            <Button type="submit" loading={busy}>
              {t('pages.check.submit')}
            </Button>
          </Group>
        </Stack>
      </form>
      <div aria-live="polite">
        {outcome?.kind === 'found' && <Genuine result={outcome.result} />}
        {/* Why the check did not pass, as the server says it: never whether a number exists. */}
        {outcome?.kind === 'failed' && (
          <Alert color="red" role="alert" title={t('pages.check.errorsTitle')}>
            <List size="sm" data-testid="document-check-result">
              <List.Item>{failureText(outcome.error)}</List.Item>
            </List>
          </Alert>
        )}
      </div>
    </Stack>
  );
}

/** A genuine document: in force, not yet in force or expired; never a service status. */
function Genuine({ result }: { result: VerificationResult }) {
  const { t } = useTranslation();
  const date = (value: string | null) => (value ? formatDate(value) : '-');
  const shown = {
    inForce: { color: 'green', title: t('pages.check.passedTitle'), text: t('pages.check.valid') },
    notYetInForce: {
      color: 'gray',
      title: t('pages.check.notYetInForceTitle'),
      text: t('pages.check.notYetInForce', { from: date(result.validFrom) }),
    },
    expired: {
      color: 'orange',
      title: t('pages.check.expiredTitle'),
      text: t('pages.check.expired', { until: date(result.validUntil) }),
    },
  }[result.validity];
  return (
    <Alert
      color={shown.color}
      role="status"
      title={shown.title}
      data-testid="document-check-result"
      data-validity={result.validity}
      // The light alerts' title colours are about 2:1: titles take the body's colour.
      styles={{ title: { color: 'var(--mantine-color-text)' } }}
    >
      <Text size="sm" fw={500}>
        {shown.text}
      </Text>
      {/* What the server says of a matched document: type, number, period; nothing personal. */}
      <Text size="sm">
        {t('pages.check.found', {
          type: t(`${result.documentType}._title`, { defaultValue: result.documentType }),
          number: result.number,
        })}
      </Text>
      {(result.validFrom || result.validUntil) && (
        <Text size="sm">
          {t('pages.check.period', {
            from: date(result.validFrom),
            until: date(result.validUntil),
          })}
        </Text>
      )}
    </Alert>
  );
}
