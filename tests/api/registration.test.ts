import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { DEFAULT_TIME_ZONE, dayIn } from '../../src/core/identity/declared-checks';
import { startApiServer, type ApiHarness } from '../support/api-server';
import { databaseKinds } from '../support/databases';
import { daysAfter, instantAt } from '../support/clock';
import { messagesAbout } from '../support/inbox';

/**
 * Self-registration: the user type and identity type catalogues decide what may self-register
 * and which fields are mandatory or prohibited; the confirmation code must be given; the
 * password must satisfy the group's policy. Any failure stores nothing. A returned
 * registration comes back through the one-time link of its notice (docs/identity.md).
 */
describe.each(databaseKinds())('self-registration on %s', (kind) => {
  let api: ApiHarness;
  beforeAll(async () => {
    api = await startApiServer(kind);
  });
  afterAll(async () => api?.close());

  const PASSWORD = 'Frangipani-Bloom-2047!';
  const details = (login: string, mobile: string, extra: Record<string, unknown> = {}) => ({
    identity: {
      loginIdentifier: login,
      firstName: 'Losa',
      lastName: 'Fono',
      identityType: 'PASSPORT',
      identityNo: 'PA123456',
      dateOfIssuance: '2020-01-01',
      dateOfExpiry: '2030-01-01',
    },
    contact: { emailAddress: `${login}@example.org`, primaryMobileNo: mobile },
    organisation: { userType: 'INDIVIDUAL' },
    ...extra,
  });
  /** Asks for a code and reads it from the outbox, as the person would read their SMS. */
  const codeFor = async (mobile: string) => {
    const sent = await api.call('POST', '/api/challenge', {
      body: { channel: 'mobile', destination: mobile, purpose: 'registration' },
    });
    expect(sent.statusCode, sent.body).toBe(201);
    const rows = await api.tables
      .selectFrom('outbox')
      .select(['recipient', 'body'])
      .where('channel', '=', 'sms')
      .orderBy('created_at', 'desc')
      .execute();
    const body = rows.find((r) => r.recipient === mobile.replace(/\s/g, ''))?.body ?? '';
    return {
      challengeId: sent.json().challengeId as string,
      code: /\b(\d{6})\b/.exec(body)?.[1] ?? '',
    };
  };
  const register = (body: unknown, token?: string) =>
    api.call('POST', '/api/connectid/registration', { body, token });
  const accounts = async () =>
    Number(
      (
        await api.tables
          .selectFrom('document')
          .select((eb) => eb.fn.countAll<string>().as('n'))
          .where('type', '=', 'account')
          .executeTakeFirstOrThrow()
      ).n,
    );

  it('offers the types that may self-register, to anyone', async () => {
    const options = (await api.call('GET', '/api/connectid/registration/options')).json();
    expect(options.userTypes.map((t: { code: string }) => t.code)).toEqual([
      'AGENT',
      'INDIVIDUAL',
      'ORGANISATION',
    ]);
    expect(options.identityTypes.map((t: { code: string }) => t.code)).toEqual([
      'NATIONAL_ID',
      'PASSPORT',
    ]);
  });

  it("states each type's password rules and, outside production, where the codes can be read", async () => {
    const options = (await api.call('GET', '/api/connectid/registration/options')).json();
    const individual = options.userTypes.find((t: { code: string }) => t.code === 'INDIVIDUAL');
    expect(individual.passwordRules).toMatchObject({ minimumLength: expect.any(Number) });
    expect(individual.passwordRules).not.toHaveProperty('code');
    expect(options.developerOutbox).toBe('/#/dev/outbox');
  });

  it('shows the code texted to a person registering on the developer outbox to its role only, and registers with it', async () => {
    const typed = '+685 700-0009';
    const sent = await api.call('POST', '/api/challenge', {
      body: { channel: 'mobile', destination: typed, purpose: 'registration' },
    });
    expect(sent.statusCode, sent.body).toBe(201);
    // Not to the person registering: the outbox holds everyone's codes.
    const url = `/api/outbox?recipient=${encodeURIComponent(typed)}`;
    expect((await api.call('GET', url)).statusCode).toBe(401);
    // The developer outbox page's request, by an identity administrator, the number as typed.
    const outbox = await api.call('GET', url, { token: await api.tokenFor(['outbox-read']) });
    expect(outbox.statusCode, outbox.body).toBe(200);
    const items = outbox.json().items as Array<{
      channel: string;
      recipient: string;
      body: string;
    }>;
    expect(items).toHaveLength(1);
    expect(items[0]).toMatchObject({ channel: 'sms', recipient: '+6857000009' });
    const code = /\b(\d{6})\b/.exec(items[0]!.body)?.[1];
    expect(code).toMatch(/^\d{6}$/);
    const created = await register({
      challengeId: sent.json().challengeId,
      code,
      password: PASSWORD,
      data: details('sina.outbox', typed),
    });
    expect(created.statusCode, created.body).toBe(201);
  });

  it('refuses a registration confirmed through a channel that is switched off', async () => {
    const mobile = '+685 7000077';
    const { challengeId, code } = await codeFor(mobile);
    const refused = await api.call('POST', '/api/connectid/registration', {
      body: {
        challengeId,
        code,
        channel: 'agent',
        password: PASSWORD,
        data: details('off.agent', mobile),
      },
      headers: { locale: 'fr' },
    });
    expect(refused.statusCode).toBe(400);
    expect(refused.json().error).toMatchObject({ code: 'CHALLENGE_CHANNEL_OFF' });
    expect(refused.json().error.message).toBe(
      'Les codes de confirmation ne peuvent pas être envoyés de cette façon',
    );
  });

  it('registers with the code, leaving the account REGISTERED in the pending list', async () => {
    const mobile = '+685 7000001';
    const { challengeId, code } = await codeFor(mobile);
    const created = await register({
      challengeId,
      code,
      password: PASSWORD,
      data: details('losa.fono', mobile),
    });
    expect(created.statusCode, created.body).toBe(201);
    expect(created.json().status).toBe('REGISTERED');
    const reviewer = await api.tokenFor(['connectid-account-search', 'connectid-account-review']);
    const pending = await api.call('PATCH', '/api/connectid/account', {
      token: reviewer,
      body: { list: 'pending' },
    });
    expect(pending.json().items.map((i: { id: string }) => i.id)).toContain(created.json().id);
    // The code is used up.
    const again = await register({
      challengeId,
      code,
      password: PASSWORD,
      data: details('losa.fono2', mobile),
    });
    expect(again.statusCode).toBe(400);
  });

  it('refuses, storing nothing: missing code, wrong code, prohibited or missing fields, a type that may not self-register, a weak password, a signed-in caller', async () => {
    const before = await accounts();
    const mobile = '+685 7000002';
    const { challengeId, code } = await codeFor(mobile);
    const fieldsOf = (r: {
      json(): { error: { fields: Array<{ path: string; rule: string; message: string }> } };
    }) => r.json().error.fields;

    const noCode = await register({ password: PASSWORD, data: details('tui.one', mobile) });
    expect(fieldsOf(noCode)).toContainEqual({
      path: '/code',
      rule: 'confirmationCodeMissing',
      message: 'Please enter the confirmation code',
    });
    const wrong = await register({
      challengeId,
      code: code === '111111' ? '222222' : '111111',
      password: PASSWORD,
      data: details('tui.one', mobile),
    });
    expect(fieldsOf(wrong)).toContainEqual(
      expect.objectContaining({ path: '/code', rule: 'confirmationCode' }),
    );

    const prohibited = await register({
      challengeId,
      code,
      password: PASSWORD,
      data: details('tui.one', mobile, {
        organisation: { userType: 'INDIVIDUAL', badgeNo: 'B-1' },
      }),
    });
    expect(fieldsOf(prohibited)).toContainEqual(
      expect.objectContaining({ path: '/data/organisation/badgeNo', rule: 'prohibited' }),
    );
    const agent = await register({
      challengeId,
      code,
      password: PASSWORD,
      data: details('tui.one', mobile, { organisation: { userType: 'AGENT' } }),
    });
    expect(fieldsOf(agent)).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ path: '/data/organisation/agentNo', rule: 'required' }),
        expect.objectContaining({ path: '/data/addresses', rule: 'required' }),
      ]),
    );
    const officer = await register({
      challengeId,
      code,
      password: PASSWORD,
      data: details('tui.one', mobile, { organisation: { userType: 'OFFICER' } }),
    });
    expect(fieldsOf(officer)).toContainEqual(
      expect.objectContaining({
        path: '/data/organisation/userType',
        rule: 'selfRegistrationNotAllowed',
      }),
    );
    const noDates = details('tui.one', mobile);
    noDates.identity = { ...noDates.identity, dateOfExpiry: undefined as unknown as string };
    const missing = await register({ challengeId, code, password: PASSWORD, data: noDates });
    expect(fieldsOf(missing)).toContainEqual(
      expect.objectContaining({ path: '/data/identity/dateOfExpiry', rule: 'required' }),
    );
    const weak = await register({
      challengeId,
      code,
      password: 'tui.one',
      data: details('tui.one', mobile),
    });
    expect(fieldsOf(weak).map((f) => f.path)).toContain('/password');

    const signedIn = await register(
      { challengeId, code, password: PASSWORD, data: details('tui.one', mobile) },
      await api.tokenFor(['view-profile']),
    );
    expect(signedIn.statusCode).toBe(403);
    expect(await accounts()).toBe(before);
    // The code was never used up by the refusals: the person can still register.
    const ok = await register({
      challengeId,
      code,
      password: PASSWORD,
      data: details('tui.one', mobile),
    });
    expect(ok.statusCode, ok.body).toBe(201);
  });

  it("verifies the identity document's dates: an expired passport or one issued in the future is refused, storing nothing; a valid one passes", async () => {
    const before = await accounts();
    const mobile = '+685 7000031';
    const { challengeId, code } = await codeFor(mobile);
    // Days as the portal counts them: in its time zone.
    const day = (offset: number) => daysAfter(dayIn(DEFAULT_TIME_ZONE, new Date()), offset);
    const withDates = (dates: Record<string, string>) => {
      const data = details('sina.ioane', mobile);
      data.identity = { ...data.identity, ...dates };
      return data;
    };
    const fieldsOf = (response: { json: () => unknown }) =>
      (
        response.json() as {
          error: { fields: Array<{ path: string; rule: string; message: string }> };
        }
      ).error.fields;

    const expired = await register({
      challengeId,
      code,
      password: PASSWORD,
      data: withDates({ dateOfExpiry: day(-1) }),
    });
    expect(expired.statusCode).toBe(400);
    expect(fieldsOf(expired)).toContainEqual({
      path: '/data/identity/dateOfExpiry',
      rule: 'identityExpired',
      message: 'The document has expired (date of expiry in the past)',
    });
    // In French, as the request asks.
    const expiredFr = await api.call('POST', '/api/connectid/registration', {
      body: { challengeId, code, password: PASSWORD, data: withDates({ dateOfExpiry: day(-1) }) },
      headers: { 'accept-language': 'fr' },
    });
    expect(fieldsOf(expiredFr)).toContainEqual(
      expect.objectContaining({
        path: '/data/identity/dateOfExpiry',
        message: "Le document a expiré (date d'expiration passée)",
      }),
    );
    const issuedLater = await register({
      challengeId,
      code,
      password: PASSWORD,
      data: withDates({ dateOfIssuance: day(2) }),
    });
    expect(fieldsOf(issuedLater)).toContainEqual(
      expect.objectContaining({
        path: '/data/identity/dateOfIssuance',
        rule: 'identityIssuedInFuture',
        message: 'Date of issue must not be in the future',
      }),
    );
    expect(await accounts()).toBe(before);

    // A passport without its number: refused at the number, in words, nothing stored.
    const { identityNo: _number, ...unnumbered } = withDates({}).identity;
    const numberless = await register({
      challengeId,
      code,
      password: PASSWORD,
      data: { ...withDates({}), identity: unnumbered },
    });
    expect(numberless.statusCode).toBe(400);
    expect(fieldsOf(numberless)).toContainEqual({
      path: '/identity/identityNo',
      rule: 'required',
      message: 'This field is required',
    });
    expect(await accounts()).toBe(before);

    // Issued today and expiring today: still a valid document.
    const valid = await register({
      challengeId,
      code,
      password: PASSWORD,
      data: withDates({ dateOfIssuance: day(0), dateOfExpiry: day(0) }),
    });
    expect(valid.statusCode, valid.body).toBe(201);
    expect(await accounts()).toBe(before + 1);
  });

  it.each([8, 23])(
    "accepts a passport issued today in the portal's time zone at %i:00 there, as the page does",
    async (hour) => {
      // Two days ahead of the real clock: the catalogue entries are valid by then.
      const day = daysAfter(dayIn(DEFAULT_TIME_ZONE, new Date()), 2);
      vi.useFakeTimers({ toFake: ['Date'] });
      try {
        vi.setSystemTime(instantAt(DEFAULT_TIME_ZONE, day, hour));
        const mobile = `+685 70001${hour}`;
        const { challengeId, code } = await codeFor(mobile);
        const data = details(`today.${hour}`, mobile);
        data.identity = { ...data.identity, dateOfIssuance: day, dateOfExpiry: day };
        const created = await register({ challengeId, code, password: PASSWORD, data });
        expect(created.statusCode, created.body).toBe(201);
        // The page is told the zone whose day it checks with.
        const options = (await api.call('GET', '/api/connectid/registration/options')).json();
        expect(options.timeZone).toBe(DEFAULT_TIME_ZONE);
      } finally {
        vi.useRealTimers();
      }
    },
  );

  it('reports a login name already taken as a field problem, storing nothing', async () => {
    const mobile = '+685 7000003';
    const { challengeId, code } = await codeFor(mobile);
    const taken = await register({
      challengeId,
      code,
      password: PASSWORD,
      data: details('applicant', mobile),
    });
    expect(taken.statusCode).toBe(400);
    expect(taken.json().error.fields).toContainEqual(
      expect.objectContaining({ path: '/identity/loginIdentifier', rule: 'unique' }),
    );
  });

  describe('a returned registration', () => {
    const registerAs = async (login: string, mobile: string) => {
      const { challengeId, code } = await codeFor(mobile);
      const created = await register({
        challengeId,
        code,
        password: PASSWORD,
        data: details(login, mobile),
      });
      expect(created.statusCode, created.body).toBe(201);
      return created.json().id as string;
    };
    const reviewerToken = () =>
      api.tokenFor(['connectid-account-search', 'connectid-account-review']);
    const act = async (id: string, action: string, body: Record<string, unknown> = {}) => {
      const token = await reviewerToken();
      const doc = (await api.call('GET', `/api/connectid/account/${id}`, { token })).json();
      return api.call('POST', `/api/connectid/account/${id}/actions/${action}`, {
        token,
        body: { version: doc.version, ...body },
      });
    };
    const listed = async (list: string) =>
      (
        await api.call('PATCH', '/api/connectid/account', {
          token: await reviewerToken(),
          body: { list },
        })
      )
        .json()
        .items.map((i: { id: string }) => i.id) as string[];
    /** The token of the link in the latest notice, as the holder reads it in their e-mail. */
    const linkToken = async (id: string) => {
      const mail = await api.tables
        .selectFrom('outbox')
        .select(['body'])
        .where('document_id', '=', id)
        .where('channel', '=', 'email')
        .orderBy('created_at', 'desc')
        .executeTakeFirst();
      return /#\/register\?correction=([A-Za-z0-9_-]{43})/.exec(mail?.body ?? '')?.[1];
    };
    const open = (token: unknown, bearer?: string) =>
      api.call('POST', '/api/connectid/registration/correction/open', {
        body: { token },
        token: bearer,
      });
    const correct = (token: unknown, data: unknown) =>
      api.call('POST', '/api/connectid/registration/correction', { body: { token, data } });

    it('sends a one-time link with the notes; the holder corrects, it is pending again, and accepted', async () => {
      const id = await registerAs('tavita.back', '+685 7000011');
      const returned = await act(id, 'return', { notes: 'Your first name is misspelt' });
      expect(returned.statusCode, returned.body).toBe(200);
      const token = await linkToken(id);
      expect(token).toBeDefined();
      const notice = (await messagesAbout(api.server.database.db, id)).at(-1)!;
      expect(notice.body).toContain('Your first name is misspelt');
      expect(notice.body).toContain(`/#/register?correction=${token}`);
      // The same link goes by SMS to the mobile number the code confirmed: one message, to
      // one spelling of the number, and not the inbox's link, behind a sign-in the holder
      // does not have (the notice's SMS and the link's were two, to "+685 7000011" and
      // "+6857000011").
      const sms = await api.tables
        .selectFrom('outbox')
        .select(['recipient', 'body'])
        .where('channel', '=', 'sms')
        .where((eb) =>
          eb.or([
            eb('recipient', 'in', ['+685 7000011', '+6857000011']),
            eb('document_id', '=', id),
          ]),
        )
        .where('body', 'not like', '%confirmation code%')
        .execute();
      expect(sms).toEqual([
        {
          recipient: '+6857000011',
          body: expect.stringContaining(`/#/register?correction=${token}`),
        },
      ]);
      expect(sms[0]!.body).not.toContain('/inbox/');
      // Only the hash of the token is stored.
      const stored = await api.server.database.db
        .selectFrom('oidc_payload')
        .select(['id', 'uid'])
        .where('model', '=', 'RegistrationCorrection')
        .where('uid', '=', id)
        .execute();
      expect(stored).toHaveLength(1);
      expect(stored[0]!.id).not.toContain(token!);

      // A wrong token, or a signed-in caller, opens nothing.
      expect((await open('x'.repeat(43))).statusCode).toBe(404);
      expect((await open(token, await reviewerToken())).statusCode).toBe(403);
      const opened = await open(token);
      expect(opened.statusCode, opened.body).toBe(200);
      expect(opened.json()).toMatchObject({
        login: 'tavita.back',
        notes: 'Your first name is misspelt',
        data: { identity: { firstName: 'Losa' }, contact: { primaryMobileNo: '+685 7000011' } },
      });
      // The sections the holder's profile edit hides are not shown.
      expect(opened.json().data).not.toHaveProperty('access');

      const data = opened.json().data;
      // The mobile number (confirmed by its code) and the login stay.
      const moved = await correct(token, {
        ...data,
        contact: { ...data.contact, primaryMobileNo: '+685 7999999' },
      });
      expect(moved.statusCode).toBe(400);
      expect(moved.json().error.fields).toContainEqual(
        expect.objectContaining({ path: '/data/contact/primaryMobileNo', rule: 'readOnly' }),
      );
      const renamed = await correct(token, {
        ...data,
        identity: { ...data.identity, loginIdentifier: 'someone.else' },
      });
      expect(renamed.statusCode).toBe(400);
      // The type's checks apply as at registration: an individual gives no agency.
      const agency = await correct(token, {
        ...data,
        organisation: { ...data.organisation, agencyNo: 'AG001' },
      });
      expect(agency.statusCode).toBe(400);
      expect(agency.json().error.fields).toContainEqual(
        expect.objectContaining({ path: '/data/organisation/agencyNo', rule: 'prohibited' }),
      );

      const corrected = await correct(token, {
        ...data,
        identity: { ...data.identity, firstName: 'Tavita' },
        // Sections the holder may not write are ignored.
        access: { userGroup: 'ADMINISTRATORS', accessUnits: ['ADMIN'] },
      });
      expect(corrected.statusCode, corrected.body).toBe(200);
      expect(corrected.json()).toEqual({ id, status: 'MODIFIED' });
      expect(await listed('pending')).toContain(id);
      // Used once.
      expect((await open(token)).statusCode).toBe(404);
      expect((await correct(token, data)).statusCode).toBe(404);

      const reviewer = await reviewerToken();
      const doc = (
        await api.call('GET', `/api/connectid/account/${id}`, { token: reviewer })
      ).json();
      expect(doc.data.identity.firstName).toBe('Tavita');
      expect(doc.data.access).toEqual({ userGroup: 'PUBLIC', accessUnits: [] });
      const history = (
        await api.call('GET', `/api/connectid/account/${id}/history`, { token: reviewer })
      ).json() as Array<{ operation: string; name: string }>;
      // The correction is the holder's own (named as they were when they made it).
      expect(history.at(-1)).toMatchObject({
        operation: 'RETURNED -> MODIFIED',
        name: 'Losa Fono',
      });

      const accepted = await act(id, 'accept', {
        data: { access: { userGroup: 'PUBLIC', accessUnits: [] } },
      });
      expect(accepted.statusCode, accepted.body).toBe(200);
      expect(accepted.json()).toMatchObject({
        status: 'ACCEPTED',
        data: { access: { activationStatus: 'active' } },
      });
    });

    it('replaces an earlier link, and lets the reviewer accept or reject a returned account', async () => {
      const id = await registerAs('sefo.twice', '+685 7000012');
      expect((await act(id, 'return', { notes: 'First' })).statusCode).toBe(200);
      const first = await linkToken(id);
      expect((await open(first)).statusCode).toBe(200);
      // Accepting directly (the holder answered another way) closes the link.
      const accepted = await act(id, 'accept', {
        data: { access: { userGroup: 'PUBLIC', accessUnits: [] } },
      });
      expect(accepted.statusCode, accepted.body).toBe(200);
      expect((await open(first)).statusCode).toBe(404);
      const left = await api.server.database.db
        .selectFrom('oidc_payload')
        .select('id')
        .where('model', '=', 'RegistrationCorrection')
        .where('uid', '=', id)
        .execute();
      expect(left).toEqual([]);

      const other = await registerAs('sefo.again', '+685 7000013');
      expect((await act(other, 'return', { notes: 'First' })).statusCode).toBe(200);
      const old = await linkToken(other);
      expect((await act(other, 'reject', { notes: 'Never answered' })).statusCode).toBe(200);
      expect((await open(old)).statusCode).toBe(404);
      expect(await listed('rejected')).toContain(other);
    });

    it('gives no link when a signed-in holder’s profile edit is returned: they correct it signed in', async () => {
      const id = await registerAs('malia.edit', '+685 7000014');
      expect(
        (await act(id, 'accept', { data: { access: { userGroup: 'PUBLIC', accessUnits: [] } } }))
          .statusCode,
      ).toBe(200);
      const owner = await api.issuer.token({ sub: id, groups: ['connectid-account-read'] });
      const mine = (await api.call('GET', `/api/connectid/account/${id}`, { token: owner })).json();
      const edited = await api.call('POST', `/api/connectid/account/${id}/actions/modify-profile`, {
        token: owner,
        body: {
          version: mine.version,
          data: { ...mine.data, identity: { ...mine.data.identity, firstName: 'Malia' } },
        },
      });
      expect(edited.statusCode, edited.body).toBe(200);
      expect((await act(id, 'return', { notes: 'Why?' })).statusCode).toBe(200);
      expect(await linkToken(id)).toBeUndefined();
    });
  });
});
