import { NAME_SEARCH_MAX_LENGTH } from '../documents/list-names';
import { catalogEntrySchema, catalogFieldKinds } from '../../core/definitions/catalog-entry';
import { eventsOf } from '../../core/definitions/stately';
import { stripRequired } from '../../core/definitions/strip-required';
import { documentChoiceFieldsOf } from '../../core/definitions/document-choices';
import {
  isEnabled,
  type CatalogDefinition,
  type DefinitionBundle,
  type EntityDefinition,
} from '../../core/definitions/types';
import { backendOf } from '../../core/documents/conventions';
import {
  DOCUMENT_LIST_COLUMNS,
  LIST_ONLY_COLUMNS,
  type WorkflowAction,
  type WorkflowDefinition,
  type WorkflowList,
} from '../../core/documents/workflow';
import { CATALOG_IMPORT_MAX_ROWS } from '../../core/definitions/catalog-csv';
import {
  catalogEntryRecordSchema,
  catalogImportBodySchema,
  CATALOG_IMPORT_RESULT,
  arrayOf,
  ASSIGNEES,
  WORKLOAD,
  CATALOG_HISTORY_LINE,
  CODE_NAME_ITEMS,
  DERIVED_VALUES,
  documentSummarySchema,
  documentViewSchema,
  HISTORY_ENTRY,
  SCREENING_HITS,
  itemsOf,
  objectSchema,
  PAYMENT_STATE,
  REFUND_QUOTE,
  PDF_RESPONSE,
  PROBLEM,
  searchRequestSchema,
  searchResultSchema,
  VERSION,
  VERSION_SUMMARY,
  UUID_STRING,
  type AddOperation,
  type ContractSchema,
  type OperationMethod,
} from './common';
import { addCaseWorkPaths } from './case-work';
import { DOCUMENT_REFUNDS, REFUND_REQUEST_BODY, REFUND_VIEW } from './refunds';
import { addPayerConsentPaths } from './payer-consents';
import { addShareCodePaths } from './share-codes';
import { addDelegationPaths } from './delegations';
import { requestBodyFields, withRequestRoundSchema } from './requests';
import { CERTIFICATE_VIEW } from './certificate-view';

/**
 * The paths the generic document, catalogue and payment routes serve, one per workflow, action,
 * list and catalogue, computed from the definitions (components `entity.<id>`, `catalog.<id>`).
 */

type Operation = Record<string, unknown>;
type PathItem = Partial<Record<OperationMethod, Operation>>;

export interface DefinitionContract {
  paths: Record<string, PathItem>;
  schemas: Record<string, ContractSchema>;
  tags: Array<{ name: string; description: string }>;
}

const ref = (name: string): ContractSchema => ({ $ref: `#/components/schemas/${name}` });
const json = (schema: ContractSchema) => ({ content: { 'application/json': { schema } } });

/** The answers every operation may give besides its own: a problem, translated. */
const PROBLEMS = {
  '4XX': { description: 'Refused: the body names the problem', ...json(ref('Problem')) },
  '5XX': { description: 'Server failure', ...json(ref('Problem')) },
};

const pathParameter = (name: string, description: string, schema: ContractSchema = {}) => ({
  name,
  in: 'path',
  required: true,
  description,
  schema: { type: 'string', ...schema },
});
/** The parameters of the document paths. */
const DOCUMENT_PARAMETERS = {
  id: pathParameter('id', "The document's id", { format: 'uuid' }),
  number: pathParameter('number', 'The certificate number', {}),
  version: pathParameter('version', 'From 1', { pattern: '^[1-9][0-9]*$' }),
  noteId: pathParameter('noteId', "The case note's id", { format: 'uuid' }),
  consentId: pathParameter('consentId', "The payer consent's id", { format: 'uuid' }),
  delegationId: pathParameter('delegationId', "The delegation's id", { format: 'uuid' }),
  codeId: pathParameter('codeId', "The share code's id", { format: 'uuid' }),
};

/**
 * Adds to `paths` the operations of one tag, with the ids `${prefix}.${suffix}`; the parameters
 * of the path (`{id}`) come first, from `inPath` (a document's by default).
 */
