import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { dropSchema, openDatabase } from '../../src/server/db/database';
import { databaseKinds } from '../support/databases';

/**
 * Processes sharing one PostgreSQL database, each in its own schema (as the test runs do): a
 * schema being dropped while another process migrates its own must not stop that process.
 */
describe.runIf(databaseKinds().includes('postgres'))('schemas of one PostgreSQL database', () => {
  const url = process.env.TEST_DATABASE_URL ?? '';

  async function migratedSchema(): Promise<string> {
    const schema = `test_${randomBytes(6).toString('hex')}`;
    const handle = await openDatabase({ databaseUrl: url, schema, dataDir: 'memory://' });
    await handle.close();
    return schema;
  }

  it('migrates new schemas while others are dropped', async () => {
    const opened: string[] = [];
    try {
      for (let round = 0; round < 3; round++) {
        const old = await Promise.all(Array.from({ length: 8 }, migratedSchema));
        const fresh = Promise.all(Array.from({ length: 4 }, migratedSchema));
        await Promise.all(old.map((schema) => dropSchema(url, schema)));
        opened.push(...(await fresh));
      }
      expect(opened).toHaveLength(12);
    } finally {
      await Promise.all(opened.map((schema) => dropSchema(url, schema)));
    }
  }, 300_000);
});
