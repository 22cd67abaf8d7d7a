import fs from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DefinitionsError } from '../../src/server/definitions/load';
import { startApiServer, type ApiHarness } from '../support/api-server';
import { databaseKinds } from '../support/databases';
import { definitionsWithFixtures } from '../support/definitions-dir';
import { personas, TYPE, VALID_DATA } from '../support/documents';

/**
 * A status removed from a workflow while documents are in it: the server refuses to start,
 * naming how many documents it would strand, until the workflow maps the status to another
 * (`statusMoves`); it then moves them once, each with a new version and a history line, and
 * they are read and acted on in their new status.
 */
describe.each(databaseKinds())('documents in a removed status, on %s', (kind) => {
  let api: ApiHarness;
  let definitions: Awaited<ReturnType<typeof definitionsWithFixtures>>;
  let who: Awaited<ReturnType<typeof personas>>;
  const base = `/api/evisa/${TYPE}`;
  const file = `workflows/${TYPE}.json`;

  beforeAll(async () => {
    definitions = await definitionsWithFixtures();
    api = await startApiServer(kind, { definitionsDir: definitions.dir });
    who = await personas(api);
  });
  afterAll(async () => {
    await api?.close();
    await definitions?.remove();
  });

  /** The workflow with STORED renamed CREATED, and `moves` as its statusMoves. */
  async function renameStored(moves?: Record<string, string>) {
    const absolute = path.join(definitions.dir, file);
    const renamed = JSON.parse(
      (await fs.readFile(absolute, 'utf8')).replaceAll('"STORED"', '"CREATED"'),
    ) as Record<string, unknown>;
    await definitions.write(file, moves ? { ...renamed, statusMoves: moves } : renamed);
  }

  it('refuses to start while documents are stranded, then moves them once when mapped', async () => {
    const drafts = await Promise.all(
      [1, 2].map(async () => {
        const created = await api.call('POST', base, {
          token: who.owner,
          body: { data: VALID_DATA },
        });
        expect(created.statusCode, created.body).toBe(201);
        return created.json() as { id: string; version: number; status: string };
      }),
    );
    expect(drafts.map((d) => d.status)).toEqual(['STORED', 'STORED']);

    await renameStored();
    const refused = await api.restart().catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(DefinitionsError);
    expect((refused as DefinitionsError).problems).toEqual([
      {
        file,
        pointer: '/machine/states',
        message:
          '2 documents are in status "STORED", which the machine no longer has: keep the status, or map it to another in "statusMoves"',
      },
    ]);

    await renameStored({ STORED: 'CREATED' });
    await api.restart();
    const [first] = drafts;
    const moved = await api.call('GET', `${base}/${first!.id}`, { token: who.owner });
    expect(moved.statusCode, moved.body).toBe(200);
    expect(moved.json()).toMatchObject({ status: 'CREATED', version: 2, data: VALID_DATA });
    expect(moved.json().allowedActions.sort()).toEqual(['cancel', 'delete', 'submit', 'update']);
    const history = (
      await api.call('GET', `${base}/${first!.id}/history`, { token: who.owner })
    ).json() as Array<{ operation: string; action: string }>;
    expect(history.map((h) => h.operation)).toEqual(['NEW -> STORED', 'STORED -> CREATED']);
    expect(history.at(-1)?.action).toBe('statusMoved');
    const versions = (
      await api.call('GET', `${base}/${first!.id}/versions`, { token: who.owner })
    ).json() as Array<{ version: number }>;
    expect(versions.map((v) => v.version)).toEqual([2, 1]);

    // A later start finds nothing to move: the documents keep their version.
    await api.restart();
    const again = await api.call('GET', `${base}/${first!.id}`, { token: who.owner });
    expect(again.json()).toMatchObject({ status: 'CREATED', version: 2 });
    // And the moved document goes on in its workflow.
    const updated = await api.call('PUT', `${base}/${first!.id}`, {
      token: who.owner,
      body: { version: 2, data: VALID_DATA },
    });
    expect(updated.statusCode, updated.body).toBe(200);
    expect(updated.json()).toMatchObject({ status: 'CREATED', version: 3 });
  });
});
