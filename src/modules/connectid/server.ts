import { sql } from 'kysely';
import type { JsonSchema } from '../../core/definitions/types';
import { translate } from '../../core/i18n/translate';
import { holderLanguage } from '../../server/documents/certificate';
import { messageOwner, type EffectContext } from '../../server/documents/effects';
import { ApiProblem, ERROR_CODES } from '../../server/http/api-error';
import { accountDisplayName, text } from '../../server/connectid/account-fields';
import { defineModule } from '../../server/module';
import { validEntry } from '../../server/catalog/seed';

/**
 * The connectid (user management) module's server code: the effects its workflows name
 * (workflows/{account,user-group,password-policy,access-unit,access-role}.json), handed to the
 * server as the `connectidModule` value.
 */

/** The field that identifies a record of each connectid type, unique within the type. */
export const CONNECTID_KEYS: Readonly<Record<string, string>> = {
  account: '/identity/loginIdentifier',
  'user-group': '/group/code',
  'password-policy': '/policy/code',
  'access-unit': '/unit/unitCode',
  'access-role': '/role/roleCode',
};

function section(data: Record<string, unknown>, name: string): Record<string, unknown> {
  const current = data[name];
  if (typeof current === 'object' && current !== null && !Array.isArray(current))
    return current as Record<string, unknown>;
  const created: Record<string, unknown> = {};
  data[name] = created;
  return created;
}

/**
 * The account owns itself: its owner is its own id (the identity server's token subject), so
 * the person reads and edits their own profile and is the one notified of decisions. The owner
 * columns are written here as well as on the draft, so this holds whether or not the document
 * service writes the draft's owner back.
 */
async function ownAccount({ trx, document }: EffectContext): Promise<void> {
  document.owner = document.id;
  document.ownerName = accountDisplayName(document.data);
  document.ownerEmail = text(document.data, '/contact/emailAddress');
  await trx
    .updateTable('document')
    .set({
      owner: document.owner,
      owner_name: document.ownerName,
      owner_email: document.ownerEmail,
      owner_mobile: text(document.data, '/contact/primaryMobileNo'),
    })
    .where('id', '=', document.id)
    .execute();
}

/**
 * A record's key (login identifier, code) is unique within its type, case-insensitively.
 * Deleted accounts keep their login identifier (they can be restored); a deleted group, policy,
 * unit or role frees its code.
 */
async function uniqueKey({ trx, document }: EffectContext): Promise<void> {
  const pointer = CONNECTID_KEYS[document.type];
  if (!pointer) return;
  const key = text(document.data, pointer);
  if (!key) return;
  const path = `{${pointer.split('/').slice(1).join(',')}}`;
  let query = trx
    .selectFrom('document')
    .select('id')
    .where('type', '=', document.type)
    .where('id', '<>', document.id)
    .where(sql<string>`lower(data #>> ${sql.lit(path)})`, '=', key.toLowerCase());
  if (document.type !== 'account') query = query.where('status', '<>', 'DELETED');
  if (await query.executeTakeFirst()) {
    throw new ApiProblem(400, ERROR_CODES.validationFailed, {}, [
      { path: pointer, rule: 'unique' },
    ]);
  }
}

/**
 * A self-registered account joins the default group of its user type (UserTypes catalogue,
 * the entry valid now); the reviewer may change it when accepting.
 */
async function groupFromUserType({ trx, document, now }: EffectContext): Promise<void> {
  const userType = text(document.data, '/organisation/userType');
  const entry = userType ? await validEntry(trx, 'user-types', userType, now) : undefined;
  const group = typeof entry?.defaultGroup === 'string' ? entry.defaultGroup : 'PUBLIC';
  document.data = { ...document.data, access: { userGroup: group, accessUnits: [] } };
}

/** The owner's profile edit cannot change the login identifier (an administrator's edit can). */
async function keepLoginIdentifier({ trx, document }: EffectContext): Promise<void> {
  const stored = await trx
    .selectFrom('document')
    .select('data')
    .where('id', '=', document.id)
    .executeTakeFirst();
  const before = text(stored?.data, '/identity/loginIdentifier');
  const after = text(document.data, '/identity/loginIdentifier');
  if (before !== null && before !== after) {
    throw new ApiProblem(400, ERROR_CODES.validationFailed, {}, [
      { path: '/identity/loginIdentifier', rule: 'readOnly' },
    ]);
  }
}

/** An accepted or administrator-created account is active unless the flag says otherwise. */
function activateAccount({ document }: EffectContext): void {
  const access = section(document.data, 'access');
  access.activationStatus ??= 'active';
}

/** The identity server asks for a new password at the next sign-in (directory.securityFlags). */
function forcePasswordChange({ document }: EffectContext): void {
  section(document.data, 'security').forcePasswordChange = true;
}

/** The identity server asks for a TOTP enrolment at the next sign-in. */
function forceTotp({ document }: EffectContext): void {
  section(document.data, 'security').forceTotp = true;
}

/** The `default` of every property of a schema node (objects recursively). */
export function schemaDefaults(node: JsonSchema | undefined): Record<string, unknown> {
  const values: Record<string, unknown> = {};
  const properties = (node?.properties ?? {}) as Record<string, JsonSchema>;
  for (const [name, property] of Object.entries(properties)) {
    if (property.default !== undefined) values[name] = property.default;
    else if (property.type === 'object') values[name] = schemaDefaults(property);
  }
  return values;
}

/** Restores a password policy's rules to the defaults written in its schema. */
function resetPolicy({ document, entity }: EffectContext): void {
  const properties = (entity.schema.properties ?? {}) as Record<string, JsonSchema>;
  document.data = { ...document.data, rules: schemaDefaults(properties.rules) };
}

/**
 * Tells the account's holder a review decision (accepted, rejected, returned), naming the
 * account as its holder knows it: the login identifier and the person's (or service's) name,
 * never the record's id. Inbox and e-mail, in the language of the account's preferences.
 */
async function notifyAccount({
  trx,
  workflow,
  document,
  request,
  environment,
}: EffectContext): Promise<void> {
  const language = holderLanguage(workflow, document.data);
  const t = (key: string, params?: Record<string, unknown>) =>
    translate(environment.texts, language, key, params);
  const login = text(document.data, CONNECTID_KEYS.account ?? '') ?? '';
  const params = {
    login,
    name: accountDisplayName(document.data) ?? login,
    status: t(`statuses.${document.status}`),
  };
  const body = [
    t('account.notices.body', params),
    request.notes ? `${t('notices.notes')} ${request.notes}` : '',
  ]
    .filter(Boolean)
    .join('\n');
  await messageOwner(trx, document, {
    subject: t('account.notices.subject', params),
    body,
    language,
  });
}

export const connectidModule = defineModule({
  id: 'connectid',
  effects: {
    ownAccount,
    uniqueKey,
    groupFromUserType,
    keepLoginIdentifier,
    activateAccount,
    forcePasswordChange,
    forceTotp,
    resetPolicy,
    notifyAccount,
  },
});
