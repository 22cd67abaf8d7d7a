import type { ReactNode } from 'react';
import type { FieldError } from '../../../core/api/errors';

/**
 * What the account pages show under one field: each of its problems on a line of its own
 * (a password breaking three rules reads as three lines, not one paragraph), the same message
 * once however many checks gave it. Undefined when the field has none.
 */
export function fieldMessages(errors: readonly FieldError[]): ReactNode {
  const messages = [...new Set(errors.map((e) => e.message))];
  if (messages.length === 0) return undefined;
  if (messages.length === 1) return messages[0];
  return messages.map((message) => (
    <span key={message} style={{ display: 'block' }}>
      {message}
    </span>
  ));
}
