import type { ReactNode } from 'react';
import { Alert } from '@mantine/core';

/** A red alert, read out at once; nothing when there is nothing to say. */
export function ErrorAlert({ children }: { children: ReactNode }) {
  return children ? (
    <Alert color="red" role="alert">
      {children}
    </Alert>
  ) : null;
}
