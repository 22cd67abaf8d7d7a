import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { WorkflowDefinition } from '../../src/core/documents/workflow';
import { startApiServer, type ApiHarness } from '../support/api-server';
import { databaseKinds } from '../support/databases';
import { definitionsWithFixtures } from '../support/definitions-dir';
import { VALID_DATA } from '../support/documents';
import { expectedTarget, pathsToEveryStatus, type PathToStatus } from '../support/workflow-walk';

/**
 * Generated from the machine, not hand-picked: for every status the workflow can reach, every
 * action and every role, the action succeeds exactly when the machine allows it in that status
 * and the caller holds one of its roles; otherwise it is refused (403 or 409) and nothing changes.
 */
const TYPE = 'test-document';
const OWNER = 'owner-walk';

function payloadFor(action: string, data: Record<string, unknown>): Record<string, unknown> {
  switch (action) {
    case 'assign':
      return { assignee: 'officer-1' };
    case 'query':
    case 'reject':
      return { notes: 'Generated test notes' };
    case 'grant':
      return { data: { decision: { remarks: 'Granted by the generated test' } } };
    default:
      return { data };
  }
}

describe.each(databaseKinds())(
  'generated (status, action, role) test of the test workflow on %s',
  (kind) => {
    let api: ApiHarness;
    let removeDefinitions: () => Promise<void>;
    let workflow: WorkflowDefinition;
    let paths: PathToStatus[];
    let driver: string;
    const tokens = new Map<string, string>();
    const base = `/api/evisa/${TYPE}`;

    beforeAll(async () => {
      const definitions = await definitionsWithFixtures();
      removeDefinitions = definitions.remove;
      api = await startApiServer(kind, { definitionsDir: definitions.dir });
      workflow = api.server.definitions.workflows.find((w) => w.id === TYPE)!;
      paths = pathsToEveryStatus(workflow, [
        VALID_DATA,
        { ...VALID_DATA, fees: { total: '75.00' } },
      ]);
      const suffixes = [...new Set(Object.values(workflow.actions).flatMap((a) => a.roles))];
      driver = await api.issuer.token({
        sub: OWNER,
        name: 'Walker',
        groups: suffixes.map((s) => `${workflow.rolePrefix}${s}`),
      });
      for (const suffix of suffixes) {
        tokens.set(
          suffix,
          await api.issuer.token({
            sub: OWNER,
            name: `Only ${suffix}`,
            groups: [`${workflow.rolePrefix}${suffix}`],
          }),
        );
      }
      tokens.set(
        '(no role)',
        await api.issuer.token({ sub: OWNER, name: 'No role', groups: ['view-profile'] }),
      );
    });
    afterAll(async () => {
      await api?.close();
      await removeDefinitions?.();
    });

    /** Creates a document and walks it along the path, as its owner holding every role. */
    async function documentIn(path: PathToStatus): Promise<{ id: string; version: number }> {
      const [first, ...rest] = path.steps;
      const created = await api.call('POST', base, {
        token: driver,
        body: { action: first!.action, data: first!.data },
      });
      expect(created.statusCode, created.body).toBe(201);
      let doc = created.json() as { id: string; version: number; status: string };
      for (const step of rest) {
        const response = await api.call('POST', `${base}/${doc.id}/actions/${step.action}`, {
          token: driver,
          body: { version: doc.version, ...payloadFor(step.action, step.data) },
        });
        expect(response.statusCode, `${step.action}: ${response.body}`).toBe(200);
        doc = response.json();
      }
      expect(doc.status).toBe(path.status);
      return doc;
    }

    it('reaches every status of the machine', () => {
      expect(paths.map((p) => p.status).sort()).toEqual(
        Object.keys(workflow.machine.states).sort(),
      );
    });

    it('allows an action exactly when the machine and the roles allow it', async () => {
      let checked = 0;
      for (const path of paths) {
        for (const [action, definition] of Object.entries(workflow.actions)) {
          const target = expectedTarget(workflow, path.document, action);
          const data = path.document.data;
          for (const [persona, token] of tokens) {
            const roleFits = definition.roles.includes(persona);
            if (path.status === 'NEW') {
              if (action !== 'store' && action !== 'drop') continue;
              const created = await api.call('POST', base, { token, body: { action, data } });
              expect(created.statusCode, `${persona} ${action} from NEW`).toBe(
                roleFits && target ? 201 : 403,
              );
              checked++;
              continue;
            }
            const doc = await documentIn(path);
            const response = await api.call('POST', `${base}/${doc.id}/actions/${action}`, {
              token,
              body: { version: doc.version, ...payloadFor(action, data) },
            });
            const where = `${persona} ${action} in ${path.status}: ${response.body}`;
            if (roleFits && target) {
              expect(response.statusCode, where).toBe(200);
              expect(response.json().status, where).toBe(target);
            } else {
              expect(response.statusCode, where).toBe(roleFits ? 409 : 403);
              const after = (await api.call('GET', `${base}/${doc.id}`, { token: driver })).json();
              expect(after.version, where).toBe(doc.version);
              expect(after.status, where).toBe(path.status);
            }
            checked++;
          }
        }
      }
      expect(checked).toBeGreaterThan(500);
    });
  },
);
