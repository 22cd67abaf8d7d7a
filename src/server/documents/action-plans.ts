import type { AnyStateMachine } from 'xstate';
import type { WorkflowAction, WorkflowDefinition } from '../../core/documents/workflow';
import type { Principal } from '../auth/principal';
import { perObject } from './memo';
import { nextStatus, standingAnswer, type StandingAnswer, type WorkflowEvent } from './machine';

/** An action the caller may take in a status, unless the machine's guards say no. */
export interface PlannedAction {
  name: string;
  /** The machine's answer depends on the document (a guard has a say): ask it per document. */
  guarded: boolean;
}

/** What a workflow's plans are made from (a compiled workflow). */
export interface PlannedWorkflow {
  definition: WorkflowDefinition;
  machine: AnyStateMachine;
  rolesOf(action: WorkflowAction): string[];
}

/** Plans kept per workflow at most; past it they are all dropped and made again as asked. */
const MAX_PLANS = 5_000;

/**
 * The actions a caller may take as far as the data does not decide, made once per status, roles
 * and ownership (the machine per read cost a tenth of a read); guarded ones are asked per document.
 */
export class ActionPlans {
  private readonly plans = new Map<string, readonly PlannedAction[]>();
  /** The machine's standing answer to each event asked, by status. */
  private readonly answers = new Map<string, Map<string, StandingAnswer>>();
  /** The roles any action a caller may take names: the other roles change no plan. */
  private readonly actionRoles: ReadonlySet<string>;
  private readonly actions: ReadonlyArray<readonly [string, WorkflowAction, readonly string[]]>;

  constructor(private readonly workflow: PlannedWorkflow) {
    this.actions = Object.entries(workflow.definition.actions)
      .filter(([, action]) => !action.system)
      .map(([name, action]) => [name, action, workflow.rolesOf(action)] as const);
    this.actionRoles = new Set(this.actions.flatMap(([, , roles]) => roles));
  }

  /** The plan for a caller in a status, owner of the document or not. */
  of(status: string, principal: Principal, owner: boolean): readonly PlannedAction[] {
    const held = [...new Set(principal.roles.filter((role) => this.actionRoles.has(role)))].sort();
    const key = `${owner ? 1 : 0}\u0000${status}\u0000${held.join('\u0000')}`;
    let plan = this.plans.get(key);
    if (!plan) {
      plan = this.plan(status, new Set(held), owner);
      if (this.plans.size >= MAX_PLANS) this.plans.clear();
      this.plans.set(key, plan);
    }
    return plan;
  }

  /** `nextStatus`, the machine run only when a guard has a say. */
  next(status: string, event: WorkflowEvent): string | undefined {
    const answer = this.answer(status, event.type);
    if (answer.kind === 'always') return answer.target;
    if (answer.kind === 'never') return undefined;
    return nextStatus(this.workflow.machine, status, event);
  }

  private plan(status: string, held: ReadonlySet<string>, owner: boolean): PlannedAction[] {
    const plan: PlannedAction[] = [];
    for (const [name, action, roles] of this.actions) {
      if (!roles.some((role) => held.has(role))) continue;
      if (action.owner && !owner) continue;
      const answer = this.answer(status, name);
      if (answer.kind !== 'never') plan.push({ name, guarded: answer.kind === 'guarded' });
    }
    return plan;
  }

  /** The machine's standing answer to an action in a status, asked once. */
  private answer(status: string, action: string): StandingAnswer {
    let answers = this.answers.get(status);
    if (!answers) this.answers.set(status, (answers = new Map()));
    let answer = answers.get(action);
    if (!answer) {
      answer = standingAnswer(this.workflow.machine, status, action);
      answers.set(action, answer);
    }
    return answer;
  }
}

/** The plans of a compiled workflow, made the first time they are asked for. */
export const actionPlansOf = perObject((workflow: PlannedWorkflow) => new ActionPlans(workflow));
