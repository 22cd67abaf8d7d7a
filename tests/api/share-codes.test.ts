import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApiServer, type ApiHarness } from '../support/api-server';
import { databaseKinds } from '../support/databases';
import { payOnGateway } from '../support/gateway';
import { act, paidVisa, VISA_APPLICANT_ROLES, visaOfficers } from '../support/granted-visa';
import { messagesAbout } from '../support/inbox';
import { multipartFile } from '../support/multipart';
import { applicationsThrough } from '../support/personas';
import { visaApplication } from '../support/visa-data';

/**
 * Share codes and the check log (docs/status-sharing.md): the holder of a granted visa makes a
 * code for a purpose; an employer checks it with the holder's date of birth and sees what the
 * purpose shows; anything else is one 404; every check (by code, number, QR) is in the holder's
 * log and tells them; guessing is stopped by the limits and never touches the holder's code.
 */
const TYPE = 'visa-application';
const BASE = `/api/evisa/${TYPE}`;
const CHECK = '/api/evisa/share-check';
const VERIFY = '/api/evisa/verification';
// The smallest PNG: a 1x1 transparent pixel.
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==',
  'base64',
);
const CONDITIONS = [{ code: 'C1', description: 'Must not work more than 20 hours a week' }];
const NOT_VERIFIED = {
  error: {
    status: 404,
    code: 'SHARE_CODE_NOT_VERIFIED',
    message: 'No valid status matches this code and these details. Check both and try again.',
  },
};

type View = {
  id: string;
  version: number;
  status: string;
  number: string | null;
  data: Record<string, unknown> & {
    applicant?: { birthDate?: string; passportNumber?: string };
  };
};

