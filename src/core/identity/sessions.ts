/** One of the person's sign-in sessions, as `GET /api/account/sessions` lists it (docs/identity.md, "Sessions"). */
export interface AccountSession {
  id: string;
  /** The device in English words ("Chrome on Linux"); the page words `browser` and `os` itself. */
  device: string;
  browser: string;
  os: string;
  addressClass: string;
  signedInAt: string;
  lastUsedAt: string;
  method: string;
  /** The session of the token that asked. */
  current: boolean;
}
