import { randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { dropSchema } from '../../src/server/db/database';
import { copyPgliteTemplate } from './pglite-template';

/** A database for one test file: PGlite in a temporary folder, or a fresh PostgreSQL schema. */
export interface TestDatabase {
  kind: 'pglite' | 'postgres';
  dataDir: string;
  databaseUrl?: string;
  schema?: string;
  cleanup(): Promise<void>;
}

export type DatabaseKind = TestDatabase['kind'];

/**
 * API tests run on PGlite always and on PostgreSQL when TEST_DATABASE_URL is set. When it is
 * set and the server does not answer, the PostgreSQL tests fail: they never pass silently.
 */
export function databaseKinds(): DatabaseKind[] {
  return process.env.TEST_DATABASE_URL ? ['pglite', 'postgres'] : ['pglite'];
}

export async function createTestDatabase(kind: DatabaseKind): Promise<TestDatabase> {
  const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'portal-test-'));
  if (kind === 'pglite') {
    // The run's migrated folder, copied: no cluster to create (pglite-template.ts).
    await copyPgliteTemplate(dataDir);
    return { kind, dataDir, cleanup: () => fs.rm(dataDir, { recursive: true, force: true }) };
  }
  const databaseUrl = process.env.TEST_DATABASE_URL;
  if (!databaseUrl) throw new Error('TEST_DATABASE_URL is not set');
  const schema = `test_${randomBytes(6).toString('hex')}`;
  return {
    kind,
    dataDir,
    databaseUrl,
    schema,
    cleanup: async () => {
      await dropSchema(databaseUrl, schema);
      await fs.rm(dataDir, { recursive: true, force: true });
    },
  };
}