const operations =
  (
    paths: Record<string, PathItem>,
    tag: string,
    prefix: string,
    inPath: Record<string, ContractSchema> = DOCUMENT_PARAMETERS,
  ): AddOperation =>
  (method, path, suffix, summary, parts) => {
    const named = [...path.matchAll(/\{(\w+)\}/g)].map(([, name]) => inPath[name!]!);
    const parameters = [...named, ...(parts.parameters ?? [])];
    (paths[path] ??= {})[method] = {
      tags: [tag],
      operationId: `${prefix}.${suffix}`,
      summary,
      ...(parts.description ? { description: parts.description } : {}),
      ...(parameters.length ? { parameters } : {}),
      ...(parts.body ? { requestBody: { required: true, ...json(parts.body) } } : {}),
      responses: {
        [String(parts.status ?? 200)]:
          parts.response === 'pdf'
            ? PDF_RESPONSE
            : parts.response === 'none'
              ? { description: 'Done; no body' }
              : { description: 'Done', ...json(parts.response) },
        ...PROBLEMS,
      },
    };
  };

/** A JSON Schema usable as a component: no `$id` (it would change the base of `$ref`s). */
function component(schema: ContractSchema): ContractSchema {
  const { $id: _id, $schema: _dialect, ...rest } = schema;
  return rest;
}

/** Actions a document can be created with: those the machine takes from its initial state. */
export function creatingActions(workflow: WorkflowDefinition): string[] {
  return transitionsFrom(workflow, workflow.machine.initial);
}

/**
 * Actions fired on an existing document (`/{id}/actions/{action}`): those any state after the
 * initial one takes. The server's own (`system`: a payment the gateway confirmed) are listed
 * too, said to be refused (403) to every caller, so the document names every action.
 */
export function documentActions(workflow: WorkflowDefinition): string[] {
  const taken = new Set(
    Object.keys(workflow.machine.states)
      .filter((state) => state !== workflow.machine.initial)
      .flatMap((state) => transitionsFrom(workflow, state)),
  );
  return Object.keys(workflow.actions).filter((action) => taken.has(action));
}

function transitionsFrom(workflow: WorkflowDefinition, state: string): string[] {
  return eventsOf(workflow.machine.states[state]).map(([action]) => action);
}

/** The fields a document list can filter and sort on: the documents' own, its data columns. */
export function listFields(list: WorkflowList | undefined): string[] {
  // The assignee's name only where the list shows it: it is read from the accounts.
  const own = DOCUMENT_LIST_COLUMNS.filter((column) => !LIST_ONLY_COLUMNS.includes(column));
  const named = LIST_ONLY_COLUMNS.filter((field) =>
    list?.columns.some((c) => c.field === field && !c.pointer),
  );
  return [...own, ...named, ...(list?.columns.filter((c) => c.pointer).map((c) => c.field) ?? [])];
}

/** Component names, all under a prefix naming what they are. */
export const componentNames = {
  entity: (id: string) => `entity.${id}`,
  draft: (id: string) => `draft.${id}`,
  document: (workflow: string) => `document.${workflow}`,
  list: (workflow: string, list: string) => `list.${workflow}.${list}`,
  catalog: (id: string) => `catalog.${id}`,
  catalogEntry: (id: string) => `catalog-entry.${id}`,
};

/** Paths, components and tags for every workflow, list, catalogue and payable workflow. */
export function definitionContract(
  bundle: Pick<DefinitionBundle, 'workflows' | 'schemas' | 'catalogs'>,
  formCatalogs: ReadonlySet<string>,
): DefinitionContract {
  const contract: DefinitionContract = {
    paths: {},
    schemas: { Problem: PROBLEM },
    tags: [],
  };
  const entities = new Map(bundle.schemas.map((entity) => [entity.id, entity]));
  for (const workflow of bundle.workflows) {
    const entity = entities.get(workflow.document);
    if (!entity) continue;
    contract.schemas[componentNames.entity(entity.id)] = component(entity.schema);
    addWorkflow(contract, workflow, entity);
  }
  for (const catalog of bundle.catalogs.filter(isEnabled)) {
    addCatalog(contract, catalog, formCatalogs.has(catalog.id));
  }
  return contract;
}

