import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { namedRoles } from '../../src/server/definitions/check-roles';
import { creatingActions } from '../../src/server/api-contract/definition-paths';
import { startApiServer, type ApiHarness } from '../support/api-server';
import { databaseKinds } from '../support/databases';
import {
  contractChecker,
  operationsOf,
  sampleOf,
  type ContractOperation,
  type OpenApi,
} from '../support/openapi-contract';

type Json = Record<string, unknown>;
type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/** Roles of no definition that fixed routes ask for. */
const FIXED_ROLES = [
  'view-profile',
  'manage-account',
  'definitions-edit',
  'definitions-publish',
  'connectid-account-security',
  'connectid-api-credentials',
  'finance',
  'audit-read',
  'retention-manage',
];

/**
 * Operations this walk does not bring to a success, and why: each is still sent, and its
 * refusal checked against the operation's declared problem answer. A pattern that no longer
 * matches an unreached operation fails the test, so the list stays true.
 */
const UNREACHED: Array<[RegExp, string]> = [
  [
    /^\w+ \/api\/account\/(passkeys|recovery-codes)\b.* -> 404 NOT_FOUND$/,
    "the caller's own directory account, and the walk's tokens name none (passkeys and recovery-codes tests)",
  ],
  [
    /^\w+ \/api\/connectid\/(access-role|access-unit|account|password-policy|user-group)\b.* -> 404 NOT_FOUND$/,
    'no directory record is made from empty data: an account, unit, group or policy needs its own (tests/api/connectid-*.test.ts make them)',
  ],
  [
    /^\w+ \/api\/connectid\/(profile|account\/\{id\})\/(password|api-credentials) -> 404 NOT_FOUND$/,
    'about a directory account, and the walk makes none (connectid-accounts, service-credentials tests)',
  ],
  [
    /^\w+ \/api\/evisa\/(inbox-message|payment-invoice)\b.* -> 40[34] (NOT_FOUND|FORBIDDEN)$/,
    'made by the service itself (a notice, an invoice of submitted applications), never from empty data',
  ],
  [
    /\/actions\/[\w-]+ -> 409 ACTION_NOT_ALLOWED$/,
    'the action leaves from statuses a newly stored document is not in (the generated workflow tests walk every status)',
  ],
  [
    /\/actions\/(pay|finalise|include|release|settle) -> 403 FORBIDDEN$/,
    "the server's own action (payment, invoice), refused to every caller as the document says",
  ],
  [
    /\/actions\/submit -> 400 VALIDATION_FAILED$/,
    'submitting checks the whole document; its data is empty',
  ],
  [/\/certificate(\/view)?(\/\{number\})? -> 409 ACTION_NOT_ALLOWED$/, 'issued documents only'],
  [
    /^\w+ \/api\/payments\/[\w-]+\/\{id\}\/(receipt -> 404 NOT_FOUND|purchase -> 409 PAYMENT_NOT_STARTED)$/,
    'no payment is started on a stored document (payments.test.ts pays one)',
  ],
  [/^POST \/api\/payments\/notify\/\{gateway\} -> 400 /, "needs the gateway's signature"],
  [
    /^(DELETE \/api\/account\/sessions\/\{id\}|POST \/api\/account\/sessions\/end-others) -> 404 NOT_FOUND$/,
    "the walk's token is no sign-in session's (account-sessions.test.ts signs in and ends some)",
  ],
  [
    /^POST \/api\/payments\/notify\/\{gateway\}\/refunds -> 401 REFUND_NOTIFICATION_FORGED$/,
    "a refund's report needs the gateway's signature (refunds.test.ts sends signed ones)",
  ],
  [
    /^\w+ \/api\/payments\/refunds\/\{refund\}\/(receipt|approve|reject|transfer) -> 404 NOT_FOUND$/,
    'about a refund, and a stored document has none (refunds.test.ts pays and refunds one)',
  ],
  [
    /^POST \/api\/payments\/[\w-]+\/\{id\}\/refunds -> 400 VALIDATION_FAILED$/,
    'a refund names its reason and amount; the empty body gives neither',
  ],
  [
    /\/actions\/extend -> 403 FORBIDDEN$/,
    "the server's own action (a granted renewal extends the sponsorship it renews)",
  ],
  [
    /^GET \/api\/definitions\/sets\/previews\/.* -> 404 NOT_FOUND$/,
    "a preview is served under a checked draft's digest, which the walk cannot know beforehand",
  ],
  [
    /^POST \/api\/definitions\/sets\/\{version\}\/restore -> 409 STALE_DEFINITIONS$/,
    'the walk published first: the base it sends is no longer the newest',
  ],
  [
    /^POST \/api\/definitions\/roles\/\{role\}\/grants -> 400 VALIDATION_FAILED$/,
    'a grant names a unit by its id, which the walk cannot know (studio-roles.test.ts grants one)',
  ],
  [
    /^(GET|POST) \/api\/definitions\/sets\/folder(\/keep)? -> 404 NOT_FOUND$/,
    'only while the folder disagrees with a later publish (definition-folder.test.ts makes one)',
  ],
  [/^POST \/api\/evisa\/verification -> 400 /, 'needs a real number and second factor'],
  [
    /^\w+ \/api\/evisa\/[\w-]+\/\{id\}\/(case-notes|flags)\b.* -> 403 FORBIDDEN$/,
    'the walk owns the documents it makes, and an owner never reaches their case notes and flags (case-notes-and-flags.test.ts)',
  ],
  [
    /^POST \/api\/evisa\/[\w-]+\/\{id\}\/payers -> 400 VALIDATION_FAILED$/,
    'a payer is an existing account by sign-in name or e-mail, which the walk does not make (payer-consent.test.ts)',
  ],
  [
    /^DELETE \/api\/evisa\/[\w-]+\/\{id\}\/payers\/\{consentId\} -> 409 PAYER_CONSENT_CLOSED$/,
    'the walk names no payer, and its document is past the statuses where payers change (payer-consent.test.ts)',
  ],
  [/^POST \/api\/connectid\/registration\b.* -> 403 ALREADY_SIGNED_IN$/, 'signed-out callers only'],
  [
    /^(POST|GET) \/api\/media\b.* -> 40[04] /,
    'the walk sends no multipart file (media.test.ts does)',
  ],
  [
    /^POST \/api\/challenge\b.* -> 400 /,
    'a purpose and a six-digit code have patterns the sample does not fill',
  ],
  [
    /^POST \/api\/catalog\/v1\/[\w-]+ -> 400 VALIDATION_FAILED$/,
    'a new entry must name existing entries and follow patterns the sample does not fill',
  ],
  [
    /^POST \/api\/\w+\/[\w-]+\/delegations -> 400 VALIDATION_FAILED$/,
    'a delegation names a grant the workflow declares, and a sample names none (delegations.test.ts makes them)',
  ],
  [
    /\/delegations\/\{delegationId\}\/revoke -> 404 NOT_FOUND$/,
    'about a delegation, and the walk makes none (delegations.test.ts revokes them)',
  ],
  [
    /^POST \/api\/evisa\/[\w-]+\/\{id\}\/share-codes -> 400 VALIDATION_FAILED$/,
    'a purpose is one the workflow declares, which the sample does not name (share-codes.test.ts makes codes)',
  ],
  [
    /^POST \/api\/evisa\/[\w-]+\/\{id\}\/share-codes\/\{codeId\}\/revoke -> 404 NOT_FOUND$/,
    'the walk makes no share code to revoke (share-codes.test.ts revokes one)',
  ],
  [
    /^POST \/api\/evisa\/share-check -> 400 VALIDATION_FAILED$/,
    'the sample gives blank text, refused as missing, as the check by number does (share-codes.test.ts checks codes)',
  ],
  [
    /^POST \/api\/retention\/run -> (400 VALIDATION_FAILED|409 RETENTION_PLAN_CHANGED)$/,
    'runs only a plan shown, given its instant and digest (retention.test.ts runs one)',
  ],
];

