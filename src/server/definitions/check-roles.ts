import {
  catalogReaderRoles,
  roleList,
  type CatalogDefinition,
  type WorkflowDefinition,
} from '../../core/definitions/types';
import type { WorkflowScope } from './check-references';
import { catalogFile, workflowFile, type DefinitionProblem, reportUnknown } from './problems';

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
        `role "${role}" may do none of the screen's actions (${actions.join(', ')})`,
      );
    });
  });
  const used = new Set([
    ...Object.values(workflow.actions).flatMap((action) => action.roles),
    ...workflow.lists.flatMap((list) => list.roles),
    ...workflow.screens.flatMap((screen) => screen.roles),
  ]);
  const unused = (role: string) => `role "${role}" is in no action, list or screen of the workflow`;
  reportUnknown(report, workflow.seeAll, '/seeAll', used, unused);
  // Who an action may assign the document to: declared where, and only where, it takes one.
  for (const [name, action] of Object.entries(workflow.actions)) {
    const pointer = `/actions/${name}`;
    if (action.payload === 'assignee' && !action.assignees)
      report(pointer, 'an action taking an assignee names the roles they must hold (assignees)');
    if (action.assignees && action.payload !== 'assignee')
      report(`${pointer}/assignees`, 'assignees are for an action whose payload is "assignee"');
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

/** Every role (its full code) a definition names, with the first place that names it. */
export function namedRoles(
  workflows: readonly WorkflowDefinition[],
  catalogs: readonly CatalogDefinition[],
): Map<string, NamedRole> {
  const named = new Map<string, NamedRole>();
  let owner: RoleOwner;
  const note = (role: string, file: string, pointer: string) => {
    if (!named.has(role)) named.set(role, { file, pointer, owner });
  };
  for (const workflow of workflows) {
    const file = workflowFile(workflow.id);
    const lists: ReadonlyArray<readonly [at: string, roles: readonly string[]]> = [
      ...workflow.screens.map((screen, i) => [`/screens/${i}/roles`, screen.roles] as const),
      ...workflow.lists.map((list, i) => [`/lists/${i}/roles`, list.roles] as const),
      ...Object.entries(workflow.actions).flatMap(([name, action]) => [
        [`/actions/${name}/roles`, action.roles] as const,
        [`/actions/${name}/assignees`, action.assignees ?? []] as const,
      ]),
      ['/seeAll', workflow.seeAll],
      ['/certificate/roles', workflow.certificate?.roles ?? []],
    ];
    for (const [at, roles] of lists)
      roles.forEach((suffix, j) => {
        owner = { kind: 'workflow', id: workflow.id, suffix };
        note(`${workflow.rolePrefix}${suffix}`, file, `${at}/${j}`);
      });
  }
  for (const catalog of catalogs) {
    const file = catalogFile(catalog.id);
    owner = { kind: 'catalog', id: catalog.id, manages: false };
    for (const role of roleList(catalog.searcherRoles)) note(role, file, '/searcherRoles');
    owner = { kind: 'catalog', id: catalog.id, manages: true };
    for (const role of catalogReaderRoles(catalog)) note(role, file, '/managerRoles');
  }
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
): DefinitionProblem[] {
  return [...namedRoles(workflows, catalogs)]
    .filter(([role]) => !granted.has(role))
    .map(([role, { file, pointer }]) => ({
      file,
      pointer,
      message: `no access unit grants the role "${role}": nobody holds it`,
    }));
}
