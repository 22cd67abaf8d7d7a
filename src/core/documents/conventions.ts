/*
 * What the engine assumes of every workflow unless its definition says otherwise, written once:
 * the server, the API contract and the portal read these, never a copy.
 */

/** The backend (`/api/<backend>`) serving a workflow's documents when it names none. */
export const DEFAULT_BACKEND = 'evisa';

/** The backend serving a workflow's documents: its `backend`, else the default one. */
export function backendOf(workflow: { backend?: string }): string {
  return workflow.backend ?? DEFAULT_BACKEND;
}

/** Where a document keeps its reference, written by the `allocateReference` effect. */
export const REFERENCE_POINTER = '/header/reference';
