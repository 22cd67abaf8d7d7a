import { PGlite } from '@electric-sql/pglite';
import { btree_gist } from '@electric-sql/pglite/contrib/btree_gist';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { Kysely, Migrator } from 'kysely';
import { PGliteDialect } from 'kysely-pglite-dialect';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrationProvider } from '../../src/server/db/migrations';
import type { Database } from '../../src/server/db/schema';
import { recordMediaReferences } from '../../src/server/documents/media-references';
import { allTables } from '../support/all-tables';

/**
 * The uploads each document names (document_media), from which officers' access to files is
 * decided: filled from the documents that existed before the table, then kept with each write.
 */
describe('document_media', () => {
  let db: Kysely<Database>;
  let migrator: Migrator;
  beforeAll(async () => {
    const client = await PGlite.create('memory://', { extensions: { btree_gist, pg_trgm } });
    db = new Kysely<Database>({ dialect: new PGliteDialect(client) });
    migrator = new Migrator({ db, provider: migrationProvider });
  });
  afterAll(async () => db?.destroy());

  const upload = async (name: string) =>
    (
      await db
        .insertInto('media')
        .values({
          owner: 'applicant',
          name,
          size: 3,
          type: 'application/pdf',
          sha256: '-',
          content: Buffer.from('pdf'),
        })
        .returning('id')
        .executeTakeFirstOrThrow()
    ).id;
  const file = (id: string, name: string) => ({ id, name, size: 3, type: 'application/pdf' });
  const document = async (data: unknown) =>
    (
      await allTables(db)
        .insertInto('document')
        .values({
          type: 'visa-application',
          status: 'SUBMITTED',
          version: 1,
          owner: 'applicant',
          data: JSON.stringify(data),
          created_by: 'applicant',
          updated_by: 'applicant',
        } as never)
        .returning('id')
        .executeTakeFirstOrThrow()
    ).id;
  const named = async (documentId: string) =>
    (
      await allTables(db)
        .selectFrom('document_media')
        .select('media_id')
        .where('document_id', '=', documentId)
        .execute()
    )
      .map((row) => row.media_id)
      .sort();

  it('is filled from the documents written before it existed', async () => {
    const before = await migrator.migrateTo('0008_payments');
    expect(before.error).toBeUndefined();
    const passport = await upload('passport.pdf');
    const photo = await upload('photo.pdf');
    const withFiles = await document({
      documents: [
        { code: 'PASS', file: file(passport, 'passport.pdf') },
        { code: 'PHOTO', file: file(photo, 'photo.pdf') },
        { code: 'AGAIN', file: file(passport, 'passport.pdf') },
      ],
    });
    const withoutFiles = await document({ applicant: { familyName: 'Tui' } });
    // Not an upload's id: nothing to record, and the migration does not fail on it.
    const oddReference = await document({ scan: file('not-an-id', 'x.pdf') });

    const after = await migrator.migrateToLatest();
    expect(after.error).toBeUndefined();
    expect(await named(withFiles)).toEqual([passport, photo].sort());
    expect(await named(withoutFiles)).toEqual([]);
    expect(await named(oddReference)).toEqual([]);
  });

  it('follows each write: a file the data stops naming is no longer recorded', async () => {
    const [a, b, c] = [await upload('a.pdf'), await upload('b.pdf'), await upload('c.pdf')];
    const id = await document({});
    await db
      .transaction()
      .execute((trx) =>
        recordMediaReferences(trx, id, { list: [{ file: file(a, 'a') }, { file: file(b, 'b') }] }),
      );
    expect(await named(id)).toEqual([a, b].sort());
    await db
      .transaction()
      .execute((trx) =>
        recordMediaReferences(trx, id, { list: [{ file: file(b, 'b') }, { file: file(c, 'c') }] }),
      );
    expect(await named(id)).toEqual([b, c].sort());
    await db.transaction().execute((trx) => recordMediaReferences(trx, id, { list: [] }));
    expect(await named(id)).toEqual([]);
  });
});