function addWorkflow(
  contract: DefinitionContract,
  workflow: WorkflowDefinition,
  entity: EntityDefinition,
): void {
  const backend = backendOf(workflow);
  const base = `/api/${backend}/${workflow.id}`;
  const tag = `${backend}: ${workflow.id}`;
  const add = operations(contract.paths, tag, `${backend}.${workflow.id}`);
  contract.tags.push({
    name: tag,
    description: `Documents of the workflow ${workflow.id} (workflows/${workflow.id}.json), data following schemas/${entity.id}.schema.json`,
  });
  const data = ref(componentNames.entity(entity.id));
  // A stored document's data is whole once an action validated it, a draft's partial: the
  // schema without `required`, as the store checks a draft.
  contract.schemas[componentNames.draft(entity.id)] = component(stripRequired(entity.schema));
  const documentName = componentNames.document(workflow.id);
  contract.schemas[documentName] = withRequestRoundSchema(
    workflow,
    documentViewSchema(ref(componentNames.draft(entity.id))),
  );
  const document = ref(documentName);

  // Searches: the whole collection, or one of the workflow's lists (its statuses, assignment).
  const searches = [ref(`${documentName}.search`)];
  contract.schemas[`${documentName}.search`] = searchRequestSchema(listFields(undefined));
  for (const list of workflow.lists) {
    const name = componentNames.list(workflow.id, list.id);
    const property = { const: list.id, description: `The list ${list.id}: ${describeList(list)}` };
    // A list filtering by flags: the flags every document shown has (officers only).
    const flags: Record<string, ContractSchema> = list.flagFilter
      ? {
          flags: {
            type: 'array',
            items: { type: 'string', enum: list.flagFilter },
            description: 'Only documents with all these flags set (officers only)',
          },
        }
      : {};
    // A list with a name search: the name searched, its closest matches first.
    const named: Record<string, ContractSchema> = list.nameSearch
      ? {
          name: {
            type: 'string',
            maxLength: NAME_SEARCH_MAX_LENGTH,
            description: `A name searched in ${list.nameSearch.pointers.join(', ')}: the documents whose names come close to it (case, marks and apostrophes ignored), the closest first; pages by number only`,
          },
        }
      : {};
    contract.schemas[name] = {
      ...searchRequestSchema(listFields(list), { list: property, ...flags, ...named }, ['list']),
      title: `List ${list.id}`,
    };
    searches.push(ref(name));
  }
  const rowFields = {
    type: 'object',
    description: "The list's data columns by field name",
    additionalProperties: true,
  };
  add('patch', base, 'search', `Searches ${workflow.id} documents, or one of its lists`, {
    description:
      'Without `list`: every document the caller may see. With `list`: that list, whose roles the caller must hold (its statuses and assignment apply).',
    // anyOf: a list's body is also a search of the whole collection (with `list` added).
    body: { anyOf: searches },
    response: searchResultSchema(documentSummarySchema(rowFields)),
  });
  add('post', base, 'create', `Creates a ${workflow.id} document`, {
    body: objectSchema(['data'], {
      action: {
        type: 'string',
        enum: creatingActions(workflow),
        default: 'store',
        description: 'The action that creates it',
      },
      data,
      notes: { type: 'string' },
      owner: { type: 'string', description: 'Sign-in name, for an action made `onBehalf`' },
      ...(workflow.renewal
        ? {
            from: {
              type: 'string',
              description: `For \`${workflow.renewal.start}\`: the id of the document renewed (its owner's, in ${workflow.renewal.statuses.join(' or ')}); its ${workflow.renewal.copy.join(', ')} are copied`,
            },
          }
        : {}),
    }),
    status: 201,
    response: document,
  });
  if (workflow.derive)
    add('post', `${base}/derive`, 'derive', 'Values the server derives for the form', {
      description: `Runs ${workflow.derive.effects.join(', ')} on the data and answers the values at ${workflow.derive.fills.join(', ')}. Nothing is stored.`,
      body: objectSchema(['data'], { data, id: UUID_STRING }),
      response: DERIVED_VALUES,
    });
  for (const { document: type } of documentChoiceFieldsOf(entity))
    add('get', `${base}/choices/${type}`, `choices.${type}`, `${type} documents a field may name`, {
      response: CODE_NAME_ITEMS,
    });
  for (const [action, definition] of Object.entries(workflow.actions)) {
    if (definition.payload !== 'assignee') continue;
    add(
      'get',
      `${base}/assignees/${action}`,
      `assignees.${action}`,
      `Whom the action ${action} may assign`,
      {
        description: `The accounts holding ${(definition.assignees ?? []).map((r) => `\`${workflow.rolePrefix}${r}\``).join(' or ')}, with their open documents of the type, fewest first. ${describeAction(workflow, definition)}`,
        response: ASSIGNEES,
      },
    );
  }
  const workload = workflow.workload;
  if (workload)
    add('get', `${base}/workload`, 'workload', 'The team view: open documents per officer', {
      description: `Documents in ${(workload.statuses ?? ['every status but final ones']).join(', ')}, counted per assignee and status by one grouped query: every account the action ${workload.action} may assign to, anyone else still holding some, then the unassigned. For those who may take ${workload.action}.`,
      response: WORKLOAD,
    });
  add('get', `${base}/{id}`, 'read', `Reads a ${workflow.id} document`, { response: document });
  const update = workflow.actions.update;
  if (update)
    add('put', `${base}/{id}`, 'update', 'Saves the data (the action update)', {
      body: actionBody(update, data, requestBodyFields(workflow, 'update')),
      response: document,
    });
  const certificate = workflow.certificate;
  if (certificate) {
    add('get', `${base}/{id}/certificate`, 'certificate', 'The issued document as a PDF', {
      description: `In the statuses ${certificate.statuses.join(', ')}.`,
      response: 'pdf',
    });
    if (certificate.holders)
      add(
        'get',
        `${base}/{id}/certificate/{number}`,
        'holderCertificate',
        'The certificate of one of the people of the document, by its number, as a PDF',
        {
          description: `In the statuses ${certificate.statuses.join(', ')}; the number is one the items of ${certificate.holders.list} hold.`,
          response: 'pdf',
        },
      );
    // The same certificates as text, for the portal's web page of them.
    add('get', `${base}/{id}/certificate/view`, 'certificateView', 'The issued document as text', {
      description: `What the PDF draws, in the holder's language; in the statuses ${certificate.statuses.join(', ')}.`,
      response: CERTIFICATE_VIEW,
    });
    if (certificate.holders)
      add(
        'get',
        `${base}/{id}/certificate/view/{number}`,
        'holderCertificateView',
        'The certificate of one of the people of the document, by its number, as text',
        {
          description: `In the holder's language and the statuses ${certificate.statuses.join(', ')}.`,
          response: CERTIFICATE_VIEW,
        },
      );
  }
  add('get', `${base}/{id}/versions`, 'versions', 'Every version of a document', {
    response: arrayOf(VERSION_SUMMARY),
  });
  add('get', `${base}/{id}/versions/{version}`, 'version', 'A document as it was at a version', {
    response: document,
  });
  add('get', `${base}/{id}/history`, 'history', "A document's history", {
    response: arrayOf(HISTORY_ENTRY),
  });
  addCaseWorkPaths(add, workflow, base);
  addPayerConsentPaths(add, workflow, base);
  addShareCodePaths(add, workflow, base);
  addDelegationPaths(add, workflow, base);
  if (workflow.screening)
    add('get', `${base}/{id}/screening`, 'screening', "A document's screening hits", {
      description: `Entries of the block catalogues (${[...new Set(workflow.screening.rules.map((r) => r.catalog))].join(', ')}) the document matched; for the roles seeing every document (${workflow.seeAll.join(', ')}), 403 to anyone else.`,
      response: SCREENING_HITS,
    });
  for (const action of documentActions(workflow)) {
    const definition = workflow.actions[action]!;
    add('post', `${base}/{id}/actions/${action}`, `action.${action}`, `Action ${action}`, {
      description: describeAction(workflow, definition),
      body: actionBody(definition, data, requestBodyFields(workflow, action)),
      response: document,
    });
  }
  if (workflow.payment && backend === 'evisa') addPayments(contract, workflow);
}

