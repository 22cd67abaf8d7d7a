import { useCallback } from 'react';
import { useTranslation } from 'react-i18next';
import type { ApiError } from '../core/api/errors';

/**
 * A failed call's message: the server's, already worded in the reader's language; one the
 * browser makes itself (status 0: offline, an unreadable answer) from the portal's texts.
 */
export function useApiMessage(): (error: ApiError) => string {
  const { t } = useTranslation();
  return useCallback(
    (error: ApiError) =>
      error.status === 0
        ? t(`errors.${error.code}`, { defaultValue: error.message })
        : error.message,
    [t],
  );
}
