import type { ReactNode } from 'react';
import type { FieldError } from '../../../core/api/errors';

/** A field's problems, each once and on a line of its own; undefined when it has none. */
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
