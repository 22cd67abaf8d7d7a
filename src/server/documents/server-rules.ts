import type { Kysely } from 'kysely';
import type { RuleProblem, RuleUse } from '../../core/rules/types';
import { paramsOf, resolvePointer } from '../../core/rules/registry';
import type { Database } from '../db/schema';
import { catalogsIn, type CatalogReader } from '../catalog/valid-at';
import { findReferenced } from './store/lookups';

export interface ServerRuleContext {
  db: Kysely<Database>;
  document: Record<string, unknown>;
  now: Date;
  /** The catalogues as this process keeps them; without it they are read through `db`. */
  catalogs?: CatalogReader;
}

/** A rule only the server can decide, because it reads the database. */
export type ServerRule = (
  value: unknown,
  use: RuleUse,
  context: ServerRuleContext,
) => Promise<boolean>;

/** Rules marked `"server": true`; modules bring theirs through `defineModule`. */
export const ENGINE_SERVER_RULES: Readonly<Record<string, ServerRule>> = {
  catalogEntryExists,
  documentReference,
};

export async function runServerRules(
  uses: readonly RuleUse[],
  context: ServerRuleContext,
  rules: ReadonlyMap<string, ServerRule>,
): Promise<RuleProblem[]> {
  const problems: RuleProblem[] = [];
  for (const use of uses.filter((u) => u.server)) {
    const rule = rules.get(use.rule);
    const ok = rule ? await rule(resolvePointer(context.document, use.path), use, context) : false;
    if (!ok) {
      problems.push({
        path: use.path,
        rule: use.rule,
        message: use.message ?? `validation.${use.rule}`,
        params: paramsOf(use),
      });
    }
  }
  return problems;
}

/** The value names an entry of `use.catalog` valid now (empty passes: the schema decides). */
async function catalogEntryExists(
  value: unknown,
  use: RuleUse,
  { db, now, catalogs }: ServerRuleContext,
): Promise<boolean> {
  if (value === undefined || value === null || value === '') return true;
  if (typeof value !== 'string' || typeof use.catalog !== 'string') return false;
  return (catalogs ?? catalogsIn(db)).isValidAt(use.catalog, value, now);
}

/**
 * The value is the number (or the `use.field`, e.g. `/header/reference`) of a `use.documentType`
 * in one of `use.status`, not expired at `use.expiry`. Empty passes: the schema decides.
 */
async function documentReference(
  value: unknown,
  use: RuleUse,
  context: ServerRuleContext,
): Promise<boolean> {
  if (value === undefined || value === null || value === '') return true;
  return (await referencedData(value, use, context)) !== undefined;
}

/** The data of the document a `documentReference` names, when it is valid; else undefined. */
export async function referencedData(
  value: unknown,
  use: RuleUse,
  { db, now }: Pick<ServerRuleContext, 'db' | 'now'>,
): Promise<Record<string, unknown> | undefined> {
  if (typeof value !== 'string' || typeof use.documentType !== 'string') return undefined;
  const statuses = Array.isArray(use.status) ? use.status.map(String) : [];
  // Locked for share: a status change racing this check waits for it or is seen (lookups.ts).
  const row = await findReferenced(
    db,
    use.documentType,
    value,
    typeof use.field === 'string' ? use.field : undefined,
    'share',
  );
  if (!row || !statuses.includes(row.status)) return undefined;
  if (typeof use.expiry !== 'string') return row.data;
  const expiry = resolvePointer(row.data, use.expiry);
  const valid = typeof expiry === 'string' && expiry.slice(0, 10) >= now.toISOString().slice(0, 10);
  return valid ? row.data : undefined;
}
