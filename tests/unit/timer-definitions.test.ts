import { afterEach, describe, expect, it } from 'vitest';
import type { WorkflowDefinition } from '../../src/core/documents/workflow';
import { serverModules } from '../../src/modules/server';
import { DefinitionsError, loadDefinitions } from '../../src/server/definitions/load';
import { copyDefinitions, readProjectJson } from '../support/definitions-dir';

/**
 * A workflow's timers (docs/workflows.md, "Timers") are checked at load: each `after` names a
 * declared timer, each timer is named by a status, fires a system action of the workflow,
 * waits until a date field, and its reminders have their texts in English and French.
 */
describe('timers declared by a workflow', () => {
  const cleanup: Array<() => Promise<void>> = [];
  afterEach(async () => {
    for (const remove of cleanup.splice(0)) await remove();
  });

  type Change = (workflow: WorkflowDefinition) => void;
  const problemsWith = async (change: Change) => {
    const copy = await copyDefinitions();
    cleanup.push(copy.remove);
    const workflow = await readProjectJson<WorkflowDefinition>('workflows/visa-application.json');
    change(workflow);
    await copy.write('workflows/visa-application.json', workflow);
    const refused = await loadDefinitions(copy.dir, serverModules).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(DefinitionsError);
    return (refused as DefinitionsError).problems.map((p) => `${p.pointer}: ${p.message}`);
  };
  const states = (workflow: WorkflowDefinition) =>
    workflow.machine.states as Record<string, { after?: Record<string, { target: string }> }>;

  it('refuses an after naming no declared timer', async () => {
    const problems = await problemsWith((w) => {
      states(w).QUERIED!.after = {
        responseDue: { target: 'NO REPLY' },
        replyDue: { target: 'NO REPLY' },
      };
    });
    expect(problems).toContain(
      '/machine/states/QUERIED/after/replyDue: "replyDue" is not a timer the workflow declares: add it to "timers", or correct the name',
    );
  });

  it('refuses a timer no status names', async () => {
    const problems = await problemsWith((w) => {
      w.timers!.unused = { wait: { days: 3 }, action: 'lapse' };
    });
    expect(problems).toContain(
      '/timers/unused: timer "unused" is named in the "after" of no status, so it never runs: name it in a status, or remove it',
    );
  });

  it('refuses a timer firing an action that is not a system one, or none', async () => {
    const open = await problemsWith((w) => {
      w.timers!.responseDue!.action = 'reject';
    });
    expect(open).toContain(
      '/timers/responseDue/action: action "reject" fired by a timer is not a system action: any caller could take it. Add "system": true to it, or name a system action',
    );
    const missing = await problemsWith((w) => {
      w.timers!.responseDue!.action = 'vanish';
    });
    expect(missing).toContain('/timers/responseDue/action: no action "vanish"');
  });

  it('refuses waiting until a field that is no date', async () => {
    const problems = await problemsWith((w) => {
      w.timers!.responseDue!.wait = { until: '/applicant/familyName', days: 28 };
    });
    expect(problems).toContain(
      '/timers/responseDue/wait/until: "/applicant/familyName" is not a date field of the schema: a timer waits until a field of format date or date-time',
    );
  });

  it('refuses a reminder whose texts are missing in a language', async () => {
    const problems = await problemsWith((w) => {
      w.timers!.responseDue!.reminders![0]!.message = 'visa-application.reminders.nowhere';
    });
    expect(problems).toEqual(
      expect.arrayContaining([
        '/timers/responseDue/reminders/0/message: the reminder has no text "visa-application.reminders.nowhere.subject" in en: add it to translations/en/',
        '/timers/responseDue/reminders/0/message: the reminder has no text "visa-application.reminders.nowhere.body" in fr: add it to translations/fr/',
      ]),
    );
  });

  it('counts a status only a timer leads to as reachable, and the timer’s action as used', async () => {
    const copy = await copyDefinitions();
    cleanup.push(copy.remove);
    const bundle = await loadDefinitions(copy.dir, serverModules);
    const visa = bundle.workflows.find((w) => w.id === 'visa-application');
    expect(visa?.timers?.responseDue?.action).toBe('lapse');
  });
});
