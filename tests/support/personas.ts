import { DocumentAccountDirectory } from '../../src/modules/connectid/server/directory';
import type { ApiHarness } from './api-server';
import { multipartFile } from './multipart';
import type { ApplicationsApi } from './submitted-applications';

/** A demo account signed in: its token, with the claims the identity server would give it. */
export interface SignedPersona {
  token: string;
  id: string;
  login: string;
  name: string;
  email: string | null;
  mobile: string | null;
}

/**
 * A token for a demo account (seeds/connectid.json) as the identity server issues one: its id
 * as subject, its name, e-mail, mobile and the roles the directory gives it now.
 */
export async function signedPersona(api: ApiHarness, login: string): Promise<SignedPersona> {
  const directory = new DocumentAccountDirectory(api.server.database.db, api.server.definitions);
  const account = await directory.findByLogin(login);
  if (!account) throw new Error(`no demo account ${login}`);
  const token = await api.issuer.token({
    sub: account.id,
    name: account.name,
    preferred_username: account.loginIdentifier,
    ...(account.email ? { email: account.email } : {}),
    ...(account.phoneNumber ? { phone_number: account.phoneNumber } : {}),
    groups: account.roles,
  });
  return {
    token,
    id: account.id,
    login,
    name: account.name,
    email: account.email,
    mobile: account.phoneNumber,
  };
}

const PDF = Buffer.concat([
  Buffer.from('%PDF-1.4\n'),
  Buffer.alloc(200, 32),
  Buffer.from('%%EOF\n'),
]);

/** The steps of tests/support/submitted-applications.ts, through the harness (inject). */
export function applicationsThrough(api: ApiHarness): ApplicationsApi {
  return {
    async send(method, url, token, body) {
      const response = await api.call(method, url, { token, body });
      if (response.statusCode >= 300) throw new Error(`${method} ${url}: ${response.body}`);
      return response.json();
    },
    async uploadPdf(token) {
      const { body, contentType } = multipartFile('scan.pdf', 'application/pdf', PDF);
      const response = await api.app.inject({
        method: 'POST',
        url: '/api/media',
        headers: { authorization: `Bearer ${token}`, 'content-type': contentType },
        payload: body,
      });
      if (response.statusCode !== 201) throw new Error(`upload: ${response.body}`);
      return response.json();
    },
  };
}
