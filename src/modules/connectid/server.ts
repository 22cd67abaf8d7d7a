import { PROFILE_PATH } from './shared/account-pages';
import type { JsonSchema } from '../../core/definitions/types';
import { resolvePointer, setAt } from '../../core/rules/registry';
import {
  valueAt,
  holderTexts,
  messageOwner,
  type EffectContext,
  ApiProblem,
  ERROR_CODES,
  findByKey,
  findDocument,
  defineModule,
  validEntry,
  normaliseDestination,
  portalUrl,
  enqueue,
  endAccountSessions,
  AuditLog,
} from '../../server/module';
import {
  accountContacts,
  accountDisplayName,
  accountLogin,
  groupOfUserType,
  holds,
  text,
} from './server/account-fields';
import { recordDeclarations, type DeclaredAccount } from './server/declarations';
import { grantedRoles } from './server/named-roles';
import { seededRoleGrants } from './server/seed';
import { CONNECTID_BACKEND, startConnectid } from './server/start';
import {
  CORRECTION_LINK_DAYS,
  CORRECTION_ROUTE,
  dropCorrectionTokens,
  issueCorrectionToken,
} from './server/correction-links';

/** The account declaration of the workflow an effect runs for; an account effect needs one. */
function declaredAccount(workflow: EffectContext['workflow']): DeclaredAccount {
  const account = recordDeclarations([workflow]).account;
  if (!account) throw new Error(`workflow ${workflow.id} declares no "account" and "key"`);
  return account;
}

/** The account owns itself (its id is the token's subject): the person edits their profile. */
function ownAccount({ document, workflow }: EffectContext): void {
  const contacts = accountContacts(declaredAccount(workflow), document.data);
  document.owner = document.id;
  document.ownerName = contacts.name;
  document.ownerEmail = contacts.email;
  document.ownerMobile = contacts.mobile;
}

/** A record's declared key is unique within its type, any case (`keptWhenDeleted`: deleted ones too). */
async function uniqueKey({ trx, document, workflow }: EffectContext): Promise<void> {
  if (!workflow.key) return;
  const { pointer, keptWhenDeleted } = workflow.key;
  const key = text(document.data, pointer);
  if (!key) return;
  const other = await findByKey(trx, document.type, pointer, key, {
    includeDeleted: keptWhenDeleted,
    except: document.id,
  });
  if (other) {
    throw new ApiProblem(400, ERROR_CODES.validationFailed, {}, [
      { path: pointer, rule: 'unique' },
    ]);
  }
}

/** A self-registered account joins the default group of its user type (valid now). */
async function groupFromUserType({ trx, document, workflow, now }: EffectContext): Promise<void> {
  const account = declaredAccount(workflow);
  const { pointer, catalog } = account.userType;
  const userType = text(document.data, pointer);
  const entry = userType ? await validEntry(trx, catalog, userType, now) : undefined;
  const group = groupOfUserType(account, entry);
  const data = structuredClone(document.data);
  setAt(data, account.group, group);
  setAt(data, account.accessUnits, []);
  document.data = data;
}

/** The owner's profile edit cannot change the login identifier (an administrator's edit can). */
async function keepLoginIdentifier({ trx, document, workflow }: EffectContext): Promise<void> {
  const account = declaredAccount(workflow);
  const stored = await findDocument(trx, document.type, document.id);
  const before = accountLogin(account, stored?.data);
  const after = accountLogin(account, document.data);
  if (before !== null && before !== after) {
    throw new ApiProblem(400, ERROR_CODES.validationFailed, {}, [
      { path: account.key.pointer, rule: 'readOnly' },
    ]);
  }
}

/** An accepted or administrator-created account is active unless its flag says otherwise. */
function activateAccount({ document, workflow }: EffectContext): void {
  const { active } = declaredAccount(workflow).signIn;
  if (valueAt(document.data, active.pointer) == null)
    setAt(document.data, active.pointer, active.equals);
}

/** The identity server asks for a new password, or a TOTP enrolment, at the next sign-in. */
const forceAtSignIn =
  (flag: 'forcePasswordChange' | 'forceTotp') =>
  ({ document, workflow }: EffectContext): void =>
    setAt(document.data, declaredAccount(workflow).security[flag], true);

/** The `default` of every property of a schema node (objects recursively). */
function schemaDefaults(node: JsonSchema | undefined): Record<string, unknown> {
  const values: Record<string, unknown> = {};
  const properties = (node?.properties ?? {}) as Record<string, JsonSchema>;
  for (const [name, property] of Object.entries(properties)) {
    if (property.default !== undefined) values[name] = property.default;
    else if (property.type === 'object') values[name] = schemaDefaults(property);
  }
  return values;
}

