import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Kysely } from 'kysely';
import {
  PROBLEM_RESPONSES,
  type Principal,
  normaliseDestination,
  type Database,
  type DocumentService,
  ApiProblem,
  ERROR_CODES,
  type FieldProblem,
} from '../../../server/module';
import { accountDisplayName, accountLogin, text } from './account-fields';
import { accountOfCorrectionToken, dropCorrectionTokens } from './correction-links';
import type { DeclaredAccount } from './declarations';
import { isObject, typeProblems } from './registration-checks';

export interface CorrectionOptions {
  db: Kysely<Database>;
  accounts: DocumentService;
  /** The account declaration when self-registration is on; 404 otherwise. */
  registrable: () => DeclaredAccount;
  /** The portal's time zone, whose day the identity document's dates are checked against. */
  config: { timeZone: string };
}

/** The action a correction takes: the holder's own profile edit, which gives MODIFIED. */
const CORRECTION_ACTION = 'modify-profile';

const TOKEN = { type: 'string', description: 'The token of the link the return notice gave' };
const ROUTES = {
  open: {
    tags: ['connectid'],
    summary: 'A returned self-registration, opened by the one-time link of its notice',
    body: { type: 'object', required: ['token'], properties: { token: TOKEN } },
    response: {
      200: {
        description: 'The registration as stored and the reviewer’s notes',
        type: 'object',
        properties: {
          login: { type: 'string' },
          data: { type: 'object', additionalProperties: true },
          notes: { type: ['string', 'null'] },
        },
      },
      ...PROBLEM_RESPONSES,
    },
  },
  correct: {
    tags: ['connectid'],
    summary: 'Corrects a returned self-registration: MODIFIED, pending review again',
    body: {
      type: 'object',
      required: ['token', 'data'],
      properties: { token: TOKEN, data: { $ref: '#/components/schemas/entity.account' } },
    },
    response: {
      200: {
        description: 'Corrected; the link is used up',
        type: 'object',
        properties: { id: { type: 'string' }, status: { type: 'string' } },
      },
      ...PROBLEM_RESPONSES,
    },
  },
};

/**
 * The way back for a returned self-registration (docs/identity.md): with the link's token a
 * signed-out holder reads and corrects it, as their own `modify-profile`.
 */
export function correctionRoutes(app: FastifyInstance, options: CorrectionOptions): void {
  /** The account of a valid link, still RETURNED, read in its holder's name. */
  const returnedAccount = async (request: FastifyRequest) => {
    const account = options.registrable();
    if (request.principal) throw new ApiProblem(403, 'ALREADY_SIGNED_IN');
    const body = isObject(request.body) ? request.body : {};
    const id = await accountOfCorrectionToken(options.db, body.token, new Date());
    const invalid = () =>
      new ApiProblem(404, 'CORRECTION_LINK_INVALID', {}, undefined, 'account.correction.invalid');
    if (!id) throw invalid();
    const workflow = options.accounts.workflow(account.type);
    const holder: Principal = {
      subject: id,
      roles: [`${workflow.definition.rolePrefix}read`],
    };
    const view = await options.accounts.read(account.type, holder, id);
    if (view.status !== 'RETURNED') throw invalid();
    holder.name = accountDisplayName(account, view.data) ?? undefined;
    // The sections the holder's profile edit hides (access, security) are not theirs to see.
    const screen = workflow.definition.screens.find((s) => s.actions?.includes(CORRECTION_ACTION));
    const hidden = new Set(screen?.hidden ?? []);
    return { account, id, holder, view, hidden, body };
  };

  app.post('/registration/correction/open', { schema: ROUTES.open }, async (request) => {
    const { account, id, holder, view, hidden } = await returnedAccount(request);
    const history = await options.accounts.history(account.type, holder, id);
    const returned = history.filter((entry) => entry.operation.endsWith('-> RETURNED')).at(-1);
    return {
      login: accountLogin(account, view.data),
      data: Object.fromEntries(Object.entries(view.data).filter(([key]) => !hidden.has(key))),
      notes: returned?.notes ?? null,
    };
  });

  app.post('/registration/correction', { schema: ROUTES.correct }, async (request) => {
    const { account, id, holder, view, hidden, body } = await returnedAccount(request);
    const given = isObject(body.data) ? body.data : {};
    // What is stored, with the sections the holder may see replaced by what they sent.
    const data: Record<string, unknown> = structuredClone(view.data);
    for (const [section, value] of Object.entries(given)) {
      if (!hidden.has(section)) data[section] = value;
    }
    const problems: FieldProblem[] = [];
    await typeProblems(options.db, account, data, new Date(), options.config.timeZone, problems);
    const mobile = (values: unknown) =>
      normaliseDestination('mobile', text(values, account.mobile) ?? '') ?? '';
    if (mobile(data) !== mobile(view.data))
      problems.push({ path: `/data${account.mobile}`, rule: 'readOnly' });
    if (problems.length) throw new ApiProblem(400, ERROR_CODES.validationFailed, {}, problems);
    const corrected = await options.accounts.act(account.type, holder, id, CORRECTION_ACTION, {
      version: view.version,
      data,
    });
    await dropCorrectionTokens(options.db, id);
    return { id, status: corrected.status };
  });
}
