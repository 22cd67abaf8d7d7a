import { FLAGS_COLUMN, flagTextKey } from '../../core/documents/case-work';
import { LANGUAGES, lookup } from '../../core/i18n/translate';
import type { WorkflowScope } from './check-references';
import { said } from './problems';

/**
 * Case notes and flags (docs/workflows.md, "Case notes and flags"): each flag has its name in
 * every language; the roles they name are roles of the workflow (an action's or `seeAll`'s),
 * else nobody would hold them; a list filters on and shows only flags the workflow declares.
 */
export function checkCaseWork({ workflow, translations, report }: WorkflowScope): void {
  const declaredRoles = new Set([
    ...workflow.seeAll,
    ...Object.values(workflow.actions).flatMap((action) => action.roles),
  ]);
  const checkRoles = (roles: readonly string[] | undefined, at: string) =>
    (roles ?? []).forEach((role, i) => {
      if (!declaredRoles.has(role))
        report(
          `${at}/${i}`,
          said('caseWorkRoleUnknown', { role: `${workflow.rolePrefix}${role}` }),
        );
    });
  checkRoles(workflow.caseNotes?.roles, '/caseNotes/roles');
  const flags = workflow.flags ?? {};
  for (const [flag, declaration] of Object.entries(flags)) {
    checkRoles(declaration.roles, `/flags/${flag}/roles`);
    const key = flagTextKey(workflow.id, flag);
    for (const language of LANGUAGES) {
      const tree = translations[language];
      if (!tree || lookup(tree, key) === undefined)
        report(`/flags/${flag}`, said('flagWithoutText', { flag, key, language }));
    }
  }
  workflow.lists.forEach((list, i) => {
    (list.flagFilter ?? []).forEach((flag, j) => {
      if (!Object.hasOwn(flags, flag))
        report(`/lists/${i}/flagFilter/${j}`, said('flagNotDeclared', { flag }));
    });
    list.columns.forEach((column, j) => {
      if (column.field === FLAGS_COLUMN && !column.pointer && !workflow.flags)
        report(`/lists/${i}/columns/${j}/field`, said('flagsColumnWithoutFlags'));
    });
  });
}
