import type { Kysely } from 'kysely';
import type { DefinitionBundle } from '../../core/definitions/types';
import { LANGUAGES, type Language, type TextTree } from '../../core/i18n/translate';
import type { Database } from '../db/schema';
import { moveStrandedDocuments, strandedStatuses } from '../documents/status-moves';
import { countByType } from '../documents/store/data-moves';
import { rolesGrantedBy } from '../implementations';
import type { ServerModule } from '../module';
import { ungrantedRoles } from './check-roles';
import type { DocumentImpact } from './document-impact';
import type { DefinitionFiles } from './files';
import { checkDefinitions, DefinitionsError } from './load';
import { checkDataMoves } from './migration-check';
import { checkStoredData, type MigrationPlan, type MoveWriter } from './migration-run';
import {
  checkerTextsOf,
  problemOf,
  said,
  wordProblems,
  workflowFile,
  type CheckerTexts,
  type DefinitionProblem,
  type SaidProblem,
} from './problems';

/** Whether a set may be published over the served one, and what it would do. */
export interface Verdict {
  /** Refusals: a set with any is not published. */
  problems: DefinitionProblem[];
  /** What should be seen but does not refuse (roles nobody holds). */
  warnings: DefinitionProblem[];
  /** The set, when its files are valid definitions. */
  bundle?: DefinitionBundle;
  /** Stored documents each changed type would refuse (when the documents were read). */
  impact?: DocumentImpact[];
  /** What each workflow's new `dataMoves` does (when the documents were read). */
  migrations?: MigrationPlan[];
}

export interface VerdictOptions {
  modules: readonly ServerModule[];
  /** The set served now, the stored documents' present definitions. */
  served: DefinitionBundle;
  /**
   * Read and validate every stored document of each changed type. A publish always does; a
   * check does for its Check button, not for the designers' previews after every change.
   */
  documents: boolean;
  /** Given by a publish: status and data moves are made in its transaction, while all is well. */
  writer?: MoveWriter;
  /** The language problems and warnings are worded in (the analyst's); English by default. */
  language?: Language;
}

/**
 * THE decision on a set of files, for a check (writing nothing) and a publish (in its
 * transaction, `writer` given) alike, so a check that passes is a publish that passes:
 * the definitions checker; the data moves' own rules; stored documents of a type the set no
 * longer has; documents in a status their machine no longer has (`statusMoves`); stored
 * documents the changed schemas would refuse once their `dataMoves` are made.
 */
export async function verdict(
  db: Kysely<Database>,
  files: DefinitionFiles,
  options: VerdictOptions,
): Promise<Verdict> {
  const decided = await decide(db, files, options);
  // The draft's own texts first (a text added with the check that needs it), then those served.
  const sources = [draftCheckerTexts(files), checkerTextsOf(options.served.translations)];
  const language = options.language ?? 'en';
  return {
    ...decided,
    problems: wordProblems(decided.problems, sources, language, true),
    warnings: wordProblems(decided.warnings, sources, language, true),
  };
}

/** A verdict before its problems are worded for their reader. */
type Decided = Omit<Verdict, 'problems' | 'warnings'> & {
  problems: SaidProblem[];
  warnings: SaidProblem[];
};

async function decide(
  db: Kysely<Database>,
  files: DefinitionFiles,
  options: VerdictOptions,
): Promise<Decided> {
  let bundle: DefinitionBundle;
  try {
    bundle = await checkDefinitions(files, options.modules);
  } catch (error) {
    if (error instanceof DefinitionsError && error.said)
      return { problems: [...error.said], warnings: [] };
    throw error;
  }
  const problems = checkDataMoves(bundle);
  problems.push(...(await removedTypes(db, options.served, bundle)));
  problems.push(...(await strandedStatuses(db, bundle.workflows)).problems);
  const warnings = await ungranted(db, options.modules, bundle);
  const writer = problems.length === 0 ? options.writer : undefined;
  const stored = options.documents
    ? await checkStoredData(db, options.served, bundle, { writer })
    : undefined;
  problems.push(...(stored?.problems ?? []));
  // Statuses last: the data check tells drafts by the statuses they are stored in now.
  if (writer && problems.length === 0) await moveStrandedDocuments(writer.trx, bundle.workflows);
  if (!stored) return { problems, warnings, bundle };
  return { problems, warnings, bundle, impact: stored.impact, migrations: stored.migrations };
}

/**
 * The checker's texts of a draft, read from its files as they are: a draft with problems may
 * have no loadable translations, yet its checker texts can still word them.
 */
function draftCheckerTexts(files: DefinitionFiles): CheckerTexts {
  const texts: CheckerTexts = {};
  for (const language of LANGUAGES) {
    const text = files.get(`translations/${language}/checker.json`);
    if (text === undefined) continue;
    try {
      const checker = JSON.parse(text) as unknown;
      if (typeof checker === 'object' && checker !== null)
        texts[language] = { checker: checker as TextTree };
    } catch {
      // Not JSON: the check says so; the served texts word it.
    }
  }
  return texts;
}

/** Stored documents of a type the served set has and `next` does not: they would be hidden. */
async function removedTypes(
  db: Kysely<Database>,
  served: DefinitionBundle,
  next: DefinitionBundle,
): Promise<SaidProblem[]> {
  const kept = new Set(next.workflows.map((workflow) => workflow.id));
  const removed = served.workflows.map((w) => w.id).filter((id) => !kept.has(id));
  return (await countByType(db, removed)).map(({ type, count }) =>
    problemOf(workflowFile(type), '', said('removedTypeHasDocuments', { count, type })),
  );
}

/** Roles the set names that no access unit grants: said, not refused. */
async function ungranted(
  db: Kysely<Database>,
  modules: readonly ServerModule[],
  bundle: DefinitionBundle,
): Promise<SaidProblem[]> {
  const granted = await rolesGrantedBy(modules, (g) => g.stored(db, bundle));
  return granted ? ungrantedRoles(bundle.workflows, bundle.catalogs, granted) : [];
}
