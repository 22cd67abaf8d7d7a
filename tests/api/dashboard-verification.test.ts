import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApiServer, type ApiHarness } from '../support/api-server';
import { databaseKinds } from '../support/databases';
import { definitionsWithFixtures } from '../support/definitions-dir';
import { createVerifiableDocument, personas, sendThrough, VERIFIABLE } from '../support/documents';

const VERIFY = '/api/evisa/verification';

describe.each(databaseKinds())('public electronic-document check on %s', (kind) => {
  let api: ApiHarness;
  let removeDefinitions: () => Promise<void>;
  let granted: Awaited<ReturnType<typeof createVerifiableDocument>>;
  let expired: Awaited<ReturnType<typeof createVerifiableDocument>>;
  let pending: Awaited<ReturnType<typeof createVerifiableDocument>>;
  let future: Awaited<ReturnType<typeof createVerifiableDocument>>;
  let client = 0;

  /** Each test checks from its own address, so the rate limit of one does not touch another. */
  const from = () => `198.51.100.${++client}`;
  const verify = (body: unknown, ip: string, headers: Record<string, string> = {}) =>
    api.call('POST', VERIFY, { body, headers: { 'x-forwarded-for': ip, ...headers } });

  beforeAll(async () => {
    const definitions = await definitionsWithFixtures();
    removeDefinitions = definitions.remove;
    api = await startApiServer(kind, { definitionsDir: definitions.dir });
    const who = await personas(api);
    const send = sendThrough(api);
    const tokens = { owner: who.owner, officer: who.officer };
    granted = await createVerifiableDocument(send, tokens);
    const year = new Date().getUTCFullYear();
    expired = await createVerifiableDocument(send, tokens, {
      passportNumber: 'EX7654321',
      validFrom: `${year - 3}-01-01`,
      validUntil: `${year - 2}-12-31`,
    });
    pending = await createVerifiableDocument(send, tokens, {
      passportNumber: 'PE1111111',
      grant: false,
    });
    future = await createVerifiableDocument(send, tokens, {
      passportNumber: 'FU2222222',
      validFrom: `${year + 1}-12-01`,
      validUntil: `${year + 2}-11-30`,
    });
  });
  afterAll(async () => {
    await api?.close();
    await removeDefinitions?.();
  });

  it('verifies a granted document by its number and passport number, telling nothing personal', async () => {
    const response = await verify(
      { number: granted.number, secondFactor: granted.passportNumber },
      from(),
    );
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json()).toEqual({
      number: granted.number,
      documentType: 'test-document',
      validFrom: VERIFIABLE.validFrom,
      validUntil: VERIFIABLE.validUntil,
      validity: 'inForce',
      valid: true,
    });
    expect(response.body).not.toContain(granted.passportNumber);
    expect(response.body).not.toContain('Ana');
  });

  it('normalises what the caller types: case, spaces, and the date of birth as DD/MM/YYYY', async () => {
    const ip = from();
    const [year, month, day] = granted.dateOfBirth.split('-');
    for (const secondFactor of [
      ` ${granted.passportNumber.toLowerCase().replace('123', '1 23')} `,
      granted.dateOfBirth,
      `${day}/${month}/${year}`,
      `${Number(day)}/${Number(month)}/${year}`,
    ]) {
      const response = await verify(
        { number: ` ${granted.number.toLowerCase()} `, secondFactor },
        ip,
      );
      expect(response.statusCode, secondFactor).toBe(200);
      expect(response.json().valid).toBe(true);
    }
  });

  it('says a granted document past its period has expired, naming no status', async () => {
    const response = await verify(
      { number: expired.number, secondFactor: expired.dateOfBirth },
      from(),
    );
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({ validity: 'expired', valid: false });
    expect(response.json()).not.toHaveProperty('status');
  });

  it('says a granted document before its first day is genuine, not yet in force', async () => {
    const response = await verify(
      { number: future.number, secondFactor: future.passportNumber },
      from(),
    );
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({
      number: future.number,
      documentType: 'test-document',
      validFrom: `${new Date().getUTCFullYear() + 1}-12-01`,
      validUntil: `${new Date().getUTCFullYear() + 2}-11-30`,
      validity: 'notYetInForce',
      valid: false,
    });
  });

  it('answers a wrong factor, an unknown number and a document not issued alike', async () => {
    const ip = from();
    const answers = await Promise.all(
      [
        { number: granted.number, secondFactor: 'XX0000000' },
        { number: granted.number, secondFactor: '05/04/1990' },
        { number: 'TD-1999-99999', secondFactor: granted.passportNumber },
        { number: pending.number, secondFactor: pending.passportNumber },
        { number: granted.number, secondFactor: pending.passportNumber },
      ].map((body) => verify(body, ip)),
    );
    for (const answer of answers) {
      expect(answer.statusCode).toBe(404);
      expect(answer.body).toBe(answers[0]!.body);
    }
    expect(answers[0]!.json()).toEqual({
      error: {
        status: 404,
        code: 'DOCUMENT_NOT_VERIFIED',
        message:
          'No valid document matches this number and these details. Check both and try again.',
      },
    });
    const french = await verify({ number: 'TD-1999-99999', secondFactor: 'x' }, ip, {
      'accept-language': 'fr',
    });
    expect(french.json().error.message).toBe(
      'Aucun document valide ne correspond à ce numéro et à ces informations. Vérifiez-les et réessayez.',
    );
  });

  it('refuses missing, blank, mistyped and overlong fields with a 400 per field', async () => {
    const ip = from();
    const empty = await verify({}, ip);
    expect(empty.statusCode).toBe(400);
    expect(empty.json().error).toMatchObject({
      code: 'VALIDATION_FAILED',
      fields: [
        { path: '/number', rule: 'required', message: 'This field is required' },
        { path: '/secondFactor', rule: 'required', message: 'This field is required' },
      ],
    });
    const wrong = await verify({ number: 42, secondFactor: ' '.repeat(5) }, ip);
    expect(wrong.json().error.fields).toEqual([
      expect.objectContaining({ path: '/number', rule: 'type' }),
      expect.objectContaining({ path: '/secondFactor', rule: 'required' }),
    ]);
    const long = await verify({ number: 'N'.repeat(51), secondFactor: 'F'.repeat(101) }, ip);
    expect(long.json().error.fields).toEqual([
      { path: '/number', rule: 'maxLength', message: 'Must be at most 50 characters' },
      { path: '/secondFactor', rule: 'maxLength', message: 'Must be at most 100 characters' },
    ]);
    const notAnObject = await verify(['TD'], ip);
    expect(notAnObject.statusCode).toBe(400);
  });

  it('needs no token, and a signed-in caller gets the same answer', async () => {
    const token = await api.tokenFor(['view-profile']);
    const response = await api.call('POST', VERIFY, {
      token,
      body: { number: granted.number, secondFactor: granted.passportNumber },
      headers: { 'x-forwarded-for': from() },
    });
    expect(response.statusCode).toBe(200);
  });

  it('limits each client address to 10 checks a minute, then 429 with Retry-After', async () => {
    const ip = from();
    const body = { number: granted.number, secondFactor: 'wrong' };
    for (let i = 0; i < 10; i++) expect((await verify(body, ip)).statusCode).toBe(404);
    const limited = await verify(
      { number: granted.number, secondFactor: granted.passportNumber },
      ip,
    );
    expect(limited.statusCode).toBe(429);
    const retryAfter = Number(limited.headers['retry-after']);
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(60);
    expect(limited.json().error).toEqual({
      status: 429,
      code: 'TOO_MANY_REQUESTS',
      message: `Too many document checks from your connection. Please try again in ${retryAfter} seconds.`,
    });
    const french = await verify(body, ip, { locale: 'fr' });
    expect(french.statusCode).toBe(429);
    expect(french.json().error.message).toMatch(/^Trop de vérifications de documents/);
    // Another address is not affected.
    expect((await verify(body, from())).statusCode).toBe(404);
  });
});
