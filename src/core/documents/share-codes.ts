/**
 * Share codes and the check log (docs/status-sharing.md): what the server answers, shared by the
 * server and the portal, and how a code is written and read.
 */
import type { DocumentValidity } from '../dashboard/types';

/** The letters and digits of a code: none that reads as another (no 0 O 1 I L). */
export const SHARE_CODE_ALPHABET = '23456789ABCDEFGHJKMNPQRSTUVWXYZ';
export const SHARE_CODE_LENGTH = 9;

/** A code as shown: three groups of three, `ABC 234 XYZ`. */
export function formatShareCode(code: string): string {
  return (normalizeShareCode(code).match(/.{1,3}/g) ?? []).join(' ');
}

/** A code as typed, in any case with any spaces and dashes, as compared. */
export function normalizeShareCode(text: string): string {
  return text.replace(/[\s-]+/g, '').toUpperCase();
}

export type ShareCodeState = 'active' | 'expired' | 'revoked';

/** One code of a document, as its holder lists it (the code itself is shown only once). */
export interface ShareCode {
  id: string;
  purpose: string;
  createdAt: string;
  expiresAt: string;
  revokedAt: string | null;
  state: ShareCodeState;
  /** How many checks were made with it. */
  checks: number;
}

/** The creation's answer: the code, formatted, this once. */
export type NewShareCode = ShareCode & { code: string };

/** A document's codes, the purposes a new one may have and whether the holder may make one now. */
export interface DocumentShareCodes {
  items: ShareCode[];
  purposes: Array<{ id: string; label: string }>;
  defaultDays: number;
  maxDays: number;
  mayCreate: boolean;
}

export type StatusCheckMethod = 'shareCode' | 'number' | 'qr';
export type StatusCheckResult = 'shown' | 'refused';

/** One public check of the holder's document, as their check log shows it. */
export interface StatusCheck {
  reference: string;
  checkedAt: string;
  method: StatusCheckMethod;
  purpose: string | null;
  /** The checker's network, never their address: `203.0.113.0/24`, an IPv6 /48, or `local`. */
  addressClass: string;
  result: StatusCheckResult;
}

/** What a checker is shown for a code and the holder's detail, in the language asked. */
export interface ShareCheckAnswer {
  reference: string;
  checkedAt: string;
  purpose: string;
  purposeLabel: string;
  documentType: string;
  documentTitle: string;
  language: string;
  name: string;
  /** A data: URL of the holder's photo, when there is one. */
  photo: string | null;
  validity: DocumentValidity;
  validFrom: string | null;
  validUntil: string | null;
  fields: Array<{ label: string; value: string }>;
}