describe.each(databaseKinds())('live answers against the API contract on %s', (kind) => {
  let api: ApiHarness;
  let document: OpenApi;
  let token: string;
  beforeAll(async () => {
    api = await startApiServer(kind);
    document = (await api.call('GET', '/api/openapi.json')).json() as OpenApi;
    const { workflows, catalogs } = api.server.definitions;
    token = await api.tokenFor([...namedRoles(workflows, catalogs).keys(), ...FIXED_ROLES], {
      sub: 'contract-walker',
      name: 'Contract Walker',
      email: 'walker@example.org',
    });
  });
  afterAll(async () => api?.close());

  const send = (method: Method, url: string, body?: unknown) =>
    api.call(method, url, { token, ...(body !== undefined && { body }) });

  /** A document of each workflow, made with empty data by the first creating action it may take. */
  async function documentsByBase(): Promise<Map<string, { document: Json; action: string }>> {
    const made = new Map<string, { document: Json; action: string }>();
    for (const workflow of api.server.definitions.workflows) {
      const base = `/api/${workflow.backend ?? 'evisa'}/${workflow.id}`;
      for (const action of creatingActions(workflow)) {
        const response = await send('POST', base, { action, data: {} });
        if (response.statusCode !== 201) continue;
        made.set(base, { document: response.json() as Json, action });
        break;
      }
    }
    return made;
  }

  /** The first entry of each catalogue that has one (the reference data). */
  async function entriesByBase(): Promise<Map<string, Json>> {
    const found = new Map<string, Json>();
    for (const catalog of api.server.definitions.catalogs) {
      const base = `/api/catalog/v1/${catalog.id}`;
      const response = await send('PATCH', base, { options: { itemsPerPage: 1 } });
      const first = response.statusCode === 200 ? (response.json().items as Json[])[0] : undefined;
      if (first) found.set(base, first);
    }
    return found;
  }

  it('answers every operation as the document declares', async () => {
    const check = contractChecker(document);
    const documents = await documentsByBase();
    const entries = await entriesByBase();
    const index = (await send('GET', '/api/definitions/index')).json() as {
      documents: Record<string, Array<{ id: string }>>;
    };
    const [entity, sections] = Object.entries(index.documents).find(([, s]) => s.length)!;

    /** The document or entry a path is about, read afresh (its version moves). */
    const subject = async (path: string): Promise<Json | undefined> => {
      const paid = /^\/api\/payments\/([^/]+)\//.exec(path);
      const base = paid
        ? [...documents.keys()].find((b) => b.endsWith(`/${paid[1]}`))
        : [...documents.keys(), ...entries.keys()].find((b) => path.split('/{')[0] === b);
      const known = documents.get(base ?? '')?.document ?? entries.get(base ?? '');
      if (!known) return undefined;
      const read = await send('GET', `${base}/${String(known.id)}`);
      if (read.statusCode === 200) return read.json() as Json;
      // A catalogue entry the walk deleted, as its managers find it to restore it.
      const deleted = entries.has(base ?? '') ? await send('GET', `${base}/deleted`) : undefined;
      const items = deleted?.statusCode === 200 ? (deleted.json().items as Json[]) : [];
      return items.find((item) => item.id === known.id) ?? known;
    };

    const request = async ({ path, operation }: ContractOperation) => {
      const about = await subject(path);
      const params: Record<string, string> = {
        id: path.startsWith('/api/definitions/')
          ? entity
          : String(about?.id ?? '00000000-0000-4000-8000-000000000000'),
        version: '1',
        number: 'X-0',
        kind: 'schema',
        entity,
        file: `${path.includes('{entity}') ? sections[0]!.id : entity}.js`,
        gateway: 'sandbox',
      };
      for (const parameter of operation.parameters ?? []) {
        // A path value the document names: enumerated, or given as an example.
        const values = [
          ...((parameter.schema?.enum ?? parameter.schema?.examples ?? []) as unknown[]),
          ...(parameter.example === undefined ? [] : [parameter.example]),
          ...Object.values(parameter.examples ?? {}).map((example) => example.value),
        ];
        if (parameter.in === 'path' && values.length) params[parameter.name] = String(values[0]);
      }
      const url = path.replace(/\{(\w+)\}/g, (_, name: string) =>
        encodeURIComponent(params[name]!),
      );
      const query = (operation.parameters ?? [])
        .filter((p) => p.in === 'query' && p.required)
        .map((p) => `${p.name}=${String(p.name === 'version' ? (about?.version ?? 1) : 'x')}`);
      const schema = operation.requestBody?.content['application/json']?.schema;
      let body = sampleOf(schema, document) as Json | undefined;
      if (body && typeof body === 'object' && !Array.isArray(body)) {
        if ('version' in body && about) body = { ...body, version: about.version };
        if ('data' in body && about) body = { ...body, data: about.data };
        const created = operation.operationId?.endsWith('.create') && documents.get(path);
        if (created) body = { ...body, action: created.action };
      }
      return { url: query.length ? `${url}?${query.join('&')}` : url, body };
    };

    // Reads first, then changes; deletions last, so each change finds what it is about, and a
    // restoration after them, of what was deleted.
    const order = ['GET', 'PATCH', 'PUT', 'POST', 'DELETE', 'restore'];
    const rank = ({ method, path }: ContractOperation) =>
      order.indexOf(path.endsWith('/{id}/restore') ? 'restore' : method);
    const operations = operationsOf(document).sort(
      (a, b) =>
        rank(a) - rank(b) ||
        Number(a.path.includes('/actions/')) - Number(b.path.includes('/actions/')),
    );
    const drift: string[] = [];
    const unreached: string[] = [];
    for (const operation of operations) {
      const { url, body } = await request(operation);
      const answer = await send(operation.method as Method, url, body);
      const name = `${operation.method} ${operation.path}`;
      for (const problem of check(operation, answer)) drift.push(`${name}: ${problem}`);
      if (answer.statusCode >= 500) drift.push(`${name}: ${answer.statusCode} ${answer.body}`);
      else if (answer.statusCode >= 300 && answer.statusCode !== 304)
        unreached.push(`${name} -> ${answer.statusCode} ${String(answer.json().error?.code)}`);
    }
    expect(drift).toEqual([]);
    expect(operations.length).toBeGreaterThan(100);
    const unexplained = unreached.filter(
      (line) => !UNREACHED.some(([pattern]) => pattern.test(line)),
    );
    expect(unexplained).toEqual([]);
    const stale = UNREACHED.filter(([pattern]) => !unreached.some((line) => pattern.test(line)));
    expect(stale.map(([pattern, why]) => `${pattern}: ${why}`)).toEqual([]);
  }, 240_000);
});