function actionBody(
  action: WorkflowAction,
  data: ContractSchema,
  /** What the action takes for requests for information (`requests`, `answers`). */
  requests: Record<string, ContractSchema> = {},
): ContractSchema {
  const payload = action.payload ?? 'none';
  const required = ['version'];
  if (payload === 'data' || payload === 'assignee') required.push(payload);
  if (action.notes === 'required') required.push('notes');
  return objectSchema(required, {
    version: { ...VERSION, description: 'The version read; a stale one is 409' },
    ...(payload === 'data' ? { data } : {}),
    ...(payload === 'assignee'
      ? {
          assignee: {
            type: 'string',
            description: `The account id or sign-in name of someone holding ${(action.assignees ?? []).join(' or ')} (\`assignees\`)`,
          },
        }
      : {}),
    ...(action.notes ? { notes: { type: 'string' } } : {}),
    ...(action.onBehalf
      ? { owner: { type: 'string', description: 'Sign-in name of the new owner' } }
      : {}),
    ...requests,
  });
}

function describeAction(workflow: WorkflowDefinition, action: WorkflowAction): string {
  const roles = action.roles.map((role) => `\`${workflow.rolePrefix}${role}\``).join(', ');
  return [
    action.system
      ? 'Fired by the server itself (a payment the gateway confirmed): refused (403) to every caller.'
      : `Roles: ${roles || 'none'}.`,
    action.owner ? "Only the document's owner." : '',
    action.validate ? 'The whole document is validated first.' : '',
    action.requires?.length ? `Requires values at ${action.requires.join(', ')}.` : '',
    decidesEachPerson(workflow, action),
  ]
    .filter(Boolean)
    .join(' ');
}

