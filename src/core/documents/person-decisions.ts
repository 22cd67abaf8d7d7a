import { isNode } from '../definitions/json';
import { resolvePointer } from '../rules/registry';
import type { WorkflowPersons } from './workflow';

/** What an action decided for one person (docs/workflows.md, "A decision per person"). */
export interface PersonDecision {
  /** The person's name as it stood when decided, written by the server. */
  person?: string;
  outcome?: 'GRANTED' | 'REFUSED';
  conditions?: Array<{ code: string; description?: string }>;
  reason?: string;
}

/** One of the document's people: the main person (index 0) or an item of the list. */
export interface DecidedPerson {
  /** 0 for the main person, 1 + the item's index for the list's. */
  index: number;
  name: string;
  /** The item of the list; undefined for the main person. */
  item?: Record<string, unknown>;
}

const joined = (parts: unknown[]) =>
  parts.filter((p): p is string => typeof p === 'string' && p.trim() !== '').join(' ');

/** Every person the document is for, the main person first. */
export function personsOf(persons: WorkflowPersons, data: unknown): DecidedPerson[] {
  const main = { index: 0, name: joined(persons.main.map((p) => resolvePointer(data, p))) };
  const list = resolvePointer(data, persons.list);
  const others = (Array.isArray(list) ? list : []).map((item: unknown, i) => {
    const fields = isNode(item) ? item : {};
    return { index: i + 1, name: joined(persons.name.map((f) => fields[f])), item: fields };
  });
  return [main, ...others];
}

/** The decisions written at `persons.decisions`, by person index (none: an empty list). */
export function decisionsOf(persons: WorkflowPersons, data: unknown): PersonDecision[] {
  const value = resolvePointer(data, persons.decisions);
  return Array.isArray(value) ? value.map((d: unknown) => (isNode(d) ? d : {})) : [];
}

/** Whether a person was refused (a document decided before decisions per person: nobody). */
export function personRefused(persons: WorkflowPersons | undefined, data: unknown, index: number) {
  return persons !== undefined && decisionsOf(persons, data)[index]?.outcome === 'REFUSED';
}

/** A decision missing or incomplete: the pointer and the rule, as the server answers them. */
export interface DecisionProblem {
  path: string;
  rule: 'personDecision' | 'refusalReason' | 'noPersonGranted';
  params?: Record<string, string>;
}

/**
 * The decisions a deciding action takes: as given, or, for a document of one person that gives
 * none, that person granted (nobody else to tell apart; the document's own conditions apply).
 */
export function decisionsTaken(persons: WorkflowPersons, data: unknown): PersonDecision[] {
  const given = decisionsOf(persons, data);
  if (given.length === 0 && personsOf(persons, data).length === 1) return [{ outcome: 'GRANTED' }];
  return given;
}

/**
 * What a deciding action's decisions lack: a decision for every person, a reason for each
 * refusal, at least one person granted (else the document is to be rejected as a whole).
 */
export function decisionProblems(persons: WorkflowPersons, data: unknown): DecisionProblem[] {
  const people = personsOf(persons, data);
  const decisions = decisionsTaken(persons, data);
  const problems: DecisionProblem[] = [];
  for (const person of people) {
    const decision = decisions[person.index];
    const at = `${persons.decisions}/${person.index}`;
    const params = { person: person.name };
    if (decision?.outcome !== 'GRANTED' && decision?.outcome !== 'REFUSED')
      problems.push({ path: `${at}/outcome`, rule: 'personDecision', params });
    else if (decision.outcome === 'REFUSED' && !decision.reason?.trim())
      problems.push({ path: `${at}/reason`, rule: 'refusalReason', params });
  }
  if (problems.length === 0 && !decisions.some((d) => d.outcome === 'GRANTED'))
    problems.push({ path: persons.decisions, rule: 'noPersonGranted' });
  return problems;
}

/**
 * The decisions as written: one per person in order, each named, a refused person's conditions
 * dropped and a granted person's reason dropped (what one outcome says is not kept for the other).
 */
export function writtenDecisions(persons: WorkflowPersons, data: unknown): PersonDecision[] {
  const decisions = decisionsTaken(persons, data);
  return personsOf(persons, data).map(({ index, name }) => {
    const { outcome, conditions, reason } = decisions[index] ?? {};
    return outcome === 'REFUSED'
      ? { person: name, outcome, reason: reason?.trim() ?? '' }
      : { person: name, outcome, conditions: conditions ?? [] };
  });
}
