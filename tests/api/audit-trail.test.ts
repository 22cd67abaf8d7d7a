import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApiServer, type ApiHarness } from '../support/api-server';
import { databaseKinds } from '../support/databases';

/**
 * The audit trail is append-only: the database itself refuses to change or remove a line, even
 * when the application's own database user asks (docs/audit.md).
 */
describe.each(databaseKinds())('audit trail on %s', (kind) => {
  let api: ApiHarness;

  beforeAll(async () => {
    api = await startApiServer(kind, { referenceData: false });
  });
  afterAll(async () => api?.close());

  it('keeps what it records, batched, and refuses every update, delete and truncate', async () => {
    const audit = api.server.audit;
    audit.record({ actor: 'u-1', actorName: 'Ana Officer', kind: 'read', action: 'document.read' });
    audit.record({ actor: 'u-1', actorName: 'Ana Officer', kind: 'read', action: 'upload.read' });
    await audit.flush();
    const db = api.server.database.db;
    const rows = await db
      .selectFrom('audit_event')
      .select(['actor', 'action'])
      .where('actor', '=', 'u-1')
      .orderBy('id')
      .execute();
    expect(rows).toEqual([
      { actor: 'u-1', action: 'document.read' },
      { actor: 'u-1', action: 'upload.read' },
    ]);
    await expect(
      db
        .updateTable('audit_event')
        .set({ actor_name: 'Nobody' })
        .where('actor', '=', 'u-1')
        .execute(),
    ).rejects.toThrow(/append-only/);
    await expect(db.deleteFrom('audit_event').where('actor', '=', 'u-1').execute()).rejects.toThrow(
      /append-only/,
    );
    await expect(sql`truncate audit_event`.execute(db)).rejects.toThrow(/append-only/);
    const after = await db
      .selectFrom('audit_event')
      .select(['actor_name'])
      .where('actor', '=', 'u-1')
      .execute();
    expect(after).toEqual([{ actor_name: 'Ana Officer' }, { actor_name: 'Ana Officer' }]);
  });
});
