import { useEffect, useRef, type Dispatch, type SetStateAction } from 'react';
import type { ApiError, FieldError } from '../../../core/api/errors';
import type { WorkflowAction } from '../../../core/documents/workflow';
import { missingRequires, requiredBy } from '../../../core/documents/requires';
import { unansweredErrors, type DocumentData } from '../../../engine/form';

/**
 * A refused action's field marks clear as each field changes, and the summary with the last of
 * them. `screenValues`: the screen's own fields, by their errors' pointers.
 */
export function useAnsweredErrors(
  data: DocumentData,
  screenValues: Readonly<Record<string, string>>,
  fieldErrors: readonly FieldError[],
  setFieldErrors: Dispatch<SetStateAction<FieldError[]>>,
  setFailure: Dispatch<SetStateAction<ApiError | null>>,
): void {
  // The values the errors were found on: a change is what differs from them.
  const found = useRef({ errors: fieldErrors, data, screenValues });
  const screenKey = JSON.stringify(screenValues);
  useEffect(() => {
    const base = found.current;
    if (base.errors !== fieldErrors) {
      found.current = { errors: fieldErrors, data, screenValues };
      return;
    }
    if (fieldErrors.length === 0) return;
    const standing = unansweredErrors(fieldErrors, base.data, data).filter(
      (error) =>
        !(error.path in screenValues) || base.screenValues[error.path] === screenValues[error.path],
    );
    if (standing.length === fieldErrors.length) return;
    setFieldErrors(standing);
    // The summary said which fields stopped the action: with none left, it has nothing to say.
    if (standing.length === 0)
      setFailure((failure) => (failure?.code === 'VALIDATION_FAILED' ? null : failure));
    // The screen's values are compared by content (a new object on every render).
  }, [data, screenKey, fieldErrors, setFieldErrors, setFailure]);
}

/** The fields an action `requires` that the document leaves empty, as the server would name them. */
export function missingRequiredFields(
  action: WorkflowAction,
  data: DocumentData,
  message: string,
): FieldError[] {
  return missingRequires(requiredBy(action), data).map((path) => ({
    path,
    rule: 'required',
    message,
  }));
}
