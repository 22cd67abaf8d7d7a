/**
 * What the share-code routes answer (docs/status-sharing.md; the workflow keyword `shareCodes`):
 * the holder's codes and check log, and the public check's result. The portal reads them only.
 */

export type ShareCodeState = 'active' | 'expired' | 'revoked';

export interface ShareCode {
  id: string;
  /** The purpose's id; its label comes with the list's `purposes`. */
  purpose: string;
  createdAt: string;
  expiresAt: string;
  revokedAt: string | null;
  state: ShareCodeState;
  /** How many checks found the document with this code. */
  checks: number;
}

/** The creation's answer: the code itself, grouped `ABC 234 XYZ`, shown this once. */
export interface MadeShareCode extends ShareCode {
  code: string;
}

export interface ShareCodePurpose {
  id: string;
  /** A text key of the definitions. */
  label: string;
}

export interface ShareCodeList {
  items: ShareCode[];
  purposes: ShareCodePurpose[];
  defaultDays: number;
  maxDays: number;
  mayCreate: boolean;
}

export type CheckMethod = 'shareCode' | 'number' | 'qr';

export interface StatusCheck {
  /** `CHK-` and 10 characters: what the checker quotes. */
  reference: string;
  checkedAt: string;
  method: CheckMethod;
  purpose: string | null;
  /** `203.0.113.0/24`, an IPv6 /48, or `local`. */
  addressClass: string;
  result: 'shown' | 'refused';
}

export type Validity = 'inForce' | 'notYetInForce' | 'expired';

/** The public check's answer, its labels and values already in the language asked. */
export interface ShareCheckResult {
  reference: string;
  checkedAt: string;
  purpose: string;
  purposeLabel: string;
  documentType: string;
  documentTitle: string;
  language: string;
  name: string;
  /** A data: URL of the holder's photo. */
  photo: string | null;
  validity: Validity;
  validFrom: string | null;
  validUntil: string | null;
  fields: Array<{ label: string; value: string }>;
}

/** The public check's route under its backend. */
export const SHARE_CHECK_PATH = '/share-check';

/** The error of every check that finds nothing: the same whatever the reason. */
export const SHARE_CODE_NOT_VERIFIED = 'SHARE_CODE_NOT_VERIFIED';

export { sharesCodes } from '../../core/definitions/status-check';
