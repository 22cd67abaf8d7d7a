import { useEffect, useRef, type Dispatch, type SetStateAction } from 'react';
import type { ApiError, FieldError } from '../../../core/api/errors';
import type { WorkflowAction } from '../../../core/documents/workflow';
import { missingRequires } from '../../../core/documents/requires';
import { unansweredErrors, type DocumentData } from '../../../engine/form';

/**
 * What an action was refused for stands until the person answers it: the marks of a field clear
 * as that field changes, and the summary goes with the last of them, so the corrected form is
 * sent again as it stands (the marks stayed red before, as if nothing had been typed, until a
 * reload lost it all). `screenValues` are the screen's own fields (Notes...), by the pointer
 * their errors carry.
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

/**
 * The fields an action `requires` (docs/forms.md) that the document leaves empty, as the server
 * would name them: asked for before anything is sent.
 */
export function missingRequiredFields(
  action: WorkflowAction,
  data: DocumentData,
  message: string,
): FieldError[] {
  return missingRequires(action.requires, data).map((path) => ({
    path,
    rule: 'required',
    message,
  }));
}
