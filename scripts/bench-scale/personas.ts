/**
 * The demo personas the scale benchmark acts as, signed in through the built-in identity
 * server as the portal signs in (scripts/token.ts). Access tokens last five minutes: one older
 * than two is replaced before the next measurement.
 */
import { obtainToken } from '../token';

export const PERSONAS = {
  applicant: { username: 'applicant', password: 'Palm-Breeze-2041' },
  verifier: { username: 'verifier', password: 'Harbour-Light-9264!' },
  validator: { username: 'validator', password: 'Island-Chart-4518!' },
  approver: { username: 'approver', password: 'Summit-Ridge-6372!' },
} as const;

export type Persona = keyof typeof PERSONAS;

const FRESH_MS = 120_000;

export class Sessions {
  private readonly tokens = new Map<Persona, { token: string; at: number }>();

  constructor(private readonly portalUrl: string) {}

  /** A bearer token of the persona, fresh for the next few minutes. */
  async token(persona: Persona): Promise<string> {
    const held = this.tokens.get(persona);
    if (held && Date.now() - held.at < FRESH_MS) return held.token;
    const { access_token } = await obtainToken({ portalUrl: this.portalUrl, ...PERSONAS[persona] });
    this.tokens.set(persona, { token: access_token, at: Date.now() });
    return access_token;
  }

  /** The persona's subject (the token's `sub`), as documents name their owner and assignee. */
  async subject(persona: Persona): Promise<string> {
    const token = await this.token(persona);
    const payload = JSON.parse(Buffer.from(token.split('.')[1] ?? '', 'base64url').toString());
    if (typeof payload.sub !== 'string') throw new Error(`No subject in ${persona}'s token`);
    return payload.sub;
  }

  async headers(persona: Persona): Promise<Record<string, string>> {
    return {
      authorization: `Bearer ${await this.token(persona)}`,
      'content-type': 'application/json',
      accept: 'application/json',
    };
  }
}
