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

/**
 * Where a document keeps its reference (the number a grant gives, a visa's number), written by
 * the `allocateReference` effect and shown beside the document's own number.
 */
export const REFERENCE_POINTER = '/header/reference';
