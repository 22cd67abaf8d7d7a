import type { ComponentType } from 'react';
import { OwnApiCredentialsPanel } from './OwnApiCredentialsPanel';
import { SessionsPanel } from './SessionsPanel';
import { PasskeysPanel } from './PasskeysPanel';
import { RecoveryCodesPanel } from './RecoveryCodesPanel';

/**
 * The sections of the security page, in order: each one a component of its own that loads what
 * it shows (sessions, passkeys, recovery codes, API credentials). A new section is one entry.
 */
export interface SecurityPanel {
  id: string;
  Panel: ComponentType;
}

export const SECURITY_PANELS: readonly SecurityPanel[] = [
  { id: 'sessions', Panel: SessionsPanel },
  { id: 'passkeys', Panel: PasskeysPanel },
  { id: 'recovery-codes', Panel: RecoveryCodesPanel },
  // A service account's own credentials; nothing for a person.
  { id: 'api-credentials', Panel: OwnApiCredentialsPanel },
];
