import { useState, type FormEvent } from 'react';
import { Alert, Button, Group, Stack, Text, TextInput, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router-dom';
import type { ApiError } from '../../../core/api/errors';
import type { VerificationResult } from '../../../core/dashboard/types';
import { formatDate } from '../../../core/format';
import { usePortal } from '../../context';

/**
 * The electronic-document search of the public home page: anyone holding a visa or sponsorship
 * number and the holder's passport number or date of birth sees whether it is valid, with its
 * status and validity period and nothing personal. The server decides, and limits attempts.
 */
export function DocumentCheck() {
  const { t } = useTranslation();
  const { api } = usePortal();
  // The e-visa's QR code opens /home?number=...: the number is filled in, the holder adds the
  // second factor (which the code never carries).
  const [searchParams] = useSearchParams();
  const [number, setNumber] = useState(() => (searchParams.get('number') ?? '').slice(0, 64));
  const [secondFactor, setSecondFactor] = useState('');
  const [busy, setBusy] = useState(false);
  const [result, setResult] = useState<VerificationResult>();
  const [failure, setFailure] = useState<ApiError>();

  const fieldError = (pointer: string) =>
    failure?.fields?.find((field) => field.path === pointer)?.message;

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setBusy(true);
    setResult(undefined);
    setFailure(undefined);
    const [error, found] = await api.post<VerificationResult>('evisa', '/verification', {
      number: number.trim(),
      secondFactor: secondFactor.trim(),
    });
    setBusy(false);
    if (error) setFailure(error);
    else setResult(found);
  };

  return (
    <Stack gap="sm" component="section" aria-labelledby="document-check-title">
      <Title id="document-check-title" order={3} size="h4">
        {t('pages.check.title')}
      </Title>
      <Text size="sm">{t('pages.check.intro')}</Text>
      <form onSubmit={(event) => void submit(event)} noValidate>
        <Group align="flex-end" wrap="wrap">
          <TextInput
            label={t('pages.check.number')}
            value={number}
            onChange={(event) => setNumber(event.currentTarget.value)}
            required
            maxLength={64}
            error={fieldError('/number')}
            autoComplete="off"
          />
          <TextInput
            label={t('pages.check.secondFactor')}
            description={t('pages.check.secondFactorHelp')}
            value={secondFactor}
            onChange={(event) => setSecondFactor(event.currentTarget.value)}
            required
            maxLength={64}
            error={fieldError('/secondFactor')}
            autoComplete="off"
          />
          <Button type="submit" loading={busy}>
            {t('pages.check.submit')}
          </Button>
        </Group>
      </form>
      <div aria-live="polite">
        {result && (
          <Alert
            color={result.valid ? 'green' : 'orange'}
            title={t(result.valid ? 'pages.check.valid' : 'pages.check.notValid')}
            data-testid="document-check-result"
          >
            <Text size="sm">
              {t('pages.check.found', {
                type: t(`${result.documentType}._title`, { defaultValue: result.documentType }),
                number: result.number,
                status: t(`statuses.${result.status}`, { defaultValue: result.status }),
              })}
            </Text>
            {(result.validFrom || result.validUntil) && (
              <Text size="sm">
                {t('pages.check.period', {
                  from: result.validFrom ? formatDate(result.validFrom) : '-',
                  until: result.validUntil ? formatDate(result.validUntil) : '-',
                })}
              </Text>
            )}
          </Alert>
        )}
        {failure && !failure.fields?.length && (
          <Alert color="red" role="alert" data-testid="document-check-result">
            {failure.message}
          </Alert>
        )}
      </div>
    </Stack>
  );
}
