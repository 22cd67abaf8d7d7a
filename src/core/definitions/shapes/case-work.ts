/** Officers' own work on a document: internal case notes and flags (docs/workflows.md). */
import { record, roleSuffixes, some, strict, Type, type Static } from './kit';

/** A flag's name: what its texts (`<workflow>.flags.<name>`) and the stored column hold. */
export const FLAG_NAME_PATTERN = '^[a-z][a-zA-Z0-9]*$';
export const flagName = Type.String({ pattern: FLAG_NAME_PATTERN, maxLength: 40 });

/**
 * `caseNotes`: an internal thread of notes per document, read and written by holders of these
 * role suffixes who also see every document (`seeAll`); the document's owner never.
 */
export const WorkflowCaseNotes = strict({ roles: some(roleSuffixes.items) });
export type WorkflowCaseNotes = Static<typeof WorkflowCaseNotes>;

/** One flag an officer sets on a document; `roles`: who may set and clear it (else `seeAll`). */
export const WorkflowFlag = strict({ roles: Type.Optional(some(roleSuffixes.items)) });
export type WorkflowFlag = Static<typeof WorkflowFlag>;

/** `flags`: name -> flag, shown as badges to the officers and filtered on by lists. */
export const WorkflowFlags = record(WorkflowFlag, {
  minProperties: 1,
  propertyNames: { pattern: FLAG_NAME_PATTERN, maxLength: 40 },
});
export type WorkflowFlags = Static<typeof WorkflowFlags>;

/** A list's flags: which of the workflow's flags its finder offers to filter by. */
export const ListFlagFilter = some(flagName);