/** What a request of an action deciding each person (`persons`) must carry. */
function decidesEachPerson(workflow: WorkflowDefinition, action: WorkflowAction): string {
  const persons = workflow.persons;
  const deciding = Object.entries(workflow.actions).some(
    ([name, one]) => one === action && persons?.actions.includes(name),
  );
  if (!persons || !deciding) return '';
  return (
    `Decides each person: \`data${persons.decisions}\` lists {outcome: GRANTED or REFUSED, ` +
    `conditions, reason} for the main person, then each of ${persons.list} in order (400 ` +
    'without a decision for each, a reason for each refusal, or anyone granted). A refused ' +
    "person's fee lines are waived and refunded (409 REFUND_NOT_OPENED while another refund is open)."
  );
}

function describeList(list: WorkflowList): string {
  const statuses = list.status?.length ? `statuses ${list.status.join(', ')}` : 'every status';
  const assignment = list.assignment ? `, assignment ${list.assignment}` : '';
  return `${statuses}${assignment}; roles ${list.roles.join(', ')}`;
}

function addPayments(contract: DefinitionContract, workflow: WorkflowDefinition): void {
  const base = `/api/payments/${workflow.id}/{id}`;
  const add = operations(contract.paths, 'payments', `payments.${workflow.id}`);
  add(
    'post',
    `${base}/purchase`,
    'purchase',
    `Sends the payer of a ${workflow.id} to the gateway`,
    {
      response: objectSchema(['redirectUrl'], { redirectUrl: { type: 'string', format: 'uri' } }),
    },
  );
  add('get', base, 'state', `The state of a ${workflow.id}'s payment`, { response: PAYMENT_STATE });
  add('get', `${base}/receipt`, 'receipt', 'The receipt as a PDF', { response: 'pdf' });
  add('get', `${base}/refund`, 'refundQuote', 'What a withdrawal would refund now', {
    response: REFUND_QUOTE,
  });
  const refunds = workflow.payment?.refunds;
  if (!refunds) return;
  const deciders = (refunds.requesters ?? refunds.approvers)
    .map((role) => `\`${workflow.rolePrefix}${role}\``)
    .join(', ');
  add('get', `${base}/refunds`, 'refunds', `The refunds of a ${workflow.id}`, {
    description: "Its owner's and the officers' who see it, with what is left to refund.",
    response: DOCUMENT_REFUNDS,
  });
  add('post', `${base}/refunds`, 'refund', `Opens a refund of a paid ${workflow.id}`, {
    description: `Roles: ${deciders}. Above ${refunds.approvalAbove} it waits for approval; else it is sent to the gateway. 409 when a refund is open, 422 above what is left.`,
    body: REFUND_REQUEST_BODY,
    status: 201,
    response: REFUND_VIEW,
  });
}

