import {
  roleList,
  type CatalogDefinition,
  type WorkflowDefinition,
} from '../../core/definitions/types';
import type { WorkflowScope } from './check-references';
import {
  catalogFile,
  problemOf,
  reportUnknown,
  said,
  workflowFile,
  type SaidProblem,
} from './problems';

/**
 * Roles must fit together or people are turned away with no reason: a screen's role may do one
 * of its actions, and `seeAll` and `assignees` roles are used by the workflow.
 */
export function checkWorkflowRoles({ workflow, report }: WorkflowScope) {
  workflow.screens.forEach((screen, i) => {
    const actions = (screen.actions ?? []).filter((name) => workflow.actions[name]);
    if (actions.length === 0) return;
    screen.roles.forEach((role, j) => {
      if (actions.some((name) => workflow.actions[name]?.roles.includes(role))) return;
      report(
        `/screens/${i}/roles/${j}`,
        said('roleDoesNoScreenAction', { role, actions: actions.join(', ') }),
      );
    });
  });
  const used = new Set([
    ...Object.values(workflow.actions).flatMap((action) => action.roles),
    ...workflow.lists.flatMap((list) => list.roles),
    ...workflow.screens.flatMap((screen) => screen.roles),
  ]);
  const unused = (role: string) => said('unusedRole', { role });
  reportUnknown(report, workflow.seeAll, '/seeAll', used, unused);
  // Who an action may assign the document to: declared where, and only where, it takes one.
  for (const [name, action] of Object.entries(workflow.actions)) {
    const pointer = `/actions/${name}`;
    if (action.payload === 'assignee' && !action.assignees)
      report(pointer, said('assigneesMissing'));
    if (action.assignees && action.payload !== 'assignee')
      report(`${pointer}/assignees`, said('assigneesWithoutPayload'));
    reportUnknown(report, action.assignees, `${pointer}/assignees`, used, unused);
  }
}

/** What a role is for, as its description says it: a workflow's role, or a catalogue's. */
export type RoleOwner =
  | { kind: 'workflow'; id: string; suffix: string }
  | { kind: 'catalog'; id: string; manages: boolean };

/** A role a definition names: the first place that names it, and what it is for. */
export interface NamedRole {
  file: string;
  pointer: string;
  owner: RoleOwner;
}

/**
 * One place a definition names a role: the file and pointer, what the role is for, and which
 * part names it (an action, a list or menu entry, a screen... of a workflow; a catalogue's
 * search or management), so a person can be told where each role is used.
 */
export interface RoleUse extends NamedRole {
  part: RolePart;
  /** The action's name, the list's id or the screen's path; absent for a whole workflow's. */
  name?: string;
}

export type RolePart =
  | 'screen'
  | 'list'
  | 'action'
  | 'assignees'
  | 'seeAll'
  | 'certificate'
  | 'catalogSearch'
  | 'catalogManage';

/** Every role (its full code) a definition names, with every place that names it, in order. */
export function roleUses(
  workflows: readonly WorkflowDefinition[],
  catalogs: readonly CatalogDefinition[],
): Map<string, RoleUse[]> {
  const uses = new Map<string, RoleUse[]>();
  const note = (role: string, use: RoleUse) => {
    const known = uses.get(role);
    if (known) known.push(use);
    else uses.set(role, [use]);
  };
  for (const workflow of workflows) {
    const file = workflowFile(workflow.id);
    type Named = readonly [at: string, roles: readonly string[], part: RolePart, name?: string];
    const lists: readonly Named[] = [
      ...workflow.screens.map(
        (screen, i) => [`/screens/${i}/roles`, screen.roles, 'screen', screen.path] as const,
      ),
      ...workflow.lists.map(
        (list, i) => [`/lists/${i}/roles`, list.roles, 'list', list.id] as const,
      ),
      ...Object.entries(workflow.actions).flatMap(([name, action]) => [
        [`/actions/${name}/roles`, action.roles, 'action', name] as const,
        [`/actions/${name}/assignees`, action.assignees ?? [], 'assignees', name] as const,
      ]),
      ['/seeAll', workflow.seeAll, 'seeAll'],
      ['/certificate/roles', workflow.certificate?.roles ?? [], 'certificate'],
    ];
    for (const [at, roles, part, name] of lists)
      roles.forEach((suffix, j) => {
        const owner: RoleOwner = { kind: 'workflow', id: workflow.id, suffix };
        const pointer = `${at}/${j}`;
        note(`${workflow.rolePrefix}${suffix}`, {
          file,
          pointer,
          owner,
          part,
          ...(name !== undefined && { name }),
        });
      });
  }
  for (const catalog of catalogs) {
    const file = catalogFile(catalog.id);
    const searches: RoleOwner = { kind: 'catalog', id: catalog.id, manages: false };
    for (const role of roleList(catalog.searcherRoles))
      note(role, { file, pointer: '/searcherRoles', owner: searches, part: 'catalogSearch' });
    const manages: RoleOwner = { kind: 'catalog', id: catalog.id, manages: true };
    for (const role of roleList(catalog.managerRoles))
      note(role, { file, pointer: '/managerRoles', owner: manages, part: 'catalogManage' });
  }
  return uses;
}

/** Every role (its full code) a definition names, with the first place that names it. */
export function namedRoles(
  workflows: readonly WorkflowDefinition[],
  catalogs: readonly CatalogDefinition[],
): Map<string, NamedRole> {
  const named = new Map<string, NamedRole>();
  for (const [role, [first]] of roleUses(workflows, catalogs))
    if (first) named.set(role, { file: first.file, pointer: first.pointer, owner: first.owner });
  return named;
}

/**
 * A role that no access unit grants is held by nobody: its screens, lists and actions are open
 * to no one until an administrator grants it. Not an error (a new workflow's roles are granted
 * after it is published), but said, naming where the role is used.
 */
export function ungrantedRoles(
  workflows: readonly WorkflowDefinition[],
  catalogs: readonly CatalogDefinition[],
  granted: ReadonlySet<string>,
): SaidProblem[] {
  return [...namedRoles(workflows, catalogs)]
    .filter(([role]) => !granted.has(role))
    .map(([role, { file, pointer }]) => problemOf(file, pointer, said('ungrantedRole', { role })));
}
