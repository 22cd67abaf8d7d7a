import { readFile } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serverModules } from '../../src/modules/server';
import { DefinitionsError, loadDefinitions } from '../../src/server/definitions/load';
import { implementationsOf } from '../../src/server/implementations';
import { defineModule } from '../../src/server/module';
import { createCatalogEntries, startApiServer, type ApiHarness } from '../support/api-server';
import { databaseKinds } from '../support/databases';
import { definitionsWithFixtures } from '../support/definitions-dir';

/**
 * A business module's code reaches the engine only as a `defineModule` value handed to the
 * server: the permit fixture module (tests/fixtures/fee-declaration) names an effect of its own
 * on submission, and a guard deciding whether the permit is waived; the server runs them when
 * built with the module, and refuses the definitions without it.
 */
const TYPE = 'permit-application';

const permitModule = defineModule({
  id: 'permit',
  effects: {
    stampPermit: ({ document, principal }) => {
      const permit = (document.data.permit ?? {}) as Record<string, unknown>;
      document.data = { ...document.data, permit: { ...permit, stampedBy: principal.subject } };
    },
  },
  guards: {
    holderNamed: ({ document }) =>
      typeof (document.data.permit as { holder?: unknown } | undefined)?.holder === 'string',
  },
});

/** The permit fixture, its submission running the module's effect behind the module's guard. */
async function permitDefinitions() {
  const copy = await definitionsWithFixtures('tests/fixtures/fee-declaration');
  const file = `${copy.dir}/workflows/${TYPE}.json`;
  const workflow = JSON.parse(await readFile(file, 'utf8')) as {
    actions: Record<string, { effects?: string[] }>;
    machine: { states: Record<string, { on?: Record<string, unknown> }> };
  };
  workflow.actions.submit!.effects = [...(workflow.actions.submit!.effects ?? []), 'stampPermit'];
  workflow.machine.states.STORED!.on = {
    submit: { target: 'SUBMITTED', guard: 'holderNamed' },
  };
  await copy.write(`workflows/${TYPE}.json`, workflow);
  return copy;
}

describe('the module seam', () => {
  it('refuses definitions naming an effect or guard no module given provides', async () => {
    const definitions = await permitDefinitions();
    try {
      const error = await loadDefinitions(definitions.dir, serverModules).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(DefinitionsError);
      const messages = (error as DefinitionsError).problems.map(
        (p) => `${p.file}#${p.pointer}: ${p.message}`,
      );
      expect(messages).toContain(
        `workflows/${TYPE}.json#/actions/submit/effects/0: unknown effect "stampPermit"`,
      );
      expect(messages.some((m) => m.includes('holderNamed'))).toBe(true);
      const bundle = await loadDefinitions(definitions.dir, [...serverModules, permitModule]);
      expect(bundle.workflows.map((w) => w.id)).toContain(TYPE);
    } finally {
      await definitions.remove();
    }
  });

  it('serves documents under the default backend or one a module declares, and refuses any other', async () => {
    const definitions = await permitDefinitions();
    try {
      const file = `workflows/${TYPE}.json`;
      const workflow = JSON.parse(await readFile(`${definitions.dir}/${file}`, 'utf8')) as object;
      await definitions.write(file, { ...workflow, backend: 'permits' });
      const error = await loadDefinitions(definitions.dir, [...serverModules, permitModule]).catch(
        (e: unknown) => e,
      );
      expect(error).toBeInstanceOf(DefinitionsError);
      expect(
        (error as DefinitionsError).problems.map((p) => `${p.file}#${p.pointer}: ${p.message}`),
      ).toContain(
        `${file}#/backend: backend "permits" is served by no module (served: evisa, connectid)`,
      );
      const serving = defineModule({ ...permitModule, backends: ['permits'] });
      const bundle = await loadDefinitions(definitions.dir, [...serverModules, serving]);
      expect(bundle.workflows.find((w) => w.id === TYPE)?.backend).toBe('permits');
    } finally {
      await definitions.remove();
    }
  });

  it('refuses two implementations of one name, naming the module', () => {
    expect(() =>
      implementationsOf([defineModule({ id: 'clash', effects: { allocateNumber: () => {} } })]),
    ).toThrow('module clash: effect "allocateNumber" is already defined');
    expect(() =>
      implementationsOf([
        defineModule({ id: 'one', guards: { same: () => true } }),
        defineModule({ id: 'two', guards: { same: () => false } }),
      ]),
    ).toThrow('module two: guard "same" is already defined');
  });
});

describe.each(databaseKinds())('a module’s effect and guard on %s', (kind) => {
  let api: ApiHarness;
  let removeDefinitions: () => Promise<void>;
  let applicant: string;

  beforeAll(async () => {
    const definitions = await permitDefinitions();
    removeDefinitions = definitions.remove;
    api = await startApiServer(kind, { definitionsDir: definitions.dir }, [
      ...serverModules,
      permitModule,
    ]);
    applicant = await api.issuer.token({
      sub: 'permit-applicant',
      groups: ['permit-application-submit'],
    });
    const manager = await api.tokenFor(['asypx-catalog-manage']);
    await createCatalogEntries(api, manager, [
      ['permit-kind', { kind: 'SHOP', title: 'Shop permit', holderPays: true, workersPay: false }],
    ]);
  });
  afterAll(async () => {
    await api?.close();
    await removeDefinitions?.();
  });

  const stored = async (data: Record<string, unknown>) => {
    const response = await api.call('POST', `/api/evisa/${TYPE}`, {
      token: applicant,
      body: { data },
    });
    expect(response.statusCode, response.body).toBe(201);
    return response.json() as { id: string; allowedActions: string[] };
  };

  it('runs the module’s effect when its guard lets the submission through', async () => {
    const draft = await stored({ permit: { holder: 'Mele Tui', kind: 'SHOP' } });
    expect(draft.allowedActions).toContain('submit');
    const response = await api.call('POST', `/api/evisa/${TYPE}/${draft.id}/actions/submit`, {
      token: applicant,
      body: { version: 1, data: { permit: { holder: 'Mele Tui', kind: 'SHOP' } } },
    });
    expect(response.statusCode, response.body).toBe(200);
    const document = response.json() as { status: string; data: { permit: unknown } };
    expect(document.status).toBe('SUBMITTED');
    expect(document.data.permit).toEqual({
      holder: 'Mele Tui',
      kind: 'SHOP',
      stampedBy: 'permit-applicant',
    });
  });

  it('offers no submission while the module’s guard says no', async () => {
    const draft = await stored({ permit: { kind: 'SHOP' } });
    expect(draft.allowedActions).not.toContain('submit');
  });
});
