import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApiServer, type ApiHarness } from '../support/api-server';
import { databaseKinds } from '../support/databases';
import { definitionsWithFixtures } from '../support/definitions-dir';

/**
 * Fees owed by a payable document (fixture test-payable), frozen from the fee catalogues valid
 * at submission: automatic fees only, the sub-document's fees once per person it charges
 * (applicant, dependants, employees), and never changed by a later change of the catalogues.
 */
const TYPE = 'test-payable';
const DAY = 86_400_000;

describe.each(databaseKinds())('fees frozen on submission on %s', (kind) => {
  let api: ApiHarness;
  let removeDefinitions: () => Promise<void>;
  let payer: string;
  let manager: string;

  const entry = async (catalog: string, body: Record<string, unknown>) => {
    const created = await api.call('POST', `/api/catalog/v1/${catalog}`, {
      token: manager,
      body: { startTime: '2020-01-01T00:00:00Z', ...body },
    });
    expect(created.statusCode, created.body).toBe(201);
    return created.json() as { id: string; version: number; data: Record<string, unknown> };
  };
  const subDocument = (code: string, flags: Record<string, boolean>) =>
    entry('sub-document', {
      documentCode: 'QFEE',
      code,
      name: `Fee test ${code}`,
      allowedPeriodType: 'DAY',
      allowedPeriodNumber: 30,
      feeAmount: 0,
      otherAmount: 0,
      ...flags,
    });
  const subFee = (subDocumentCode: string, amount: number) =>
    entry('sub-document-fee', {
      subDocumentCode,
      code: 'ISS',
      name: 'Issue fee',
      status: true,
      automatic: true,
      amount,
      other: 0,
    });

  beforeAll(async () => {
    const definitions = await definitionsWithFixtures();
    removeDefinitions = definitions.remove;
    api = await startApiServer(kind, { definitionsDir: definitions.dir });
    payer = await api.issuer.token({
      sub: 'fee-payer',
      groups: ['test-payable-submit', 'test-payable-pay'],
    });
    manager = await api.tokenFor(['asypx-catalog-manage']);
    await entry('document', { code: 'QFEE', name: 'Fee test', binder: 'VISA' });
    await entry('document-fee', {
      documentCode: 'QFEE',
      code: 'APP',
      name: 'Application fee',
      status: true,
      automatic: true,
      amount: 100,
    });
    // Not charged: chosen by an officer, out of force, not yet or no longer valid.
    await entry('document-fee', {
      documentCode: 'QFEE',
      code: 'OPT',
      name: 'Courier',
      status: true,
      automatic: false,
      amount: 40,
    });
    await entry('document-fee', {
      documentCode: 'QFEE',
      code: 'OFF',
      name: 'Suspended',
      status: false,
      automatic: true,
      amount: 40,
    });
    await entry('document-fee', {
      documentCode: 'QFEE',
      code: 'NEXT',
      name: 'Next year',
      status: true,
      automatic: true,
      amount: 40,
      startTime: new Date(Date.now() + 365 * DAY).toISOString(),
    });
    await entry('document-fee', {
      documentCode: 'QFEE',
      code: 'OLD',
      name: 'Ended',
      status: true,
      automatic: true,
      amount: 40,
      endTime: new Date(Date.now() - DAY).toISOString(),
    });
    await subDocument('QFA', {
      applicantIsCharged: true,
      dependantIsEnabled: true,
      dependantIsCharged: true,
    });
    await subDocument('QFB', {
      applicantIsCharged: true,
      dependantIsEnabled: true,
      dependantIsCharged: false,
      employeeIsEnabled: true,
      employeeIsCharged: true,
    });
    await subFee('QFA', 25.5);
    await subFee('QFB', 12.25);
  });
  afterAll(async () => {
    await api?.close();
    await removeDefinitions?.();
  });

  type Fees = { lines: Array<{ code: string; amount: string; narration?: string }>; total: string };
  const store = async (data: Record<string, unknown>) => {
    const response = await api.call('POST', `/api/evisa/${TYPE}`, { token: payer, body: { data } });
    expect(response.statusCode, response.body).toBe(201);
    return response.json() as { id: string; data: { fees: Fees } };
  };
  const people = (...names: string[]) =>
    names.map((name) => ({ givenName: name, familyName: 'Tui' }));
  const application = (subDocument: string) => ({
    name: 'Mele Tui',
    document: 'QFEE',
    subDocument,
  });

  it('charges the automatic fees in force now, and the sub-document fee per dependant when it says so', async () => {
    const stored = await store({
      application: application('QFA'),
      dependants: people('Ana', 'Losa'),
    });
    expect(stored.data.fees.lines).toEqual([
      { code: 'APP', name: 'Application fee', amount: '100.00', status: 'DUE' },
      { code: 'ISS', name: 'Issue fee', amount: '25.50', status: 'DUE' },
      { code: 'ISS', name: 'Issue fee', narration: 'Ana Tui', amount: '25.50', status: 'DUE' },
      { code: 'ISS', name: 'Issue fee', narration: 'Losa Tui', amount: '25.50', status: 'DUE' },
    ]);
    expect(stored.data.fees.total).toBe('176.50');
  });

  it('charges employees and not dependants when the sub-document charges only employees', async () => {
    const stored = await store({
      application: application('QFB'),
      dependants: people('Ana'),
      employees: people('Sefo', 'Tavita', 'Malia'),
    });
    const narrations = stored.data.fees.lines
      .filter((l) => l.code === 'ISS')
      .map((l) => l.narration);
    expect(narrations).toEqual([undefined, 'Sefo Tui', 'Tavita Tui', 'Malia Tui']);
    expect(stored.data.fees.total).toBe('149.00');
  });

  it('keeps the fees of a submitted application when the catalogue changes afterwards', async () => {
    const stored = await store({ application: application('QFA') });
    const submitted = await api.call('POST', `/api/evisa/${TYPE}/${stored.id}/actions/submit`, {
      token: payer,
      body: { version: 1, data: { application: application('QFA') } },
    });
    expect(submitted.statusCode, submitted.body).toBe(200);
    expect(submitted.json().data.fees.total).toBe('125.50');
    // The application fee goes up from now on: a new period for the same key.
    const fees = await api.call('PATCH', '/api/catalog/v1/document-fee', {
      token: manager,
      body: {
        filter: [
          { field: 'documentCode', criterion: 'equals', value: 'QFEE' },
          { field: 'code', criterion: 'equals', value: 'APP' },
        ],
      },
    });
    const current = fees.json().items[0] as {
      id: string;
      version: number;
      data: Record<string, unknown>;
    };
    const now = new Date().toISOString();
    const closed = await api.call('PUT', `/api/catalog/v1/document-fee/${current.id}`, {
      token: manager,
      body: { version: current.version, data: { ...current.data, endTime: now } },
    });
    expect(closed.statusCode, closed.body).toBe(200);
    await entry('document-fee', {
      ...current.data,
      endTime: undefined,
      amount: 180,
      startTime: now,
    });
    // A new application owes the new fee; the submitted one keeps its own, and pays it.
    expect((await store({ application: application('QFA') })).data.fees.total).toBe('205.50');
    const initiated = await api.call('POST', `/api/evisa/${TYPE}/${stored.id}/actions/initiate`, {
      token: payer,
      body: { version: 2, data: { termsAccepted: true } },
    });
    expect(initiated.statusCode, initiated.body).toBe(200);
    expect(initiated.json().data.fees.total).toBe('125.50');
    const state = await api.call('GET', `/api/payments/${TYPE}/${stored.id}`, { token: payer });
    expect(state.json().order.total).toBe('125.50');
  });
});
