import type { ApiHarness } from './api-server';

/** An account of the directory, as a test names it: its id (its tokens' subject) and login. */
export interface TestAccount {
  id: string;
  login: string;
  name: string;
}

/**
 * An active account of the directory holding `roles` (through an access unit of its own, beside
 * its group's), made through the API the way an identity administrator makes one. A token for
 * it is `api.issuer.token({ sub: account.id, ... })`: the directory knows it by that id.
 */
export async function accountHolding(
  api: ApiHarness,
  user: {
    login: string;
    firstName: string;
    lastName: string;
    roles: string[];
    email?: string;
    mobile?: string;
    /** Its group; PUBLIC (members of the public) unless said. */
    group?: string;
  },
): Promise<TestAccount> {
  const admin = await api.issuer.token({
    sub: 'test-identity-administrator',
    name: 'Test administrator',
    groups: ['connectid-account-create', 'connectid-unit-create'],
  });
  const post = async (type: string, data: unknown) => {
    const response = await api.call('POST', `/api/connectid/${type}`, {
      token: admin,
      body: { action: 'create', data },
    });
    if (response.statusCode !== 201) throw new Error(`${type}: ${response.body}`);
    return response.json() as { id: string };
  };
  const unitCode = `T_${user.login.toUpperCase().replace(/[^A-Z0-9]/g, '_')}`;
  await post('access-unit', {
    unit: { unitCode, unitDescription: `Roles of ${user.login}` },
    access: { roles: user.roles },
  });
  const account = await post('account', {
    identity: { loginIdentifier: user.login, firstName: user.firstName, lastName: user.lastName },
    contact: {
      emailAddress: user.email ?? `${user.login}@example.org`,
      ...(user.mobile ? { primaryMobileNo: user.mobile } : {}),
    },
    organisation: { userType: 'INDIVIDUAL' },
    access: {
      userGroup: user.group ?? 'PUBLIC',
      accessUnits: [unitCode],
      activationStatus: 'active',
    },
  });
  return { id: account.id, login: user.login, name: `${user.firstName} ${user.lastName}` };
}
