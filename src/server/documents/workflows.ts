import type { AnyStateMachine } from 'xstate';
import type { EntityDefinition } from '../../core/definitions/types';
import { stripRequired } from '../../core/definitions/strip-required';
import {
  fullRoles,
  workflowRoles,
  type WorkflowAction,
  type WorkflowDefinition,
} from '../../core/documents/workflow';
import { createAjv } from '../definitions/ajv';
import { compiledOnce } from '../definitions/compiled-once';
import type { DefinitionValidator, ValidatorSet } from '../definitions/validators';
import { buildMachine } from './machine';
import type { Implementations } from '../implementations';

/** A workflow made ready for requests: its machine, its entity and both validators. */
export interface CompiledWorkflow {
  definition: WorkflowDefinition;
  entity: EntityDefinition;
  machine: AnyStateMachine;
  /** Full schema: what a submission must satisfy. */
  validateFull: DefinitionValidator;
  /** The schema without `required`: what a stored draft must satisfy. */
  validateDraft: DefinitionValidator;
  /** Sections an applicant may edit (those not marked officer or internal). */
  applicantSections: string[];
  allSections: string[];
  rolesOf(action: WorkflowAction): string[];
  /** Roles whose holders see every document of the type. */
  seeAllRoles: string[];
  /** Every role of the workflow (any of them lets an owner read their own documents). */
  anyRole: string[];
  /** The effects, guards and server rules its definitions name, by name. */
  implementations: Implementations;
}

/** The drafts' checks, shared by every build of the process (a draft schema has no `$id`). */
const compileDraft = compiledOnce(createAjv());

export function compileWorkflows(
  workflows: WorkflowDefinition[],
  entities: EntityDefinition[],
  validators: ValidatorSet,
  implementations: Implementations,
): Map<string, CompiledWorkflow> {
  const compiled = new Map<string, CompiledWorkflow>();
  for (const definition of workflows) {
    const entity = entities.find((e) => e.id === definition.document);
    const validateFull = validators.get('schema', definition.document);
    if (!entity || !validateFull)
      throw new Error(`Workflow ${definition.id}: no schema ${definition.document}`);
    const { $id: _id, ...draftSchema } = stripRequired(entity.schema);
    const sections = entity.sections ?? [];
    compiled.set(definition.id, {
      definition,
      entity,
      machine: buildMachine(definition, implementations.guards),
      validateFull,
      validateDraft: compileDraft(draftSchema),
      applicantSections: sections.filter((s) => !s.officer && !s.internal).map((s) => s.id),
      allSections: sections.map((s) => s.id),
      rolesOf: (action) => fullRoles(definition, action.roles),
      seeAllRoles: fullRoles(definition, definition.seeAll),
      anyRole: workflowRoles(definition),
      implementations,
    });
  }
  return compiled;
}
