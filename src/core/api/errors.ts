/** One field's validation problem, as the server reports it and the form shows it. */
export interface FieldError {
  /** JSON pointer of the field in the submitted document, e.g. `/code`. */
  path: string;
  /** The rule that failed (maxLength, required, format, or a named custom rule). */
  rule: string;
  /** The message in the request's language. */
  message: string;
}

/** The error half of every API answer: a stable code plus a translated message. */
export interface ApiError {
  status: number;
  code: string;
  message: string;
  fields?: FieldError[];
  /** A refused publish of definitions: every problem, by file and JSON pointer. */
  problems?: Array<{ file: string; pointer: string; message: string }>;
  /** A publish based on an older version: the newest. */
  current?: number;
}

export interface ApiErrorBody {
  error: ApiError;
}

export function isApiErrorBody(value: unknown): value is ApiErrorBody {
  if (typeof value !== 'object' || value === null || !('error' in value)) return false;
  const error = (value as { error: unknown }).error;
  return typeof error === 'object' && error !== null && 'code' in error && 'message' in error;
}
