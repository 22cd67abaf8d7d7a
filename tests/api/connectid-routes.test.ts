import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { documentParam, keyValue } from '../../src/core/documents/document-route';
import type { WorkflowDefinition } from '../../src/core/documents/workflow';
import { startApiServer, type ApiHarness } from '../support/api-server';
import { databaseKinds } from '../support/databases';

/**
 * Every route of the connectid module, generated from its workflow definitions: each list, each
 * screen's document read, and each action (through POST .../actions/:action, PUT for update,
 * POST for creation) is allowed with one of its roles, refused with 403 to a caller holding every
 * other role of the workflow (and to one holding none), and refused with 401 signed out.
 */
const TYPES = ['account', 'user-group', 'password-policy', 'access-unit', 'access-role'] as const;
type Type = (typeof TYPES)[number];

let serial = 0;
const next = () => `${Date.now().toString(36)}${(serial++).toString(36)}`;

const SAMPLES: Record<Type, () => Record<string, unknown>> = {
  account: () => ({
    identity: { loginIdentifier: `user.${next()}`, firstName: 'Ana', lastName: 'Tuilagi' },
    contact: { emailAddress: 'ana@example.org', primaryMobileNo: '+685 7210001' },
    organisation: { userType: 'INDIVIDUAL' },
    access: { userGroup: 'PUBLIC', accessUnits: [], activationStatus: 'active' },
  }),
  'user-group': () => ({
    group: { code: `G${next()}`, name: 'Group', status: 'active' },
    access: { defaultAccessUnits: [] },
    security: {},
  }),
  'password-policy': () => ({
    policy: { code: `P${next()}`, name: 'Policy' },
    rules: {
      minimumLength: 8,
      maximumLength: 64,
      minimumDigits: 0,
      minimumLowercase: 0,
      minimumUppercase: 0,
      minimumSpecial: 0,
      allowUsernameInPassword: true,
      passwordExpiryInDays: 0,
      passwordWarningInDays: 0,
    },
  }),
  'access-unit': () => ({
    unit: { unitCode: `U${next()}`, unitDescription: 'Unit' },
    access: { roles: ['view-profile'] },
  }),
  'access-role': () => ({ role: { roleCode: `role-${next()}`, roleDescription: 'Role' } }),
};

/** How to bring a document to a status where the action is possible: how it is created, then. */
const SETUP: Partial<Record<Type, Record<string, { create?: string; before?: string[] }>>> = {
  account: {
    accept: { create: 'register' },
    reject: { create: 'register' },
    return: { create: 'register' },
    'undo-delete': { before: ['delete'] },
    // Closing is decided on the holder's request.
    close: { before: ['request-closure'] },
    'keep-open': { before: ['request-closure'] },
  },
};

const CREATING = new Set(['create', 'register']);

