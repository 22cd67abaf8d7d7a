/**
 * Officers' own work on a document (docs/workflows.md, "Case notes and flags"): who reads and
 * writes its case notes, who sees and sets its flags. The server enforces these; the portal
 * asks the same questions to show the panel and the badges only to those it serves.
 */
import { fullRoles, type WorkflowDefinition } from './workflow';

/** The longest case note, in characters. */
export const CASE_NOTE_MAX_LENGTH = 4000;

/** The list column showing a document's flags (`field: "flags"`, no pointer). */
export const FLAGS_COLUMN = 'flags';

type Roles = readonly string[];
type Declared = Pick<WorkflowDefinition, 'rolePrefix' | 'seeAll' | 'caseNotes' | 'flags' | 'inbox'>;

const holds = (roles: Roles, wanted: readonly string[]) => wanted.some((r) => roles.includes(r));

/**
 * An officer of the workflow: sees every document of it (`seeAll`). A message's writer is no
 * officer of it (an inbox shows one's own only).
 */
export function isCaseOfficer(workflow: Declared, roles: Roles): boolean {
  return !workflow.inbox && holds(roles, fullRoles(workflow, workflow.seeAll));
}

/** May read and write the case notes of a document they do not own. */
export function mayUseCaseNotes(workflow: Declared, roles: Roles): boolean {
  return (
    workflow.caseNotes !== undefined &&
    isCaseOfficer(workflow, roles) &&
    holds(roles, fullRoles(workflow, workflow.caseNotes.roles))
  );
}

/** May see the flags of a document they do not own. */
export function maySeeFlags(workflow: Declared, roles: Roles): boolean {
  return workflow.flags !== undefined && isCaseOfficer(workflow, roles);
}

/** May set and clear this flag: its roles, else the workflow's `seeAll`. */
export function maySetFlag(workflow: Declared, roles: Roles, flag: string): boolean {
  const declared =
    workflow.flags && Object.hasOwn(workflow.flags, flag) ? workflow.flags[flag] : undefined;
  if (!declared || !maySeeFlags(workflow, roles)) return false;
  return holds(roles, fullRoles(workflow, declared.roles ?? workflow.seeAll));
}

/** The history's actions of a flag set and cleared (no declared action has a colon), with their texts. */
export const FLAG_HISTORY_TEXTS: Readonly<Record<string, string>> = {
  'flag:set': 'case-work.flagSet',
  'flag:cleared': 'case-work.flagCleared',
};

/** The translation key of a flag's name. */
export const flagTextKey = (workflow: string, flag: string) => `${workflow}.flags.${flag}`;

/** Who wrote something: their subject and their name. */
export interface CaseWorker {
  subject: string;
  name: string;
}

/** A text an edit of a note replaced: its version, and who wrote it when. */
export interface CaseNoteEdit {
  version: number;
  text: string;
  by: CaseWorker;
  at: string;
}

/** A case note as the API answers it, with its earlier texts, oldest first. */
export interface CaseNote {
  id: string;
  version: number;
  text: string;
  author: CaseWorker;
  createdAt: string;
  updatedAt: string;
  updatedBy: CaseWorker;
  edits: CaseNoteEdit[];
}

/** A document's flags as the API answers them. */
export interface DocumentFlags {
  flags: string[];
}
