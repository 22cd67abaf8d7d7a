import { LANGUAGES, hasText } from '../../core/i18n/translate';
import { escapeSegment } from '../../core/rules/registry';
import type { WorkflowScope } from './check-references';
import { alternatives, nodesAt } from './check-records';
import { said } from './problems';

/** The formats a timer may wait until: a date (its start, UTC) or a date-time. */
const DATE_FORMATS = new Set(['date', 'date-time']);

/**
 * A workflow's timers (docs/workflows.md, "Timers") lead somewhere: each `after` of a status
 * names a declared timer and leads to a status; each timer is named by some status, fires a
 * system action of the workflow, waits until a date field of the schema, and its reminders have
 * their texts in every language. Otherwise a timer would never fire, fire what any caller may
 * take, or send a holder a text key.
 */
export function checkTimers({ workflow, entity, translations, report }: WorkflowScope): void {
  const declared = workflow.timers ?? {};
  const statuses = new Set(Object.keys(workflow.machine.states));
  const used = new Set<string>();
  for (const [status, state] of Object.entries(workflow.machine.states)) {
    const after = (state as { after?: Record<string, { target?: unknown }> }).after ?? {};
    for (const [name, transition] of Object.entries(after)) {
      const at = `/machine/states/${escapeSegment(status)}/after/${escapeSegment(name)}`;
      used.add(name);
      if (!Object.hasOwn(declared, name)) report(at, said('unknownTimer', { timer: name }));
      const target = transition.target;
      if (typeof target === 'string' && !statuses.has(target))
        report(`${at}/target`, said('unknownTarget', { target }));
    }
  }
  for (const [name, timer] of Object.entries(declared)) {
    const at = `/timers/${escapeSegment(name)}`;
    if (!used.has(name)) report(at, said('unusedTimer', { timer: name }));
    const action = workflow.actions[timer.action];
    if (!action) report(`${at}/action`, said('noAction', { action: timer.action }));
    else if (!action.system)
      report(`${at}/action`, said('timerActionNotSystem', { action: timer.action }));
    if ('until' in timer.wait && entity) {
      const nodes = nodesAt(entity.schema, timer.wait.until).flatMap(alternatives);
      // A pointer naming no field is the references' check's to report.
      if (nodes.length > 0 && !nodes.some((node) => DATE_FORMATS.has(String(node.format))))
        report(`${at}/wait/until`, said('timerNotDate', { pointer: timer.wait.until }));
    }
    (timer.reminders ?? []).forEach((reminder, index) => {
      for (const language of LANGUAGES)
        for (const part of ['subject', 'body'])
          if (!hasText(translations, language, `${reminder.message}.${part}`))
            report(
              `${at}/reminders/${index}/message`,
              said('timerReminderText', { key: `${reminder.message}.${part}`, language }),
            );
    });
  }
}
