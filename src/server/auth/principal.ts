/** Who is calling, read from a verified access token's claims. */
export interface Principal {
  subject: string;
  roles: string[];
  name?: string;
  preferredUsername?: string;
  email?: string;
  phoneNumber?: string;
  locale?: string;
  userType?: string;
  /** The sign-in session the token belongs to (`sid`); none for a service's token. */
  sessionId?: string;
}

export function holdsAnyRole(principal: Principal | undefined, roles: readonly string[]): boolean {
  return principal !== undefined && roles.some((role) => principal.roles.includes(role));
}
