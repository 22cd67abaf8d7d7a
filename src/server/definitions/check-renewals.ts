import { escapeSegment } from '../../core/rules/registry';
import { NEW_STATE } from '../../core/documents/workflow';
import { schemaHasField } from './check-records';
import type { WorkflowScope } from './check-references';
import { said } from './problems';

/** The engine's effects these declarations bring (renewals.ts). */
const FLAG_EFFECT = 'flagReferring';
const EXTEND_EFFECT = 'extendValidity';

/**
 * A workflow's `renewal` and `referencedBy` (docs/workflows.md, "Renewals, suspensions and
 * documents naming a document"): every action, status, section and field they name exists, the
 * renewal starts by a creation action a person takes and fires system actions, its link is out
 * of the owner's reach, and the referring type's field, columns, flag and statuses exist. The
 * effects they bring are named only where they do something.
 */
export function checkRenewals(scope: WorkflowScope): void {
  const { workflow, entity, report, workflows, schemas } = scope;
  const states = workflow.machine.states as Record<string, { on?: Record<string, unknown> }>;
  const renewal = workflow.renewal;
  if (renewal) {
    const start = workflow.actions[renewal.start];
    if (!start) report('/renewal/start', said('noAction', { action: renewal.start }));
    else if (start.system || !states[NEW_STATE]?.on?.[renewal.start])
      report('/renewal/start', said('renewalStartNotCreation', { action: renewal.start }));
    renewal.statuses.forEach((status, i) => {
      if (!states[status]) report(`/renewal/statuses/${i}`, said('noStatus', { status }));
    });
    const sections = Object.keys(
      (entity?.schema as { properties?: Record<string, unknown> } | undefined)?.properties ?? {},
    );
    renewal.copy.forEach((section, i) => {
      if (entity && !sections.includes(section))
        report(`/renewal/copy/${i}`, said('noSection', { section }));
    });
    // The link is the server's to write: in a section its owner edits, they could renew another.
    const linkSection = renewal.link.split('/')[1] ?? '';
    const section = entity?.sections?.find((s) => s.id === linkSection);
    const officer = section?.officer === true || section?.internal === true;
    if (entity && !officer)
      report('/renewal/link', said('renewalLinkEditable', { section: linkSection }));
    for (const [action, fired] of Object.entries(renewal.fires)) {
      const pointer = `/renewal/fires/${escapeSegment(action)}`;
      if (!workflow.actions[action]) report(pointer, said('noAction', { action }));
      const target = workflow.actions[fired];
      if (!target) report(pointer, said('noAction', { action: fired }));
      else if (!target.system) report(pointer, said('renewalFiresSystem', { action: fired }));
    }
  }
  const referencedBy = Object.entries(workflow.referencedBy ?? {});
  for (const [name, referring] of referencedBy) {
    const at = `/referencedBy/${name}`;
    const other = workflows.find((w) => w.id === referring.type);
    if (!other) continue; // an unknown type is the references' check's (documentType)
    const schema = schemas.find((s) => s.id === other.document)?.schema;
    if (schema && !schemaHasField(schema, referring.pointer))
      report(`${at}/pointer`, said('noField', { field: referring.pointer }));
    referring.columns.forEach((column, i) => {
      if (Boolean(column.field) === Boolean(column.pointer))
        report(`${at}/columns/${i}`, said('referringColumnFieldOrPointer'));
      else if (column.pointer && schema && !schemaHasField(schema, column.pointer))
        report(`${at}/columns/${i}/pointer`, said('noField', { field: column.pointer }));
    });
    if (referring.flag) {
      if (!other.flags?.[referring.flag.name])
        report(
          `${at}/flag/name`,
          said('referringFlagUnknown', { flag: referring.flag.name, type: other.id }),
        );
      const otherStates = other.machine.states as Record<string, unknown>;
      referring.flag.statuses.forEach((status, i) => {
        if (!otherStates[status]) report(`${at}/flag/statuses/${i}`, said('noStatus', { status }));
      });
    }
  }
  const flags = referencedBy.some(([, referring]) => referring.flag);
  for (const [name, action] of Object.entries(workflow.actions))
    for (const list of ['before', 'effects'] as const)
      (action[list] ?? []).forEach((effect, i) => {
        const pointer = `/actions/${name}/${list}/${i}`;
        if (effect === FLAG_EFFECT && !flags)
          report(pointer, said('flagReferringWithoutFlag', { effect }));
        if (effect === EXTEND_EFFECT && (!workflow.validity || !renewal))
          report(pointer, said('extendWithoutRenewal', { effect }));
      });
}
