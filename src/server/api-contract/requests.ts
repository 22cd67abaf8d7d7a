import { REQUEST_KINDS, requestRole } from '../../core/documents/requests';
import type { WorkflowDefinition } from '../../core/documents/workflow';
import { arrayOf, objectSchema, UUID_STRING, type ContractSchema } from './common';

const DATE = { type: 'string', format: 'date' } as const;
const NULLABLE = (type: string) => ({ type: [type, 'null'] });
const KIND = { type: 'string', enum: [...REQUEST_KINDS] };
const LABEL = {
  type: 'object',
  additionalProperties: { type: 'string' },
  description: 'The text by language: the catalogue entry’s then, or the free text',
};

/** An item an opening action asks for (docs/workflows.md, "Requests for information"). */
function requestItem(workflow: WorkflowDefinition): ContractSchema {
  const catalogs = (workflow.requests?.catalogs ?? []).map((c) => c.catalog);
  return objectSchema(['kind', 'mandatory'], {
    ...(catalogs.length
      ? {
          catalog: { type: 'string', enum: catalogs, description: 'With `code`: an entry' },
          code: { type: 'string', description: 'The entry’s code, valid today' },
        }
      : {}),
    text: { type: 'string', maxLength: 500, description: 'A free-text item, without `catalog`' },
    kind: { ...KIND, description: '`answer`: a text; `document`: a file' },
    mandatory: { type: 'boolean' },
    due: { ...DATE, description: `Default: in ${workflow.requests?.dueDays ?? 14} days` },
  });
}

const ANSWER = objectSchema(['item'], {
  item: UUID_STRING,
  text: { type: 'string', maxLength: 4000 },
  media: { ...UUID_STRING, description: 'An upload of the document’s owner (POST /api/media)' },
});

/** The body fields an action takes for the requests, by its role in them. */
export function requestBodyFields(
  workflow: WorkflowDefinition,
  action: string,
): Record<string, ContractSchema> {
  const role = requestRole(workflow, action);
  if (role === 'open')
    return {
      requests: {
        ...arrayOf(requestItem(workflow)),
        maxItems: 50,
        description: 'The items asked for; `notes` is the question',
      },
    };
  if (role === 'answer' || role === 'save')
    return {
      answers: {
        ...arrayOf(ANSWER),
        description:
          role === 'answer'
            ? 'Answers to the open round; every mandatory item must be answered (400 REQUESTS_MISSING), a closed round is a 409 REQUESTS_CLOSED'
            : 'Answers kept without closing the open round',
      },
    };
  return {};
}

const ROUND = objectSchema(['round', 'open', 'items'], {
  round: { type: 'integer', minimum: 1 },
  question: NULLABLE('string'),
  openedAt: { type: 'string', format: 'date-time' },
  open: { type: 'boolean', description: 'Waiting for answers' },
  items: arrayOf(
    objectSchema(['id', 'label', 'kind', 'mandatory', 'due'], {
      id: UUID_STRING,
      catalog: NULLABLE('string'),
      code: NULLABLE('string'),
      label: LABEL,
      kind: KIND,
      mandatory: { type: 'boolean' },
      due: DATE,
      answer: NULLABLE('string'),
      media: { type: ['object', 'null'], additionalProperties: true },
      answeredAt: { type: ['string', 'null'], format: 'date-time' },
      answeredBy: NULLABLE('string'),
    }),
  ),
});

/** A document's view with its open (or last) request round, when the workflow declares them. */
export function withRequestRoundSchema(
  workflow: WorkflowDefinition,
  view: ContractSchema,
): ContractSchema {
  return workflow.requests ? withRequestRound(view) : view;
}

/** A view that may carry a request round (the generic routes' answer, every workflow's). */
export function withRequestRound(view: ContractSchema): ContractSchema {
  const properties = (view.properties ?? {}) as Record<string, ContractSchema>;
  return { ...view, properties: { ...properties, requests: ROUND } };
}
