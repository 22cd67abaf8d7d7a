import { Alert } from '@mantine/core';
import type { ReactNode } from 'react';

/** A failure, announced at once (`role="alert"`); nothing while there is none. */
export function ErrorAlert({ message }: { message: ReactNode }) {
  return message ? (
    <Alert color="red" role="alert">
      {message}
    </Alert>
  ) : null;
}
