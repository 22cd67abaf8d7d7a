import { sql } from 'kysely';
import { listAt, numberAt } from '../../db/verification-indexes';
import { dataText } from './lists';
import type { Queryable } from './rows';
import { storeDb } from './tables';

/*
 * The public check's lookups by a number the data keeps rather than the number column: each
 * served by the index its declaration makes (db/verification-indexes.ts), never by reading
 * every document of the type. Like `documentsNumbered`, they read a few fields (columns p0,
 * p1...), never the whole data.
 */

/** The numbers nothing holds: PostgreSQL text has no NUL character, and refuses one given. */
export const unstorable = (number: string) => number.includes('\u0000');

/** The documents of `type` whose text at `pointer` is `number` (tests read the query's plan). */
export function numberAtLookup(
  db: Queryable,
  type: string,
  pointer: string,
  number: string,
  pointers: readonly string[],
) {
  return storeDb(db)
    .selectFrom('document')
    .select(['id', 'type', 'status', numberAt(pointer).as('number')])
    .select(pointers.map((p, i) => dataText(p).as(`p${i}`)))
    .where('type', '=', type)
    .where(numberAt(pointer), '=', number);
}

/** The documents of `type` with an item of `list` holding `number`, that item as `holder`. */
export function holderLookup(
  db: Queryable,
  type: string,
  list: string,
  itemNumber: string,
  number: string,
  pointers: readonly string[],
) {
  // `[{"visaNumber": "VA-..."}]`: containment, as the GIN index (jsonb_path_ops) answers it.
  const segments = itemNumber.split('/').slice(1);
  const probe = segments.reduceRight<unknown>((inner, segment) => ({ [segment]: inner }), number);
  const path = `{${segments.join(',')}}`;
  return storeDb(db)
    .selectFrom('document')
    .select(['id', 'type', 'status'])
    .select(pointers.map((p, i) => dataText(p).as(`p${i}`)))
    .select(
      sql<unknown>`(select jsonb_build_object('item', item, 'index', position - 1)
        from jsonb_array_elements(${listAt(list)}) with ordinality as holders(item, position)
        where item #>> ${path} = ${number} limit 1)`.as('holder'),
    )
    .where('type', '=', type)
    .where(sql<boolean>`${listAt(list)} @> ${JSON.stringify([probe])}::jsonb`);
}
