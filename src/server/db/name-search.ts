import { sql, type RawBuilder } from 'kysely';
import type { ListNameSearch } from '../../core/definitions/shapes/list';
import { literalPath } from './verification-indexes';

/**
 * A list's name search (docs/lists.md, "Name search") as SQL: the names of a document folded
 * into one key, indexed by a trigram GiST index (db/list-indexes.ts) that finds the keys close
 * to a searched name and gives them nearest first. The index and the search use the same text
 * of the expression, so the planner matches them.
 */

/** Letters with marks, either case, and the plain letter each is folded to. */
const MARKED = [
  ...'àáâãäåāăąǎèéêëēĕėęěìíîïĩīĭįòóôõöōŏőǒùúûüũūŭůűųǔýÿŷçćĉċčďñńņňŕřśŝşšţťźżžĝğġģĥĵķĺļľŵ',
]
  .flatMap((letter) => [letter, letter.toUpperCase()])
  .filter((letter, i, all) => all.indexOf(letter) === i);
const PLAIN = MARKED.map((letter) => letter.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase());
/** Hyphens part names as spaces do; apostrophes and the ʻokina are dropped (Faʻamausili). */
const SPACED = '-';
const DROPPED = "ʻʼ'’‘`";

if (PLAIN.some((letter) => letter.length !== 1))
  throw new Error('a marked letter does not fold to one letter');

function quote(text: string): string {
  return `'${text.replace(/'/g, "''")}'`;
}

/** `text` (SQL) folded: lower case, marks off, hyphens as spaces, apostrophes gone, `alike` applied. */
function foldSql(text: string, alike: ListNameSearch['alike']): string {
  let folded = `translate(lower(coalesce(${text}, '')), ${quote(
    MARKED.join('') + SPACED + DROPPED,
  )}, ${quote(PLAIN.join('') + ' ')})`;
  for (const [written, taken] of alike ?? [])
    folded = `replace(${folded}, ${quote(written.toLowerCase())}, ${quote(taken.toLowerCase())})`;
  return folded;
}

/** The names of a document as one folded key: each field's folded text, spaced. */
export function nameKeySql(search: ListNameSearch): string {
  return `(${search.pointers
    .map((pointer) => foldSql(`data #>> ${literalPath(pointer)}`, search.alike))
    .join(` || ' ' || `)})`;
}

/** The search's name folded as the keys are, its value bound. */
function foldedName(search: ListNameSearch, name: string): RawBuilder<string> {
  // The value is bound as $n in place of the folded text's column.
  const [before, after] = foldSql('\u0000', search.alike).split('\u0000') as [string, string];
  return sql<string>`${sql.raw(before)}${name}${sql.raw(after)}`;
}

/** What a name search adds to a list's search: its condition and its order (closest first). */
export function nameSearchSql(
  search: ListNameSearch,
  name: string,
): { matches: RawBuilder<boolean>; distance: RawBuilder<number> } {
  const key = sql.raw(nameKeySql(search));
  const folded = foldedName(search, name);
  return {
    // The key holds a word close to the name (pg_trgm's word similarity, 0.6 by default).
    matches: sql<boolean>`(${key} %> ${folded})`,
    // One minus that similarity: the GiST index gives the keys in this order.
    distance: sql<number>`(${key} <->> ${folded})`,
  };
}