/** Restores a password policy's rules (its declared `rules`) to the defaults of its schema. */
function resetPolicy({ document, entity, workflow }: EffectContext): void {
  const pointer = workflow.passwordPolicy?.rules;
  if (!pointer) throw new Error(`workflow ${workflow.id} declares no "passwordPolicy"`);
  // The rules' node of the schema: each segment of the pointer is a property.
  const node = resolvePointer(entity.schema, pointer.replaceAll('/', '/properties/'));
  const data = structuredClone(document.data);
  setAt(data, pointer, schemaDefaults(node as JsonSchema | undefined));
  document.data = data;
}

/**
 * Tells the account's holder a review decision, by login and name, in their language. A
 * returned account never made active gets a one-time correction link (correction-links.ts),
 * also by SMS: the inbox is behind a sign-in its holder does not have.
 */
async function notifyAccount(context: EffectContext): Promise<void> {
  const { workflow, document, request, trx, now, environment } = context;
  const { language, t } = await holderTexts(context);
  const account = declaredAccount(workflow);
  const login = accountLogin(account, document.data) ?? '';
  const params = {
    login,
    name: accountDisplayName(account, document.data) ?? login,
    status: t(`statuses.${document.status}`),
  };
  const { active, statuses } = account.signIn;
  const correctable = document.status === 'RETURNED' && !holds(document.data, active);
  const link = correctable
    ? portalUrl(
        environment.publicUrl,
        `${CORRECTION_ROUTE}?correction=${await issueCorrectionToken(trx, document.id, now)}`,
      )
    : null;
  // A decision on a returned account (accepted, rejected) closes its correction link.
  if (!correctable) await dropCorrectionTokens(trx, document.id);
  // An account that may now sign in does so on its own profile (which asks for the sign-in).
  const signIn =
    statuses.includes(document.status) && holds(document.data, active)
      ? portalUrl(environment.publicUrl, PROFILE_PATH)
      : null;
  const body = [
    t('account.notices.body', params),
    request.notes ? `${t('notices.notes')} ${request.notes}` : '',
    link ? t('account.notices.correction', { link, days: CORRECTION_LINK_DAYS }) : '',
    signIn ? t('account.notices.signIn', { link: signIn }) : '',
  ]
    .filter(Boolean)
    .join('\n');
  const sms = link
    ? t('account.notices.correctionSms', { login, link, days: CORRECTION_LINK_DAYS })
    : undefined;
  await messageOwner(context, {
    subject: t('account.notices.subject', params),
    body,
    language,
    path: null,
    sms,
  });
  // Without an inbox the notice goes by e-mail only: the link still goes by SMS, to the mobile
  // number the registration's code confirmed (the e-mail address never was).
  const mobile = normaliseDestination(
    'mobile',
    accountContacts(account, document.data).mobile ?? '',
  );
  if (sms && mobile && !environment.inbox) {
    await enqueue(trx, [
      {
        channel: 'sms',
        recipient: mobile,
        subject: t('account.notices.subject', params),
        body: sms,
        language,
        documentId: document.id,
      },
    ]);
  }
}

/** An account's line in the audit trail (kind `account`), written with the action's change. */
async function auditAccount(
  { trx, principal, document }: EffectContext,
  action: string,
  detail?: Record<string, unknown>,
): Promise<void> {
  await new AuditLog(trx).recordNow(
    [
      {
        actor: principal.subject,
        actorName: principal.name ?? principal.preferredUsername ?? principal.subject,
        kind: 'account',
        action,
        documentId: document.id,
        documentType: document.type,
        target: document.id,
        ...(detail ? { detail } : {}),
      },
    ],
    trx,
  );
}

/** The holder asked for their account to be closed: the administrators review it. */
async function recordClosureRequest(context: EffectContext): Promise<void> {
  await auditAccount(context, 'account.closure-requested');
}

/**
 * The account is closed: it may no longer sign in (its status is not one of `signIn.statuses`)
 * and every session it has ends now, on every process. When it closed is the history line of
 * this action: the retention clock of its data starts there (docs/identity.md).
 */
async function closeAccount(context: EffectContext): Promise<void> {
  const ended = await endAccountSessions(
    context.trx,
    context.document.id,
    context.environment.sessionsEnded,
  );
  await auditAccount(context, 'account.closed', { sessionsEnded: ended });
}

export const connectidModule = defineModule({
  id: 'connectid',
  backends: [CONNECTID_BACKEND],
  apiTags: [{ name: CONNECTID_BACKEND, description: 'Self-registration and passwords' }],
  grantedRoles: { seeded: seededRoleGrants, stored: grantedRoles },
  start: startConnectid,
  effects: {
    ownAccount,
    uniqueKey,
    groupFromUserType,
    keepLoginIdentifier,
    activateAccount,
    forcePasswordChange: forceAtSignIn('forcePasswordChange'),
    forceTotp: forceAtSignIn('forceTotp'),
    resetPolicy,
    notifyAccount,
    recordClosureRequest,
    closeAccount,
  },
});
