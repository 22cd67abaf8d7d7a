import type { Page } from 'playwright-core';
import { obtainToken } from '../../scripts/token';
import type { PortalProcess } from './portal-process';

/** The identity administrator of the demo data (seeds/connectid.json). */
export const IDENTITY_ADMIN = { login: 'idadmin', password: 'Key-Keeper-8105!' };

/** An access token obtained through the real authorization code flow with PKCE. */
export async function apiToken(
  portal: PortalProcess,
  login: string,
  password: string,
): Promise<string> {
  return (await obtainToken({ portalUrl: portal.url, username: login, password })).access_token;
}

async function call(
  portal: PortalProcess,
  token: string,
  method: string,
  path: string,
  body: unknown,
) {
  const response = await fetch(`${portal.url}/api${path}`, {
    method,
    headers: {
      authorization: `Bearer ${token}`,
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (!response.ok)
    throw new Error(`${method} ${path}: ${response.status} ${await response.text()}`);
  return response.status === 204 ? null : ((await response.json()) as Record<string, unknown>);
}

/**
 * An accepted account holding exactly `roles`, made the way an administrator would: an access
 * unit with the roles, an account in the PUBLIC group with that unit, and a password.
 */
export async function createAccount(
  portal: PortalProcess,
  user: { login: string; password: string; firstName: string; lastName: string; roles: string[] },
): Promise<string> {
  const admin = await apiToken(portal, IDENTITY_ADMIN.login, IDENTITY_ADMIN.password);
  const unitCode = `E2E_${user.login.toUpperCase().replace(/[^A-Z0-9]/g, '_')}`;
  // A unit may name only existing access roles: those the definitions name exist (the server
  // makes them), any other is made first, as an administrator would before giving it.
  const existing = (await call(
    portal,
    admin,
    'GET',
    '/connectid/access-unit/choices/access-role',
    undefined,
  )) as { items: Array<{ code: string }> };
  for (const role of user.roles.filter((r) => !existing.items.some((i) => i.code === r)))
    await call(portal, admin, 'POST', '/connectid/access-role', {
      action: 'create',
      data: { role: { roleCode: role, roleDescription: role } },
    });
  await call(portal, admin, 'POST', '/connectid/access-unit', {
    action: 'create',
    data: {
      unit: { unitCode, unitDescription: `Roles of ${user.login}` },
      access: { roles: user.roles },
    },
  });
  const account = await call(portal, admin, 'POST', '/connectid/account', {
    action: 'create',
    data: {
      identity: { loginIdentifier: user.login, firstName: user.firstName, lastName: user.lastName },
      contact: { emailAddress: `${user.login}@e2e.example` },
      organisation: { userType: 'INDIVIDUAL' },
      access: { userGroup: 'PUBLIC', accessUnits: [unitCode], activationStatus: 'active' },
    },
  });
  const id = String(account?.id);
  await call(portal, admin, 'POST', `/connectid/account/${id}/password`, {
    password: user.password,
    temporary: false,
  });
  return id;
}

/**
 * Signs in through the portal as a person does: opening a protected page sends the browser to
 * the identity server's sign-in page, and back to the page afterwards.
 */
export async function signIn(
  page: Page,
  portal: PortalProcess,
  login: string,
  password: string,
  path: string,
) {
  await page.goto(`${portal.url}/#${path}`);
  await page.locator('#username').waitFor();
  await page.locator('#username').fill(login);
  await page.locator('#password').fill(password);
  await page.locator('button[type=submit]').click();
  await page.waitForURL(`${portal.url}/#${path}`);
}

/** A message of the developer outbox as GET /api/outbox lists it. */
export interface OutboxMessage {
  channel: string;
  recipient: string;
  subject: string | null;
  body: string;
}

const outboxTokens = new Map<string, { token: string; until: number }>();

/**
 * The developer outbox's messages (`query`: recipient, channel), read as the identity
 * administrator, who holds its role: nobody else may read other people's codes. The token is
 * kept for four of its five minutes.
 */
export async function outboxMessages(
  portal: PortalProcess,
  query: Record<string, string>,
): Promise<OutboxMessage[]> {
  let held = outboxTokens.get(portal.url);
  if (!held || held.until < Date.now()) {
    held = {
      token: await apiToken(portal, IDENTITY_ADMIN.login, IDENTITY_ADMIN.password),
      until: Date.now() + 4 * 60_000,
    };
    outboxTokens.set(portal.url, held);
  }
  const response = await fetch(`${portal.url}/api/outbox?${new URLSearchParams(query)}`, {
    headers: { authorization: `Bearer ${held.token}` },
  });
  if (!response.ok) throw new Error(`GET /api/outbox: ${response.status}`);
  return ((await response.json()) as { items: OutboxMessage[] }).items;
}