function addCatalog(
  contract: DefinitionContract,
  catalog: CatalogDefinition,
  formCatalog: boolean,
): void {
  const base = `/api/catalog/v1/${catalog.id}`;
  const tag = `catalog: ${catalog.id}`;
  const entryId = pathParameter('id', "The entry's id", { format: 'uuid' });
  const add = operations(contract.paths, tag, `catalog.${catalog.id}`, { id: entryId });
  contract.tags.push({
    name: tag,
    description: `Entries of the catalogue ${catalog.id} (catalogs/${catalog.id}.json). Searchers: ${catalog.searcherRoles}; managers: ${catalog.managerRoles}.`,
  });
  const dataName = componentNames.catalog(catalog.id);
  contract.schemas[dataName] = component(catalogEntrySchema(catalog));
  const entryName = componentNames.catalogEntry(catalog.id);
  contract.schemas[entryName] = catalogEntryRecordSchema(ref(dataName));
  const entry = ref(entryName);
  const fields = Object.keys(catalogFieldKinds(catalog));
  add('patch', base, 'search', `Searches ${catalog.id} entries`, {
    body: searchRequestSchema(fields),
    response: searchResultSchema(entry),
  });
  add('post', base, 'create', `Creates a ${catalog.id} entry`, {
    body: ref(dataName),
    status: 201,
    response: entry,
  });
  if (formCatalog)
    add('get', `${base}/options`, 'options', 'Codes and names valid today, for a form field', {
      description:
        'At most 50. Any other parameter names a field of the catalogue and keeps the entries whose field equals it.',
      parameters: [
        { name: 'search', in: 'query', schema: { type: 'string', maxLength: 100 } },
        ...fields
          .filter((field) => field !== 'startTime' && field !== 'endTime')
          .map((name) => ({ name, in: 'query', required: false, schema: { type: 'string' } })),
      ],
      response: CODE_NAME_ITEMS,
    });
  add('post', `${base}/import`, 'import', `Imports ${catalog.id} entries: all or none`, {
    description:
      'Each entry updates the one of the same key that starts at the same instant, or else is ' +
      'created; one equal to it changes nothing. A dry run answers what the import would do, ' +
      'with every problem, and writes nothing; an import with any problem is refused (400, ' +
      'the same problems) and writes nothing. Managers only; at most ' +
      `${CATALOG_IMPORT_MAX_ROWS} entries (413).`,
    body: catalogImportBodySchema(ref(dataName), CATALOG_IMPORT_MAX_ROWS),
    response: CATALOG_IMPORT_RESULT,
  });
  add('get', `${base}/{id}`, 'read', `Reads a ${catalog.id} entry`, { response: entry });
  add('put', `${base}/{id}`, 'update', `Replaces a ${catalog.id} entry if still at version`, {
    body: objectSchema(['version', 'data'], { version: VERSION, data: ref(dataName) }),
    response: entry,
  });
  add('delete', `${base}/{id}`, 'delete', `Deletes a ${catalog.id} entry if still at version`, {
    parameters: [{ name: 'version', in: 'query', required: true, schema: VERSION }],
    status: 204,
    response: 'none',
  });
  add('get', `${base}/deleted`, 'deleted', `Lists deleted ${catalog.id} entries, to restore`, {
    response: itemsOf(entry),
  });
  add(
    'get',
    `${base}/{id}/history`,
    'history',
    `Who changed a ${catalog.id} entry, when and what`,
    {
      response: itemsOf(CATALOG_HISTORY_LINE),
    },
  );
  const restore = `Restores a deleted ${catalog.id} entry if still at version`;
  add('post', `${base}/{id}/restore`, 'restore', restore, {
    body: objectSchema(['version'], { version: VERSION }),
    response: entry,
  });
}
