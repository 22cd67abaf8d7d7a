import fs from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PROJECT_ROOT } from '../../src/server/config';
import { createCatalogEntries, startApiServer, type ApiHarness } from '../support/api-server';
import { databaseKinds } from '../support/databases';
import { copyDefinitions, readProjectJson } from '../support/definitions-dir';

/**
 * Fees come from the workflow's payment declaration alone: a permit module (fixture
 * tests/fixtures/fee-declaration) charges from catalogues the fee code has never heard of
 * (permit-charge, keyed by permitCode, summing charge and levy, in force when active; permit-kind
 * saying whether the holder and each worker pay), in the currency it declares.
 */
const TYPE = 'permit-application';
const FIXTURE = path.join(PROJECT_ROOT, 'tests/fixtures/fee-declaration');

/** The project's definitions with the permit module's files and module added. */
async function definitionsWithPermitModule() {
  const copy = await copyDefinitions();
  for (const folder of ['catalogs', 'schemas', 'workflows', 'translations']) {
    await fs.cp(path.join(FIXTURE, folder), path.join(copy.dir, folder), { recursive: true });
  }
  type Modules = { modules: unknown[] };
  const own = await readProjectJson<Modules>('modules.json');
  const extra = JSON.parse(
    await fs.readFile(path.join(FIXTURE, 'modules.fixture.json'), 'utf8'),
  ) as Modules;
  await copy.write('modules.json', { modules: [...own.modules, ...extra.modules] });
  return copy;
}

describe.each(databaseKinds())('fees declared by a workflow on %s', (kind) => {
  let api: ApiHarness;
  let removeDefinitions: () => Promise<void>;
  let applicant: string;

  beforeAll(async () => {
    const definitions = await definitionsWithPermitModule();
    removeDefinitions = definitions.remove;
    api = await startApiServer(kind, { definitionsDir: definitions.dir });
    applicant = await api.issuer.token({
      sub: 'permit-applicant',
      groups: ['permit-application-submit'],
    });
    const manager = await api.tokenFor(['asypx-catalog-manage']);
    await createCatalogEntries(api, manager, [
      ['permit-kind', { kind: 'WORK', title: 'Work permit', holderPays: true, workersPay: true }],
      ['permit-kind', { kind: 'SHOP', title: 'Shop permit', holderPays: true, workersPay: false }],
      [
        'permit-charge',
        {
          permitCode: 'WORK',
          chargeCode: 'ISS',
          title: 'Issue charge',
          active: true,
          charge: 50,
          levy: 2.5,
        },
      ],
      // Not charged: not active; another permit's.
      [
        'permit-charge',
        { permitCode: 'WORK', chargeCode: 'RUSH', title: 'Urgent', active: false, charge: 99 },
      ],
      [
        'permit-charge',
        { permitCode: 'SHOP', chargeCode: 'ISS', title: 'Shop charge', active: true, charge: 70 },
      ],
      // The visa's fee catalogues, for the same code: the permit does not declare them.
      ['document', { code: 'WORK', name: 'Work', binder: 'VISA' }],
      [
        'document-fee',
        {
          documentCode: 'WORK',
          code: 'APP',
          name: 'Application fee',
          status: true,
          automatic: true,
          amount: 100,
        },
      ],
    ]);
  });
  afterAll(async () => {
    await api?.close();
    await removeDefinitions?.();
  });

  const submitted = async (data: Record<string, unknown>) => {
    const stored = await api.call('POST', `/api/evisa/${TYPE}`, {
      token: applicant,
      body: { data },
    });
    expect(stored.statusCode, stored.body).toBe(201);
    const { id } = stored.json() as { id: string };
    const response = await api.call('POST', `/api/evisa/${TYPE}/${id}/actions/submit`, {
      token: applicant,
      body: { version: 1, data },
    });
    expect(response.statusCode, response.body).toBe(200);
    return response.json() as { status: string; data: { charges: unknown } };
  };

  it('freezes the declared catalogue’s active charges, once for the holder and once per worker, in the declared currency', async () => {
    const document = await submitted({
      permit: { holder: 'Mele Tui', kind: 'WORK' },
      workers: [{ fullName: 'Sefo Tui' }, { fullName: 'Ana Lemalu' }],
    });
    expect(document.status).toBe('SUBMITTED');
    expect(document.data.charges).toEqual({
      lines: [
        { code: 'ISS', name: 'Issue charge', amount: '52.50', status: 'DUE' },
        {
          code: 'ISS',
          name: 'Issue charge',
          narration: 'Sefo Tui',
          amount: '52.50',
          status: 'DUE',
        },
        {
          code: 'ISS',
          name: 'Issue charge',
          narration: 'Ana Lemalu',
          amount: '52.50',
          status: 'DUE',
        },
      ],
      currency: 'WST',
      total: '157.50',
    });
  });

  it('charges workers only when the permit kind says they pay', async () => {
    const document = await submitted({
      permit: { holder: 'Losa Tui', kind: 'SHOP' },
      workers: [{ fullName: 'Sefo Tui' }],
    });
    expect(document.data.charges).toEqual({
      lines: [{ code: 'ISS', name: 'Shop charge', amount: '70.00', status: 'DUE' }],
      currency: 'WST',
      total: '70.00',
    });
  });
});