describe.each(databaseKinds())('connectid routes on %s', (kind) => {
  let api: ApiHarness;
  const workflows = new Map<Type, WorkflowDefinition>();
  const drivers = new Map<Type, string>();
  let roleless: string;

  beforeAll(async () => {
    api = await startApiServer(kind);
    for (const type of TYPES) {
      const workflow = api.server.definitions.workflows.find((w) => w.id === type)!;
      workflows.set(type, workflow);
      drivers.set(type, await api.issuer.token({ sub: 'driver', groups: allRoles(workflow) }));
    }
    roleless = await api.issuer.token({ sub: 'nobody', groups: ['view-profile'] });
  });
  afterAll(async () => {
    await api?.close();
  });

  const suffixes = (workflow: WorkflowDefinition) => [
    ...new Set([
      ...Object.values(workflow.actions).flatMap((a) => a.roles),
      ...workflow.screens.flatMap((s) => s.roles),
      ...workflow.lists.flatMap((l) => l.roles),
    ]),
  ];
  const allRoles = (workflow: WorkflowDefinition) =>
    suffixes(workflow).map((s) => `${workflow.rolePrefix}${s}`);
  const holding = (workflow: WorkflowDefinition, roles: string[], sub = 'tester') =>
    api.issuer.token({
      sub,
      name: 'Tester',
      groups: roles.map((r) => `${workflow.rolePrefix}${r}`),
    });
  const without = (workflow: WorkflowDefinition, roles: string[]) =>
    holding(
      workflow,
      suffixes(workflow).filter((s) => !roles.includes(s)),
    );

  type Doc = { id: string; version: number; status: string; data: Record<string, unknown> };

  const payload = (workflow: WorkflowDefinition, action: string, doc: Doc) => ({
    version: doc.version,
    ...(workflow.actions[action]!.payload === 'data' ? { data: doc.data } : {}),
    ...(workflow.actions[action]!.notes ? { notes: 'Because the test says so' } : {}),
  });

  /** A document where `action` is possible, brought there by a caller holding every role. */
  async function documentFor(type: Type, action: string): Promise<Doc> {
    const workflow = workflows.get(type)!;
    const setup = SETUP[type]?.[action] ?? {};
    const created = await api.call('POST', `/api/connectid/${type}`, {
      token: drivers.get(type),
      body: { action: setup.create ?? 'create', data: SAMPLES[type]() },
    });
    expect(created.statusCode, created.body).toBe(201);
    let doc = created.json() as Doc;
    for (const step of setup.before ?? []) {
      // A step only the holder takes (`owner`) is taken as the account itself.
      const token = workflow.actions[step]?.owner
        ? await holding(workflow, workflow.actions[step]!.roles, doc.id)
        : drivers.get(type);
      const response = await api.call('POST', `/api/connectid/${type}/${doc.id}/actions/${step}`, {
        token,
        body: payload(workflow, step, doc),
      });
      expect(response.statusCode, response.body).toBe(200);
      doc = response.json();
    }
    return doc;
  }

  describe.each(TYPES)('%s', (type) => {
    it('serves each list to its roles only', async () => {
      const workflow = workflows.get(type)!;
      for (const list of workflow.lists) {
        const body = { list: list.id, filter: [], options: { page: 1, itemsPerPage: 10 } };
        const url = `/api/connectid/${type}`;
        for (const role of list.roles) {
          const ok = await api.call('PATCH', url, { token: await holding(workflow, [role]), body });
          expect(ok.statusCode, `${list.id} with ${role}: ${ok.body}`).toBe(200);
          expect(ok.json()).toMatchObject({ page: 1, itemsPerPage: 10 });
        }
        const refused = await api.call('PATCH', url, {
          token: await without(workflow, list.roles),
          body,
        });
        expect(refused.statusCode, `${list.id} without its roles`).toBe(403);
        expect((await api.call('PATCH', url, { token: roleless, body })).statusCode).toBe(403);
        expect((await api.call('PATCH', url, { body })).statusCode).toBe(401);
      }
    });

    it('opens each screen to its roles only', async () => {
      const workflow = workflows.get(type)!;
      const doc = await documentFor(type, 'update');
      for (const screen of workflow.screens.filter((s) => documentParam(s.path))) {
        // The document as the screen's route names it: by id, or by its key (the login
        // identifier of an account, the code of a group), as the specification writes them.
        const reference =
          documentParam(screen.path) === 'id'
            ? doc.id
            : encodeURIComponent(keyValue(workflow, doc.data) ?? '');
        expect(reference, screen.path).not.toBe('');
        for (const role of screen.roles) {
          // The account's read role reads one's own account only: the owner is the account.
          const sub = type === 'account' && role === 'read' ? doc.id : 'tester';
          const token = await holding(workflow, [role], sub);
          const ok = await api.call('GET', `/api/connectid/${type}/${reference}`, { token });
          expect(ok.statusCode, `${screen.path} with ${role}: ${ok.body}`).toBe(200);
          expect((ok.json() as Doc).id).toBe(doc.id);
          const versions = await api.call('GET', `/api/connectid/${type}/${reference}/versions`, {
            token,
          });
          expect(versions.statusCode).toBe(200);
          expect((versions.json() as unknown[]).length).toBeGreaterThan(0);
          const history = await api.call('GET', `/api/connectid/${type}/${reference}/history`, {
            token,
          });
          expect(history.statusCode).toBe(200);
        }
        const url = `/api/connectid/${type}/${reference}`;
        expect((await api.call('GET', url, { token: roleless })).statusCode).toBe(403);
        expect((await api.call('GET', url)).statusCode).toBe(401);
      }
      // A key that names nothing is as unknown as an id that does.
      const unknown = await api.call('GET', `/api/connectid/${type}/no-such-key`, {
        token: drivers.get(type),
      });
      expect(unknown.statusCode).toBe(404);
      if (type === 'account') {
        // Holding read without owning the account: as if it did not exist.
        const stranger = await holding(workflow, ['read'], 'someone-else');
        const hidden = await api.call('GET', `/api/connectid/account/${doc.id}`, {
          token: stranger,
        });
        expect(hidden.statusCode).toBe(404);
      }
    });

    it('allows each action with its roles, 403 without them, 401 signed out', async () => {
      const workflow = workflows.get(type)!;
      let checked = 0;
      for (const [action, definition] of Object.entries(workflow.actions)) {
        const url = (doc: Doc) => `/api/connectid/${type}/${doc.id}/actions/${action}`;
        for (const role of definition.roles) {
          if (CREATING.has(action)) {
            const body = { action, data: SAMPLES[type]() };
            const created = await api.call('POST', `/api/connectid/${type}`, {
              token: await holding(workflow, [role]),
              body,
            });
            expect(created.statusCode, `${action} with ${role}: ${created.body}`).toBe(201);
            const refused = await api.call('POST', `/api/connectid/${type}`, {
              token: await without(workflow, definition.roles),
              body: { action, data: SAMPLES[type]() },
            });
            expect(refused.statusCode, `${action} without its roles`).toBe(403);
            expect(
              (
                await api.call('POST', `/api/connectid/${type}`, {
                  token: roleless,
                  body: { action, data: SAMPLES[type]() },
                })
              ).statusCode,
            ).toBe(403);
            expect(
              (
                await api.call('POST', `/api/connectid/${type}`, {
                  body: { action, data: SAMPLES[type]() },
                })
              ).statusCode,
            ).toBe(401);
            checked++;
            continue;
          }
          const doc = await documentFor(type, action);
          const sub = definition.owner ? doc.id : 'tester';
          const refused = await api.call('POST', url(doc), {
            token: await without(workflow, definition.roles),
            body: payload(workflow, action, doc),
          });
          expect(refused.statusCode, `${action} without its roles: ${refused.body}`).toBe(403);
          expect(
            (
              await api.call('POST', url(doc), {
                token: roleless,
                body: payload(workflow, action, doc),
              })
            ).statusCode,
          ).toBe(403);
          expect(
            (await api.call('POST', url(doc), { body: payload(workflow, action, doc) })).statusCode,
          ).toBe(401);
          const ok = await api.call('POST', url(doc), {
            token: await holding(workflow, [role], sub),
            body: payload(workflow, action, doc),
          });
          expect(ok.statusCode, `${action} with ${role}: ${ok.body}`).toBe(200);
          expect(ok.json().version).toBe(doc.version + 1);
          checked++;
        }
      }
      expect(checked).toBe(Object.values(workflow.actions).reduce((n, a) => n + a.roles.length, 0));
    });

    it('updates through PUT with the update role only', async () => {
      const workflow = workflows.get(type)!;
      const doc = await documentFor(type, 'update');
      const url = `/api/connectid/${type}/${doc.id}`;
      const body = { version: doc.version, data: doc.data };
      expect((await api.call('PUT', url, { body })).statusCode).toBe(401);
      expect(
        (await api.call('PUT', url, { token: await without(workflow, ['update']), body }))
          .statusCode,
      ).toBe(403);
      const ok = await api.call('PUT', url, { token: await holding(workflow, ['update']), body });
      expect(ok.statusCode, ok.body).toBe(200);
    });
  });
});
