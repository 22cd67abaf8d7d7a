/**
 * What the share-code routes answer (docs/status-sharing.md; the workflow keyword `shareCodes`),
 * as the portal reads them: the server's own types (src/core/documents/share-codes.ts).
 */
import type {
  DocumentShareCodes,
  NewShareCode,
  ShareCheckAnswer,
} from '../../core/documents/share-codes';

export type {
  ShareCode,
  ShareCodeState,
  StatusCheck,
  StatusCheckMethod as CheckMethod,
} from '../../core/documents/share-codes';
export type { DocumentValidity as Validity } from '../../core/dashboard/types';

/** The creation's answer: the code itself, grouped `ABC 234 XYZ`, shown this once. */
export type MadeShareCode = NewShareCode;
export type ShareCodeList = DocumentShareCodes;
export type ShareCodePurpose = DocumentShareCodes['purposes'][number];
/** The public check's answer, its labels and values already in the language asked. */
export type ShareCheckResult = ShareCheckAnswer;

/** The public check's route under its backend. */
export const SHARE_CHECK_PATH = '/share-check';

/** The error of every check that finds nothing: the same whatever the reason. */
export const SHARE_CODE_NOT_VERIFIED = 'SHARE_CODE_NOT_VERIFIED';

export { sharesCodes } from '../../core/definitions/status-check';