describe.each(databaseKinds())('share codes and the check log on %s', (kind) => {
  let api: ApiHarness;
  let holder: string;
  let other: string;
  let officer: string;
  let validator: string;
  let visa: View;
  let stored: View;
  let now = new Date();
  let client = 0;
  /** Each check from its own address unless a test says: the address limit is tested apart. */
  const from = () => `203.0.${113 + Math.floor(++client / 250)}.${client % 250}`;

  beforeAll(async () => {
    api = await startApiServer(kind, {}, undefined, undefined, { clock: () => now });
    holder = await api.tokenFor(VISA_APPLICANT_ROLES, {
      sub: 'applicant-sharing',
      name: 'Ana Tui',
      email: 'ana.sharing@example.org',
    });
    other = await api.tokenFor(VISA_APPLICANT_ROLES, { sub: 'applicant-other', name: 'Other One' });
    ({ verifier: officer, validator } = await visaOfficers(api));
    visa = await issuedVisa();
    stored = await ok('POST', BASE, holder, { data: visaApplication('WRK', 'WV1Y') });
  });
  afterAll(async () => {
    await api?.close();
  });

  const call = (
    method: 'GET' | 'POST',
    url: string,
    token?: string,
    body?: unknown,
    headers: Record<string, string> = {},
  ) => api.call(method, url, { ...(token ? { token } : {}), body, headers });
  const ok = async (method: 'GET' | 'POST', url: string, token: string, body?: unknown) => {
    const response = await call(method, url, token, body);
    expect(response.statusCode, response.body).toBeLessThan(300);
    return response.json() as View;
  };
  const upload = async (name: string, type: string, content: Buffer) => {
    const { body, contentType } = multipartFile(name, type, content);
    const response = await api.app.inject({
      method: 'POST',
      url: '/api/media',
      headers: { authorization: `Bearer ${holder}`, 'content-type': contentType },
      payload: body,
    });
    expect(response.statusCode, response.body).toBe(201);
    return response.json() as Record<string, unknown>;
  };

  /** A work visa of the holder, paid, granted with conditions and issued; its photo a PNG. */
  async function issuedVisa(): Promise<View> {
    const steps = applicationsThrough(api);
    const photo = await upload('photo.png', 'image/png', PNG);
    const paid = await paidVisa<View>(
      steps,
      holder,
      visaApplication('WRK', 'WV1Y'),
      (id) => payOnGateway(api, TYPE, id, holder, 'Ana Tui'),
      photo,
    );
    const granted = await act<View>(steps, officer, paid, 'grant', {
      personDecisions: [{ outcome: 'GRANTED', conditions: CONDITIONS }],
    });
    expect(granted.status).toBe('GRANTED');
    return act<View>(steps, validator, granted, 'issue', {
      issuance: { effectiveDate: '2020-01-01', expiryDate: '2099-01-31', placeOfIssue: 'Apia' },
      conditions: { selected: CONDITIONS, additional: 'Employer: Apia Builders' },
    });
  }

  const makeCode = async (purpose: string, days?: number) => {
    const response = await call('POST', `${BASE}/${visa.id}/share-codes`, holder, {
      purpose,
      ...(days === undefined ? {} : { days }),
    });
    expect(response.statusCode, response.body).toBe(201);
    return response.json() as { id: string; code: string; state: string; expiresAt: string };
  };
  const check = (code: string, holderFactor: string, ip = from(), query = '') =>
    call('POST', `${CHECK}${query}`, undefined, { code, holderFactor }, { 'x-forwarded-for': ip });
  const birthDate = () => visa.data.applicant!.birthDate!;
  /** The code's row as stored: its hash, expiry, revocation and lock. */
  const storedCode = async (id: string) =>
    (await api.tables.selectFrom('share_code').selectAll().where('id', '=', id).execute())[0];

  it('lets the holder alone make a code, shown once, grouped, from the alphabet', async () => {
    expect(visa.status).toBe('ISSUED');
    const made = await makeCode('work', 30);
    expect(made.code).toMatch(/^[2-9A-HJKMNP-Z]{3} [2-9A-HJKMNP-Z]{3} [2-9A-HJKMNP-Z]{3}$/);
    expect(made.state).toBe('active');
    expect(new Date(made.expiresAt).getTime() - now.getTime()).toBe(30 * 86_400_000);

    const list = await call('GET', `${BASE}/${visa.id}/share-codes`, holder);
    expect(list.statusCode).toBe(200);
    const listed = list.json();
    expect(listed).toMatchObject({ defaultDays: 90, maxDays: 365, mayCreate: true });
    expect(listed.purposes.map((p: { id: string }) => p.id)).toEqual([
      'work',
      'rent',
      'study',
      'carrier',
      'other',
    ]);
    expect(listed.items).toContainEqual(
      expect.objectContaining({ id: made.id, purpose: 'work', state: 'active', checks: 0 }),
    );
    // Shown once: the list never holds the code, the database only its hash.
    expect(list.body).not.toContain(made.code.replaceAll(' ', ''));
    const rows = await api.tables.selectFrom('share_code').selectAll().execute();
    expect(JSON.stringify(rows)).not.toContain(made.code.replaceAll(' ', ''));

    // Another applicant does not see the document; an officer who sees it is not its holder.
    for (const method of ['GET', 'POST'] as const) {
      const theirs = await call(method, `${BASE}/${visa.id}/share-codes`, other, {
        purpose: 'work',
      });
      expect(theirs.statusCode).toBe(404);
    }
    const officers = await call('GET', `${BASE}/${visa.id}/share-codes`, officer);
    expect(officers.statusCode).toBe(403);
    const log = await call('GET', `${BASE}/${visa.id}/status-checks`, other);
    expect(log.statusCode).toBe(404);
  });

  it('refuses an unknown purpose, days out of range, and a document not granted', async () => {
    const url = `${BASE}/${visa.id}/share-codes`;
    const unknown = await call('POST', url, holder, { purpose: 'party' });
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json().error.fields).toEqual([
      expect.objectContaining({ path: '/purpose', rule: 'enum' }),
    ]);
    for (const days of [0, 366, 1.5]) {
      const wrong = await call('POST', url, holder, { purpose: 'work', days });
      expect(wrong.statusCode, String(days)).toBe(400);
      expect(wrong.json().error.fields[0].path).toBe('/days');
    }
    const closed = await call('POST', `${BASE}/${stored.id}/share-codes`, holder, {
      purpose: 'work',
    });
    expect(closed.statusCode).toBe(409);
    expect(closed.json().error.code).toBe('SHARE_CODES_CLOSED');
  });

  it('shows the purpose’s fields to a checker with the code and the date of birth', async () => {
    const made = await makeCode('work');
    const [year, month, day] = birthDate().split('-');
    // Any case, spaces or dashes; the date as DD/MM/YYYY.
    const typed = made.code.toLowerCase().replaceAll(' ', '-');
    const response = await check(typed, `${day}/${month}/${year}`);
    expect(response.statusCode, response.body).toBe(200);
    const answer = response.json();
    expect(answer).toMatchObject({
      purpose: 'work',
      purposeLabel: 'Work',
      documentType: TYPE,
      documentTitle: 'Electronic visa',
      language: 'en',
      validity: 'inForce',
      validFrom: '2020-01-01',
      validUntil: '2099-01-31',
    });
    expect(answer.reference).toMatch(/^CHK-[2-9A-HJKMNP-Z]{10}$/);
    expect(answer.name).toBe(
      `${(visa.data.applicant as { givenName: string }).givenName} ${(visa.data.applicant as { familyName: string }).familyName}`,
    );
    expect(answer.photo).toBe(`data:image/png;base64,${PNG.toString('base64')}`);
    expect(answer.fields).toContainEqual({
      label: 'Conditions',
      value: 'Must not work more than 20 hours a week',
    });
    expect(answer.fields).toContainEqual({
      label: 'Other conditions',
      value: 'Employer: Apia Builders',
    });
    expect(response.body).not.toContain(visa.data.applicant!.passportNumber!);

    const french = await check(made.code, birthDate(), from(), '?lang=fr');
    expect(french.json()).toMatchObject({ language: 'fr', purposeLabel: 'Travail' });
    expect(french.json().fields).toContainEqual(expect.objectContaining({ label: 'Conditions' }));

    // A renter's code shows no conditions.
    const rent = await makeCode('rent');
    const rented = await check(rent.code, birthDate());
    expect(rented.json()).toMatchObject({ purpose: 'rent', fields: [] });

    // A carrier reads the nationality as the e-visa words it: the country's name, not its code.
    const carrier = await makeCode('carrier');
    const carried = await check(carrier.code, birthDate());
    expect(carried.json().fields).toContainEqual({ label: 'Nationality', value: 'Samoa' });
  });

  it('answers a wrong date, an unknown code, an expired and a revoked code with one 404', async () => {
    const live = await makeCode('carrier', 10);
    const expiring = await makeCode('study', 1);
    const revoked = await makeCode('other');
    const revoke = await call(
      'POST',
      `${BASE}/${visa.id}/share-codes/${revoked.id}/revoke`,
      holder,
      {},
    );
    expect(revoke.statusCode).toBe(200);
    expect(revoke.json()).toMatchObject({ id: revoked.id, state: 'revoked' });
    const before = now;
    now = new Date(before.getTime() + 2 * 86_400_000);
    try {
      const answers = await Promise.all([
        check(live.code, '1901-01-01'),
        check('ABC 234 XYZ', birthDate()),
        check('not a code', birthDate()),
        check(expiring.code, birthDate()),
        check(revoked.code, birthDate()),
      ]);
      for (const answer of answers) {
        expect(answer.statusCode).toBe(404);
        expect(answer.json()).toEqual(NOT_VERIFIED);
      }
      // The live code still answers its holder's date; the others stay refused.
      expect((await check(live.code, birthDate())).statusCode).toBe(200);
      expect((await check(revoked.code, birthDate())).statusCode).toBe(404);
      const listed = (await call('GET', `${BASE}/${visa.id}/share-codes`, holder)).json();
      const states = Object.fromEntries(
        listed.items.map((c: { id: string; state: string }) => [c.id, c.state]),
      );
      expect(states).toMatchObject({
        [live.id]: 'active',
        [expiring.id]: 'expired',
        [revoked.id]: 'revoked',
      });
    } finally {
      now = before;
    }
    const missing = await check('', '');
    expect(missing.statusCode).toBe(400);
  });

  it('logs every check by code, number and QR for the holder, and tells the holder', async () => {
    // Later than any check before (the log is newest first).
    const before = now;
    now = new Date(before.getTime() + 7 * 86_400_000);
    const made = await makeCode('work');
    const noticesBefore = (await messagesAbout(api.server.database.db, visa.id)).length;
    expect((await check(made.code, birthDate(), '203.0.113.77')).statusCode).toBe(200);
    expect((await check(made.code, '1900-02-02', '2001:db8:abcd:12::1')).statusCode).toBe(404);
    const number = { number: visa.number, secondFactor: visa.data.applicant!.passportNumber };
    const byNumber = await call('POST', VERIFY, undefined, number, {
      'x-forwarded-for': '198.51.100.9',
    });
    expect(byNumber.statusCode, byNumber.body).toBe(200);
    const byQr = await call(
      'POST',
      VERIFY,
      undefined,
      { ...number, via: 'qr' },
      {
        'x-forwarded-for': '10.1.2.3',
      },
    );
    expect(byQr.statusCode).toBe(200);

    const log = await call('GET', `${BASE}/${visa.id}/status-checks`, holder);
    expect(log.statusCode).toBe(200);
    const items = log.json().items as Array<Record<string, unknown>>;
    expect(items.slice(0, 4)).toEqual([
      expect.objectContaining({
        method: 'qr',
        purpose: null,
        addressClass: 'local',
        result: 'shown',
      }),
      expect.objectContaining({
        method: 'number',
        purpose: null,
        addressClass: '198.51.100.0/24',
        result: 'shown',
      }),
      expect.objectContaining({
        method: 'shareCode',
        purpose: 'work',
        addressClass: '2001:db8:abcd::/48',
        result: 'refused',
      }),
      expect.objectContaining({
        method: 'shareCode',
        purpose: 'work',
        addressClass: '203.0.113.0/24',
        result: 'shown',
      }),
    ]);
    for (const item of items) expect(item.reference).toMatch(/^CHK-[2-9A-HJKMNP-Z]{10}$/);
    const listed = (await call('GET', `${BASE}/${visa.id}/share-codes`, holder)).json();
    expect(listed.items.find((c: { id: string }) => c.id === made.id).checks).toBe(2);

    // One notice per check that showed the document: the code's, the number's, the QR's.
    const notices = await messagesAbout(api.server.database.db, visa.id);
    const added = notices.slice(noticesBefore);
    expect(added).toHaveLength(3);
    expect(added[0]!.subject).toBe(`A check of your Visa application ${visa.number}`);
    expect(added[0]!.body).toContain('with a share code for: Work');
    expect(added[0]!.body).toContain(items[3]!.reference as string);
    expect(added[2]!.body).toContain('by its QR code');
    for (const notice of added) expect(notice.owner).toBe('applicant-sharing');
    now = before;
  });

  it('locks a code after too many wrong dates, for a while, without changing it', async () => {
    const made = await makeCode('work');
    const row = await storedCode(made.id);
    for (let i = 0; i < 5; i++)
      expect((await check(made.code, `1950-01-0${i + 1}`)).statusCode).toBe(404);
    // Locked: even the right date is the same 404.
    const locked = await check(made.code, birthDate());
    expect(locked.json()).toEqual(NOT_VERIFIED);
    const before = now;
    now = new Date(before.getTime() + 16 * 60_000);
    try {
      expect((await check(made.code, birthDate())).statusCode).toBe(200);
    } finally {
      now = before;
    }
    const after = await storedCode(made.id);
    expect(after).toMatchObject({
      code_hash: row!.code_hash,
      expires_at: row!.expires_at,
      revoked_at: null,
    });
  });

  it('stops 10,000 guesses from many addresses with 429, the holder’s code untouched', async () => {
    const made = await makeCode('work');
    const row = await storedCode(made.id);
    const alphabet = '23456789ABCDEFGHJKMNPQRSTUVWXYZ';
    const guess = (i: number) =>
      Array.from({ length: 9 }, (_, k) => alphabet[(i * 7 + k * 13 + k * i) % 31]).join('');
    const addresses = Array.from({ length: 20 }, (_, i) => `192.0.2.${i + 1}`);
    const statuses = new Map<number, number>();
    const tries = 10_000;
    const batch = 200;
    for (let start = 0; start < tries; start += batch) {
      const answers = await Promise.all(
        Array.from({ length: Math.min(batch, tries - start) }, (_, k) => {
          const i = start + k;
          return check(guess(i), birthDate(), addresses[i % addresses.length]);
        }),
      );
      for (const answer of answers)
        statuses.set(answer.statusCode, (statuses.get(answer.statusCode) ?? 0) + 1);
    }
    // None found anything; past its ten a minute each address is refused before any lookup.
    expect(statuses.get(200) ?? 0).toBe(0);
    expect(statuses.get(404) ?? 0).toBeLessThanOrEqual(addresses.length * 10 * 2);
    expect(statuses.get(429)).toBeGreaterThanOrEqual(tries - addresses.length * 10 * 2);
    const limited = await check(guess(1), birthDate(), addresses[0]);
    expect(limited.statusCode).toBe(429);
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);

    // The holder's code still works from another address, and is as it was.
    const real = await check(made.code, birthDate(), '198.51.100.200');
    expect(real.statusCode).toBe(200);
    const after = await storedCode(made.id);
    expect(after).toMatchObject({
      code_hash: row!.code_hash,
      expires_at: row!.expires_at,
      revoked_at: null,
      failed_checks: 0,
      locked_until: null,
    });
  }, 120_000);
});
