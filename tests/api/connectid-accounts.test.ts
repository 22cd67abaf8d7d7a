import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DocumentAccountDirectory } from '../../src/modules/connectid/server/directory';
import { seedConnectid } from '../../src/modules/connectid/server/seed';
import * as connectidMigration from '../../src/server/db/migrations/0004_connectid';
import { startApiServer, type ApiHarness } from '../support/api-server';
import { databaseKinds } from '../support/databases';
import { messagesAbout } from '../support/inbox';
import { allTables } from '../support/all-tables';

/**
 * The account workflow end to end (registration, review with notes and notifications, profile
 * edits by the account itself, deletion and restoration, security flags), the password-policy
 * reset, the account directory the identity server reads, and the seed.
 */
type Doc = {
  id: string;
  version: number;
  status: string;
  owner: string;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- response JSON, read freely
  data: Record<string, any>;
  allowedActions: string[];
};

const account = (login: string, extra: Record<string, unknown> = {}) => ({
  identity: { loginIdentifier: login, firstName: 'Ana', lastName: 'Tuilagi' },
  contact: { emailAddress: `${login}@example.org`, primaryMobileNo: '+685 7210001' },
  organisation: { userType: 'INDIVIDUAL' },
  ...extra,
});

describe.each(databaseKinds())('connectid accounts on %s', (kind) => {
  let api: ApiHarness;
  let admin: string;
  let registration: string;
  let directory: DocumentAccountDirectory;
  const base = '/api/connectid/account';
  const role = (suffix: string) => `connectid-account-${suffix}`;

  beforeAll(async () => {
    api = await startApiServer(kind);
    directory = new DocumentAccountDirectory(api.server.database.db, api.server.definitions);
    admin = await api.issuer.token({
      sub: 'admin-1',
      name: 'Ida Admin',
      groups: ['search', 'create', 'update', 'delete', 'review', 'security'].map(role),
    });
    // The registration endpoint acts with a system principal holding the create role.
    registration = await api.issuer.token({ sub: 'registration', groups: [role('create')] });
  });
  afterAll(async () => {
    await api?.close();
  });

  const ownerToken = (doc: { id: string }) =>
    api.issuer.token({ sub: doc.id, name: 'Ana Tuilagi', groups: [role('read')] });
  const act = async (doc: Doc, action: string, body: Record<string, unknown>, token = admin) =>
    api.call('POST', `${base}/${doc.id}/actions/${action}`, {
      token,
      body: { version: doc.version, ...body },
    });
  /** An administrator's account names its group (`requires`); the tests' usual one is PUBLIC. */
  const grouped = (data: Record<string, unknown>) => ({
    ...data,
    access: { userGroup: 'PUBLIC', ...(data.access as object | undefined) },
  });
  const create = async (data: Record<string, unknown>, action = 'create', token = admin) => {
    const body = { action, data: action === 'create' ? grouped(data) : data };
    const response = await api.call('POST', base, { token, body });
    expect(response.statusCode, response.body).toBe(201);
    return response.json() as Doc;
  };
  const list = async (id: string, filter: unknown[] = []) => {
    const response = await api.call('PATCH', base, { token: admin, body: { list: id, filter } });
    expect(response.statusCode, response.body).toBe(200);
    return (response.json().items as Array<{ id: string }>).map((i) => i.id);
  };
  const outbox = (id: string) =>
    api.tables
      .selectFrom('outbox')
      .select(['channel', 'recipient', 'subject', 'body'])
      .where('document_id', '=', id)
      .orderBy('created_at')
      .execute();

  it('reviews a registration: return with notes, correction by the user, reject, accept', async () => {
    const doc = await create(account('reg.ana'), 'register', registration);
    expect(doc).toMatchObject({ status: 'REGISTERED', owner: doc.id });
    // The applicant cannot choose their access: the user type's default group is given.
    expect(doc.data.access).toEqual({ userGroup: 'PUBLIC', accessUnits: [] });
    expect(await list('pending')).toContain(doc.id);

    const noNotes = await act(doc, 'return', {});
    expect(noNotes.statusCode).toBe(400);
    expect(noNotes.json().error.fields).toContainEqual(
      expect.objectContaining({ path: '/notes', rule: 'required' }),
    );
    const returned = await act(doc, 'return', { notes: 'Please give your mobile number' });
    expect(returned.statusCode, returned.body).toBe(200);
    expect(returned.json().status).toBe('RETURNED');
    expect(await list('returned')).toContain(doc.id);
    // The holder finds it in their inbox (the account owns itself) and by e-mail.
    const notices = await messagesAbout(api.server.database.db, doc.id);
    expect(notices).toEqual([expect.objectContaining({ owner: doc.id })]);
    expect(notices[0]!.body).toContain('Please give your mobile number');
    expect(await outbox(doc.id)).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ channel: 'email', recipient: 'reg.ana@example.org' }),
      ]),
    );

    // The user corrects their own account: it becomes MODIFIED, pending review again.
    const owner = await ownerToken(doc);
    const mine = await api.call('GET', `${base}/${doc.id}`, { token: owner });
    expect(mine.statusCode).toBe(200);
    expect(mine.json().allowedActions).toEqual(['modify-profile', 'set-preferences']);
    const corrected = await act(
      returned.json(),
      'modify-profile',
      { data: account('reg.ana', { contact: { emailAddress: 'ana@example.org' } }) },
      owner,
    );
    expect(corrected.statusCode, corrected.body).toBe(200);
    expect(corrected.json()).toMatchObject({ status: 'MODIFIED', owner: doc.id });
    expect(await list('pending')).toContain(doc.id);

    const rejected = await act(corrected.json(), 'reject', { notes: 'Identity not proven' });
    expect(rejected.json().status).toBe('REJECTED');
    expect(await list('rejected')).toContain(doc.id);
    expect((await outbox(doc.id)).filter((m) => m.channel === 'email').at(-1)).toMatchObject({
      recipient: 'ana@example.org',
    });
    expect(await directory.findById(doc.id)).toMatchObject({ canSignIn: false });

    const accepted = await act(rejected.json(), 'accept', {
      data: { access: { userGroup: 'PUBLIC', accessUnits: [] } },
    });
    expect(accepted.statusCode, accepted.body).toBe(200);
    expect(accepted.json()).toMatchObject({
      status: 'ACCEPTED',
      data: { access: { userGroup: 'PUBLIC', activationStatus: 'active' } },
    });
    expect(await messagesAbout(api.server.database.db, doc.id)).toHaveLength(3);
    expect((await outbox(doc.id)).filter((m) => m.channel === 'email')).toHaveLength(3);
    // The decision names the account as its holder knows it, never by the record's id.
    const acceptance = (await messagesAbout(api.server.database.db, doc.id)).at(-1)!;
    expect(acceptance.subject).toBe('Your account reg.ana: Accepted');
    // ...and says where to sign in, now that the holder may (the portal's own page, which asks
    // for the sign-in first).
    expect(acceptance.body).toBe(
      'Your account reg.ana (Ana Tuilagi) is now: Accepted.\n' +
        `Sign in to the portal here: ${api.config.publicUrl}/#/connectid/profile`,
    );
    const acceptedMail = (await outbox(doc.id)).filter((m) => m.channel === 'email').at(-1);
    expect(acceptedMail?.body).toContain(`${api.config.publicUrl}/#/connectid/profile`);
    // A rejection says nothing of signing in.
    expect((await messagesAbout(api.server.database.db, doc.id)).at(-2)!.body).not.toContain(
      'Sign in',
    );
    expect(`${acceptance.subject} ${acceptance.body}`).not.toContain(doc.id);
    expect(
      await list('active', [{ field: 'activationStatus', criterion: 'equals', value: 'active' }]),
    ).toContain(doc.id);
    expect(await directory.findByLogin('REG.ANA')).toMatchObject({ id: doc.id, canSignIn: true });

    const history = (await api.call('GET', `${base}/${doc.id}/history`, { token: owner })).json();
    expect(history.map((h: { operation: string }) => h.operation)).toEqual([
      'NEW -> REGISTERED',
      'REGISTERED -> RETURNED',
      'RETURNED -> MODIFIED',
      'MODIFIED -> REJECTED',
      'REJECTED -> ACCEPTED',
    ]);
  });

  it('asks an administrator for the new account’s group, among the groups there are', async () => {
    const refuse = async (data: Record<string, unknown>, rule: string) => {
      const answer = await api.call('POST', base, {
        token: admin,
        headers: { locale: 'fr' },
        body: { action: 'create', data },
      });
      expect(answer.statusCode, answer.body).toBe(400);
      expect(answer.json().error.fields).toContainEqual(
        expect.objectContaining({ path: '/access/userGroup', rule }),
      );
      return answer.json().error.fields as Array<{ path: string; message: string }>;
    };
    // No group: required, in words.
    const none = await refuse(account('no.group'), 'required');
    expect(none.find((f) => f.path === '/access/userGroup')?.message).toBe(
      'Ce champ est obligatoire',
    );
    await refuse(account('no.group', { access: { activationStatus: 'active' } }), 'required');
    // A group that does not exist: refused by the choice of groups, naming it.
    const unknown = await refuse(
      account('no.group', { access: { userGroup: 'NOBODY' } }),
      'unknownDocumentChoice',
    );
    expect(unknown.find((f) => f.path === '/access/userGroup')?.message).toContain('NOBODY');
    // Nothing was stored.
    expect(await directory.findByLogin('no.group')).toBeUndefined();
    // Nor may an edit take the group away.
    const doc = await create(account('keeps.group'));
    const { access: _access, ...withoutGroup } = doc.data;
    const edited = await act(doc, 'update', { data: withoutGroup });
    expect(edited.statusCode).toBe(400);
    expect(edited.json().error.fields).toContainEqual(
      expect.objectContaining({ path: '/access/userGroup', rule: 'required' }),
    );
  });

  it('keeps login identifiers unique and out of the owner’s reach', async () => {
    const doc = await create(
      account('unique.one', { access: { userGroup: 'PUBLIC', activationStatus: 'active' } }),
    );
    const twin = await api.call('POST', base, {
      token: admin,
      body: { action: 'create', data: grouped(account('unique.one')) },
    });
    expect(twin.statusCode).toBe(400);
    expect(twin.json().error.fields).toContainEqual(
      expect.objectContaining({ path: '/identity/loginIdentifier', rule: 'unique' }),
    );
    const bad = await api.call('POST', base, {
      token: admin,
      body: { action: 'create', data: grouped(account('Not Valid!')) },
    });
    expect(bad.statusCode).toBe(400);
    const owner = await ownerToken(doc);
    const renamed = await act(doc, 'modify-profile', { data: account('unique.two') }, owner);
    expect(renamed.statusCode).toBe(400);
    expect(renamed.json().error.fields).toContainEqual(
      expect.objectContaining({ path: '/identity/loginIdentifier', rule: 'readOnly' }),
    );
    // The owner cannot write the officer sections: what they send there is not taken.
    const sneaky = await act(
      doc,
      'modify-profile',
      { data: { ...account('unique.one'), access: { userGroup: 'IDENTITY_ADMINISTRATORS' } } },
      owner,
    );
    expect(sneaky.statusCode, sneaky.body).toBe(200);
    expect(sneaky.json().data.access).toEqual({ userGroup: 'PUBLIC', activationStatus: 'active' });
    const fine = await act(
      sneaky.json(),
      'modify-profile',
      { data: account('unique.one', { organisation: { userType: 'AGENT' } }) },
      owner,
    );
    expect(fine.statusCode, fine.body).toBe(200);
    expect(fine.json()).toMatchObject({
      status: 'MODIFIED',
      data: { organisation: { userType: 'AGENT' } },
    });
    // A profile being reviewed does not lock its holder out.
    expect(await directory.findById(doc.id)).toMatchObject({ canSignIn: true });
    // Someone else holding the read role cannot act on it.
    const stranger = await api.issuer.token({ sub: 'stranger', groups: [role('read')] });
    expect(
      (await act(fine.json(), 'modify-profile', { data: account('unique.one') }, stranger))
        .statusCode,
    ).toBe(404);
  });

  it('keeps the owner’s language in the preferences, without a review and nothing else changed', async () => {
    const created = await create(account('lea.fa'));
    expect(created.status).toBe('ACCEPTED');
    const token = await ownerToken(created);
    const changed = await act(
      created,
      'set-preferences',
      {
        data: {
          ...created.data,
          contact: { ...created.data.contact, emailAddress: 'sneaky@example.org' },
          preferences: { language: 'fr' },
        },
      },
      token,
    );
    expect(changed.statusCode, changed.body).toBe(200);
    const saved = changed.json() as Doc;
    expect(saved.status).toBe('ACCEPTED');
    expect(saved.data.preferences).toEqual({ language: 'fr' });
    // Only the preferences section is the action's to change.
    expect(saved.data.contact.emailAddress).toBe('lea.fa@example.org');
    expect((await directory.findById(created.id))?.locale).toBe('fr');

    const bad = await act(
      saved,
      'set-preferences',
      { data: { ...saved.data, preferences: { language: 'de' } } },
      token,
    );
    expect(bad.statusCode).toBe(400);
    const other = await create(account('sam.fa'));
    const foreign = await act(
      other,
      'set-preferences',
      { data: { ...other.data, preferences: { language: 'fr' } } },
      token,
    );
    // Another person's account is not even visible to the owner.
    expect(foreign.statusCode).toBe(404);
  });

  it('deletes and restores an account to the status it had', async () => {
    const doc = await create(account('to.delete'));
    const owner = await ownerToken(doc);
    const modified = (
      await act(doc, 'modify-profile', { data: account('to.delete') }, owner)
    ).json();
    expect(modified.status).toBe('MODIFIED');
    const deleted = await act(modified, 'delete', {});
    expect(deleted.json()).toMatchObject({ status: 'DELETED' });
    expect(await list('deleted')).toContain(doc.id);
    expect(await list('accounts')).not.toContain(doc.id);
    expect(await directory.findByLogin('to.delete')).toMatchObject({ canSignIn: false, roles: [] });
    const restored = await act(deleted.json(), 'undo-delete', {});
    expect(restored.json().status).toBe('MODIFIED');
  });

  it('sets the security flags the identity server reads, and clears them', async () => {
    const doc = await create(account('secure.me', { access: { activationStatus: 'active' } }));
    expect(await directory.securityFlags(doc.id)).toEqual({
      forcePasswordChange: false,
      forceTotp: false,
    });
    const forced = await act(doc, 'force-password-change', {});
    expect(forced.json()).toMatchObject({
      status: 'ACCEPTED',
      data: { security: { forcePasswordChange: true } },
    });
    const totp = await act(forced.json(), 'force-two-factor', {});
    expect(totp.json().data.security).toEqual({ forcePasswordChange: true, forceTotp: true });
    expect(await directory.securityFlags(doc.id)).toEqual({
      forcePasswordChange: true,
      forceTotp: true,
    });
    await directory.clearSecurityFlag(doc.id, 'forcePasswordChange');
    expect(await directory.securityFlags(doc.id)).toEqual({
      forcePasswordChange: false,
      forceTotp: true,
    });
    const after = (await api.call('GET', `${base}/${doc.id}`, { token: admin })).json();
    expect(after.version).toBe(4);
    expect(await directory.securityFlags('00000000-0000-0000-0000-000000000000')).toBeUndefined();
  });

  it('resets a password policy to the defaults of its schema', async () => {
    const manager = await api.issuer.token({
      sub: 'policy-manager',
      groups: ['create', 'update', 'read'].map((s) => `connectid-policy-${s}`),
    });
    const rules = {
      minimumLength: 4,
      maximumLength: 20,
      minimumDigits: 0,
      minimumLowercase: 0,
      minimumUppercase: 0,
      minimumSpecial: 0,
      allowUsernameInPassword: true,
      passwordExpiryInDays: 0,
      passwordWarningInDays: 0,
    };
    const created = await api.call('POST', '/api/connectid/password-policy', {
      token: manager,
      body: { action: 'create', data: { policy: { code: 'WEAK', name: 'Weak' }, rules } },
    });
    expect(created.statusCode, created.body).toBe(201);
    const reset = await api.call(
      'POST',
      `/api/connectid/password-policy/${created.json().id}/actions/reset`,
      { token: manager, body: { version: 1 } },
    );
    expect(reset.statusCode, reset.body).toBe(200);
    expect(reset.json().data).toEqual({
      policy: { code: 'WEAK', name: 'Weak' },
      rules: {
        minimumLength: 10,
        maximumLength: 128,
        minimumDigits: 1,
        minimumLowercase: 1,
        minimumUppercase: 1,
        minimumSpecial: 1,
        allowUsernameInPassword: false,
        passwordExpiryInDays: 90,
        passwordWarningInDays: 14,
      },
    });
  });

  it('refuses an inconsistent password policy, field by field, storing nothing', async () => {
    const manager = await api.issuer.token({
      sub: 'policy-checker',
      groups: ['create', 'update', 'read', 'search'].map((s) => `connectid-policy-${s}`),
    });
    const rules = {
      minimumLength: 12,
      maximumLength: 20,
      minimumDigits: 1,
      minimumLowercase: 1,
      minimumUppercase: 1,
      minimumSpecial: 1,
      allowUsernameInPassword: false,
      passwordExpiryInDays: 20,
      passwordWarningInDays: 10,
    };
    const post = (code: string, changes: Partial<typeof rules>, language = 'en') =>
      api.call('POST', '/api/connectid/password-policy', {
        token: manager,
        headers: { 'accept-language': language },
        body: {
          action: 'create',
          data: { policy: { code, name: code }, rules: { ...rules, ...changes } },
        },
      });
    const fieldsOf = (response: {
      statusCode: number;
      json: () => { error: { fields: Array<{ path: string; message: string }> } };
    }) => {
      expect(response.statusCode).toBe(400);
      return response.json().error.fields as Array<{ path: string; message: string }>;
    };

    // The case of the issue: a warning 50 days before an expiry after 20.
    const warning = fieldsOf(await post('INCONSISTENT1', { passwordWarningInDays: 50 }));
    expect(warning).toEqual([
      expect.objectContaining({
        path: '/rules/passwordWarningInDays',
        message: 'The expiry warning must come fewer days before expiry than the expiry itself',
      }),
    ]);
    // Equal is not fewer.
    expect(fieldsOf(await post('INCONSISTENT2', { passwordWarningInDays: 20 }))).toHaveLength(1);
    const length = fieldsOf(await post('INCONSISTENT3', { minimumLength: 21 }, 'fr'));
    expect(length).toEqual([
      expect.objectContaining({
        path: '/rules/minimumLength',
        message: 'La longueur minimale ne peut pas dépasser la longueur maximale',
      }),
    ]);
    const classes = fieldsOf(
      await post('INCONSISTENT4', {
        minimumLength: 8,
        maximumLength: 10,
        minimumDigits: 4,
        minimumSpecial: 5,
      }),
    );
    expect(classes).toEqual([
      expect.objectContaining({
        path: '/rules/maximumLength',
        message:
          'The maximum length must leave room for the minimum digits, lower-case, upper-case and special characters together',
      }),
    ]);
    const stored = await api.call('PATCH', '/api/connectid/password-policy', {
      token: manager,
      body: {
        list: 'policies',
        filter: [{ field: 'code', criterion: 'startsWith', value: 'INCONSISTENT' }],
      },
    });
    expect(stored.statusCode, stored.body).toBe(200);
    expect(stored.json().items).toEqual([]);

    // A password that never expires (0) may have any warning; a consistent policy is stored,
    // and an edit that breaks it is refused the same way.
    const never = await post('CONSISTENT', { passwordExpiryInDays: 0, passwordWarningInDays: 14 });
    expect(never.statusCode, never.body).toBe(201);
    const edit = await api.call(
      'POST',
      `/api/connectid/password-policy/${never.json().id}/actions/update`,
      {
        token: manager,
        body: {
          version: 1,
          data: {
            policy: { code: 'CONSISTENT', name: 'Consistent' },
            rules: { ...rules, maximumLength: 11 },
          },
        },
      },
    );
    expect(fieldsOf(edit).map((f) => f.path)).toEqual(['/rules/minimumLength']);
  });

  it('computes roles from the group, its parents and the units, and the sign-in rights', async () => {
    const token = await api.issuer.token({
      sub: 'config-admin',
      groups: [
        'connectid-group-create',
        'connectid-unit-create',
        'connectid-role-create',
        'connectid-policy-create',
        'connectid-group-update',
      ],
    });
    const post = async (type: string, data: unknown) => {
      const response = await api.call('POST', `/api/connectid/${type}`, {
        token,
        body: { action: 'create', data },
      });
      expect(response.statusCode, response.body).toBe(201);
      return response.json() as Doc;
    };
    const unit = (code: string, roles: string[]) =>
      post('access-unit', { unit: { unitCode: code, unitDescription: code }, access: { roles } });
    // A unit may name only existing access roles.
    for (const code of ['role-a', 'role-b', 'role-c', 'role-d'])
      await post('access-role', { role: { roleCode: code, roleDescription: code } });
    await unit('T_PARENT', ['role-a', 'role-b']);
    await unit('T_CHILD', ['role-c', 'role-a']);
    await unit('T_OWN', ['role-d']);
    await post('password-policy', {
      policy: { code: 'T_POLICY', name: 'Test policy' },
      rules: {
        minimumLength: 14,
        maximumLength: 99,
        minimumDigits: 2,
        minimumLowercase: 1,
        minimumUppercase: 1,
        minimumSpecial: 0,
        allowUsernameInPassword: false,
        passwordExpiryInDays: 30,
        passwordWarningInDays: 5,
      },
    });
    const parent = await post('user-group', {
      group: { code: 'T_PARENT', name: 'Parent', status: 'active' },
      access: { defaultAccessUnits: ['T_PARENT'] },
      security: { passwordPolicy: 'T_POLICY' },
    });
    await post('user-group', {
      group: { code: 'T_CHILD', name: 'Child', status: 'active', parentGroup: 'T_PARENT' },
      access: { defaultAccessUnits: ['T_CHILD', 'T_MISSING'] },
      security: {},
    });
    const doc = await create(
      account('dir.person', {
        contact: { emailAddress: 'p@example.org', primaryMobileNo: '+685 1234567' },
        preferences: { language: 'fr' },
        access: { userGroup: 'T_CHILD', accessUnits: ['T_OWN'], activationStatus: 'active' },
      }),
    );
    expect(await directory.findByLogin('Dir.Person')).toEqual({
      id: doc.id,
      loginIdentifier: 'dir.person',
      name: 'Ana Tuilagi',
      email: 'p@example.org',
      phoneNumber: '+685 1234567',
      locale: 'fr',
      userType: 'INDIVIDUAL',
      service: false,
      canSignIn: true,
      roles: ['role-a', 'role-b', 'role-c', 'role-d'],
    });
    expect(await directory.policyFor(doc.id)).toEqual({
      code: 'T_POLICY',
      minimumLength: 14,
      maximumLength: 99,
      minimumDigits: 2,
      minimumLowercase: 1,
      minimumUppercase: 1,
      minimumSpecial: 0,
      allowUsernameInPassword: false,
      passwordExpiryInDays: 30,
      passwordWarningInDays: 5,
    });
    // An inactive parent group gives nothing any more.
    const inactive = await api.call('PUT', `/api/connectid/user-group/${parent.id}`, {
      token,
      body: {
        version: 1,
        data: { ...parent.data, group: { ...parent.data.group, status: 'inactive' } },
      },
    });
    expect(inactive.statusCode, inactive.body).toBe(200);
    expect((await directory.findById(doc.id))?.roles).toEqual(['role-a', 'role-c', 'role-d']);

    // Deactivated: no sign-in.
    const off = await act(doc, 'edit-units', {
      data: { access: { userGroup: 'T_CHILD', activationStatus: 'inactive' } },
    });
    expect(off.statusCode, off.body).toBe(200);
    expect(await directory.findById(doc.id)).toMatchObject({ canSignIn: false });
    expect(
      await list('inactive', [
        { field: 'activationStatus', criterion: 'equals', value: 'inactive' },
      ]),
    ).toContain(doc.id);

    // A service account is named after the service.
    const service = await create({
      ...account('svc.batch'),
      organisation: { userType: 'SERVICE', serviceAccountName: 'Nightly batch' },
    });
    expect(await directory.findById(service.id)).toMatchObject({
      name: 'Nightly batch',
      userType: 'SERVICE',
      // A service: it may hold API credentials (docs/identity.md).
      service: true,
      canSignIn: true,
      // The roles of the group it was given (every account names one).
      roles: expect.arrayContaining(['view-profile']),
    });
    const nameless = await api.call('POST', base, {
      token: admin,
      body: {
        action: 'create',
        data: grouped({ ...account('svc.nameless'), organisation: { userType: 'SERVICE' } }),
      },
    });
    expect(nameless.statusCode).toBe(400);
    expect(nameless.json().error.fields).toContainEqual(
      expect.objectContaining({ path: '/organisation/serviceAccountName', rule: 'required' }),
    );
    // A registration is not signed in until accepted.
    const pending = await create(account('dir.pending'), 'register', registration);
    expect(await directory.findById(pending.id)).toMatchObject({ canSignIn: false, roles: [] });
    expect(await directory.findByLogin('nobody.here')).toBeUndefined();
    expect(await directory.findById('not-a-uuid')).toBeUndefined();
  });

  it('lets an access unit name existing access roles only, each offered with its description', async () => {
    const unitAdmin = await api.issuer.token({
      sub: 'unit-admin',
      groups: ['connectid-unit-create', 'connectid-unit-update', 'connectid-unit-search'],
    });
    const units = '/api/connectid/access-unit';
    const choices = await api.call('GET', `${units}/choices/access-role`, { token: unitAdmin });
    expect(choices.statusCode, choices.body).toBe(200);
    expect(choices.json().items).toContainEqual({
      code: 'visa-application-grant',
      name: expect.stringMatching(/grant/i),
    });
    // Only the types its fields name, and only to holders of the unit workflow's roles.
    expect(
      (await api.call('GET', `${units}/choices/account`, { token: unitAdmin })).statusCode,
    ).toBe(404);
    expect(
      (await api.call('GET', `${units}/choices/access-role`, { token: admin })).statusCode,
    ).toBe(403);

    const refused = await api.call('POST', units, {
      token: unitAdmin,
      headers: { 'accept-language': 'fr' },
      body: {
        action: 'create',
        data: {
          unit: { unitCode: 'T_UNKNOWN', unitDescription: 'Unknown role' },
          access: { roles: ['view-profile', 'no-such-role'] },
        },
      },
    });
    expect(refused.statusCode).toBe(400);
    expect(refused.json().error.fields).toEqual([
      {
        path: '/access/roles',
        rule: 'unknownAccessRole',
        message: 'Il n’existe aucun rôle d’accès no-such-role',
      },
    ]);
    const stored = await api.tables
      .selectFrom('document')
      .select('id')
      .where('type', '=', 'access-unit')
      .where(sql<string>`data #>> '{unit,unitCode}'`, '=', 'T_UNKNOWN')
      .execute();
    expect(stored).toEqual([]);

    const created = await api.call('POST', units, {
      token: unitAdmin,
      body: {
        action: 'create',
        data: {
          unit: { unitCode: 'T_KNOWN', unitDescription: 'Known roles' },
          access: { roles: ['view-profile'] },
        },
      },
    });
    expect(created.statusCode, created.body).toBe(201);
    const unit = created.json() as Doc;
    // Editing the roles (an action that does not validate the whole unit) is checked too.
    const edited = await api.call('POST', `${units}/${unit.id}/actions/edit-roles`, {
      token: unitAdmin,
      body: {
        version: unit.version,
        data: { ...unit.data, access: { roles: ['view-profile', 'made-up'] } },
      },
    });
    expect(edited.statusCode).toBe(400);
    expect(edited.json().error.fields).toEqual([
      expect.objectContaining({
        path: '/access/roles',
        message: 'There is no access role made-up',
      }),
    ]);
    const after = await api.call('GET', `${units}/${unit.id}`, { token: unitAdmin });
    expect(after.json()).toMatchObject({
      version: unit.version,
      data: { access: { roles: ['view-profile'] } },
    });
  });

  it('seeds roles, units, groups, policies and personas once', async () => {
    const db = api.server.database.db;
    const passwords: string[] = [];
    const setPassword = async (_id: string, login: string) => void passwords.push(login);
    const log = { info: () => undefined };
    const count = async () =>
      Number(
        (
          await allTables(db)
            .selectFrom('document')
            .select((eb) => eb.fn.countAll<string>().as('n'))
            .where('type', 'in', [
              'account',
              'user-group',
              'password-policy',
              'access-unit',
              'access-role',
            ])
            .executeTakeFirstOrThrow()
        ).n,
      );
    // The server seeded at start; seeding again changes nothing and sets no password.
    const first = await seedConnectid(db, directory.records, { demoData: true }, log, setPassword);
    const after = await count();
    // The demo accounts of seeds/connectid.json, the finance officer and the auditor among them.
    expect(first).toHaveLength(12);
    expect(first.some((a) => a.created)).toBe(false);
    expect(api.server.demoAccounts.map((a) => a.id).sort()).toEqual(first.map((a) => a.id).sort());
    expect(passwords).toHaveLength(0);
    const second = await seedConnectid(db, directory.records, { demoData: true }, log, setPassword);
    expect(await count()).toBe(after);
    expect(second.map((a) => a.id)).toEqual(first.map((a) => a.id));
    expect(second.some((a) => a.created)).toBe(false);
    expect(passwords).toHaveLength(0);

    const roles = async (login: string) => (await directory.findByLogin(login))!.roles;
    const applicant = await directory.findByLogin('applicant');
    expect(applicant).toMatchObject({ canSignIn: true, name: 'Ana Tuilagi' });
    expect(applicant!.roles).toEqual(
      expect.arrayContaining([
        'view-profile',
        'manage-account',
        'connectid-account-read',
        'visa-application-submit',
        'inbox-message-read',
      ]),
    );
    expect(applicant!.roles).not.toContain('visa-application-grant');
    expect(await roles('idadmin')).toEqual(
      expect.arrayContaining([
        'connectid-account-review',
        'connectid-account-security',
        'connectid-policy-search',
        'connectid-role-search',
        'catalog-read',
      ]),
    );
    // The auditor reads the audit trail (docs/audit.md), and no document by a workflow's role.
    const auditorRoles = await roles('auditor');
    expect(auditorRoles).toContain('audit-read');
    expect(auditorRoles).not.toContain('visa-application-read');
    expect(await roles('verifier')).toEqual(
      expect.arrayContaining(['visa-application-grant', 'payment-invoice-verify', 'view-profile']),
    );
    expect(await roles('catalogue')).toEqual(
      expect.arrayContaining(['asypx-catalog-manage', 'sso-catalog-manage', 'catalog-manage']),
    );
    expect(await roles('agent')).toEqual(
      expect.arrayContaining(['payment-invoice-create', 'visa-application-submit']),
    );
    expect(await roles('sponsor')).toEqual(expect.arrayContaining(['sponsor-application-submit']));
    // An organisation's account is named as the organisation, and the demo sponsorship, its
    // own, names the same organisation and holds its account's name and contacts.
    const organisation = (await directory.findByLogin('sponsor.org'))!;
    expect(organisation.name).toBe('Lagoon Trading Company Ltd');
    const sponsorship = await allTables(db)
      .selectFrom('document')
      .select(['owner_name', 'owner_email', 'data'])
      .where('type', '=', 'sponsor-application')
      .where('owner', '=', organisation.id)
      .executeTakeFirstOrThrow();
    expect(sponsorship).toMatchObject({
      owner_name: organisation.name,
      owner_email: 'hr@lagoon-trading.example',
      data: { organisation: { fullName: organisation.name } },
    });
    expect(await directory.policyFor(applicant!.id)).toMatchObject({
      code: 'DEFAULT',
      minimumLength: 10,
    });
    expect(await directory.policyFor((await directory.findByLogin('approver'))!.id)).toMatchObject({
      code: 'OFFICERS',
      minimumLength: 12,
    });
    // The seeded accounts are documents like any other: their owner reads them.
    const own = await api.call('GET', `${base}/${applicant!.id}`, {
      token: await api.issuer.token({ sub: applicant!.id, groups: applicant!.roles }),
    });
    expect(own.statusCode).toBe(200);
    // Without demo data, no persona.
    expect(await seedConnectid(db, directory.records, { demoData: false }, log)).toEqual([]);
  });

  it('indexes login identifiers case-insensitively and uniquely (migration 0004)', async () => {
    const db = api.server.database.db;
    const present = await sql<{ n: number }>`select count(*)::int as n from pg_indexes
      where indexname = 'document_account_login' and schemaname = current_schema()`.execute(db);
    if (present.rows[0]!.n === 0) await connectidMigration.up(db as never);
    const insert = (login: string) =>
      allTables(db)
        .insertInto('document')
        .values({
          type: 'account',
          status: 'ACCEPTED',
          version: 1,
          owner: 'x',
          data: JSON.stringify({ identity: { loginIdentifier: login } }),
          created_by: 'test',
          updated_by: 'test',
        })
        .execute();
    await insert('index.case');
    await expect(insert('INDEX.Case')).rejects.toThrow();
  });
});
