import { createHmac, randomInt } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { WorkflowDefinition } from '../../core/documents/workflow';
import { translate, type Language } from '../../core/i18n/translate';
import { resolvePointer } from '../../core/rules/registry';
import {
  formatShareCode,
  normalizeShareCode,
  SHARE_CODE_ALPHABET,
  SHARE_CODE_LENGTH,
  type DocumentShareCodes,
  type NewShareCode,
  type ShareCheckAnswer,
  type ShareCode,
  type StatusCheck,
  type StatusCheckMethod,
  type StatusCheckResult,
} from '../../core/documents/share-codes';
import type { ShareCodeField, WorkflowShareCodes } from '../../core/definitions/shapes/share-codes';
import type { Principal } from '../auth/principal';
import { factorMatches, periodState, dateOnly } from '../dashboard/verification';
import type { Database } from '../db/schema';
import { UUID } from '../db/ids';
import { addressClass } from '../http/address-class';
import { ApiProblem, ERROR_CODES, type FieldProblem } from '../http/api-error';
import { asObject, invalid, requiredTexts } from '../search/compile-search';
import { portalUrl } from './certificate';
import {
  storedCatalogNames,
  valueWords,
  type CatalogNames,
  type WordingSource,
} from './value-words';
import { visibleRow } from './commands';
import type { EffectEnvironment } from './effect-context';
import { holderTexts, messageOwner } from './effects';
import { noticePath } from './notice-path';
import { draftOf, findDocument, type DocumentRow, type Queryable } from './store/rows';
import {
  checksOf,
  clearRefusals,
  codeByHash,
  codesOf,
  countRefusal,
  insertCheck,
  insertCode,
  mediaContent,
  revokeCode,
  shareCodeKey,
  type ShareCodeRow,
} from './store/share-codes';
import type { CompiledWorkflow } from './workflows';

/**
 * Share codes and the check log (docs/status-sharing.md). The holder of a document whose
 * workflow declares `shareCodes` makes a code for a purpose; a third party checks with it and one
 * of the holder's details, and is shown what the purpose declares. Every public check (by code,
 * by number, by QR) is logged for the holder, and one that shows their document tells them.
 */

/** Refused checks of one code before it answers nothing for a while, and how long. */
export const MAX_REFUSED_CHECKS = 5;
export const LOCKOUT_MINUTES = 15;
/** Lines of the check log the holder reads at most. */
const LOG_LIMIT = 200;
const CODE_MAX_LENGTH = 30;
const FACTOR_MAX_LENGTH = 100;
const DAY_MS = 86_400_000;

/** The one answer for an unknown code, a wrong detail, an expired or revoked code. */
export const SHARE_CODE_NOT_VERIFIED = 'SHARE_CODE_NOT_VERIFIED';

/** Who writes the notices of checks (no person acts). */
const CHECK_ACTOR: Principal = {
  subject: 'system:status-check',
  roles: [],
  name: 'system:status-check',
};

type SharingWorkflow = CompiledWorkflow & {
  definition: WorkflowDefinition & { shareCodes: WorkflowShareCodes };
};

/** Where a check comes from and what language its answer is in. */
export interface CheckOrigin {
  address: string;
  language: Language;
}

function notVerified(): ApiProblem {
  return new ApiProblem(404, ERROR_CODES.shareCodeNotVerified);
}

function randomText(length: number): string {
  let text = '';
  for (let i = 0; i < length; i++)
    text += SHARE_CODE_ALPHABET[randomInt(SHARE_CODE_ALPHABET.length)];
  return text;
}

const iso = (date: Date | string) => new Date(date).toISOString();

function stateOf(row: ShareCodeRow, now: Date): ShareCode['state'] {
  if (row.revoked_at) return 'revoked';
  return new Date(row.expires_at) <= now ? 'expired' : 'active';
}

function codeOf(row: ShareCodeRow & { checks?: number }, now: Date): ShareCode {
  return {
    id: row.id,
    purpose: row.purpose,
    createdAt: iso(row.created_at),
    expiresAt: iso(row.expires_at),
    revokedAt: row.revoked_at ? iso(row.revoked_at) : null,
    state: stateOf(row, now),
    checks: row.checks ?? 0,
  };
}

export class ShareCodeService {
  private key: Promise<string> | undefined;

  constructor(
    private readonly db: Kysely<Database>,
    /** The workflows served by the backend (its document routes'). */
    private readonly workflows: ReadonlyMap<string, CompiledWorkflow>,
    /** The texts and the inbox notices go through (the documents service's). */
    private readonly environment: () => EffectEnvironment,
    private readonly clock: () => Date = () => new Date(),
  ) {}

  /** The workflow, if it declares share codes (else 404). */
  private sharing(type: string): SharingWorkflow {
    const workflow = this.workflows.get(type);
    if (!workflow?.definition.shareCodes) throw new ApiProblem(404, ERROR_CODES.notFound);
    return workflow as SharingWorkflow;
  }

  /** The caller's own document: one they may not see is a 404, another's a 403. */
  private async holderRow(
    db: Queryable,
    workflow: CompiledWorkflow,
    principal: Principal,
    id: string,
  ): Promise<DocumentRow> {
    const row = await visibleRow(db, workflow, principal, id);
    if (row.owner !== principal.subject) throw new ApiProblem(403, ERROR_CODES.notOwner);
    return row;
  }

  private async hash(code: string): Promise<string> {
    this.key ??= shareCodeKey(this.db);
    const key = await this.key.catch((error: unknown) => {
      this.key = undefined;
      throw error;
    });
    return createHmac('sha256', key).update(normalizeShareCode(code)).digest('hex');
  }

  /** The document's codes, its purposes, and whether the holder may make one now. */
  async list(type: string, principal: Principal, id: string): Promise<DocumentShareCodes> {
    const workflow = this.sharing(type);
    const row = await this.holderRow(this.db, workflow, principal, id);
    const declared = workflow.definition.shareCodes;
    const now = this.clock();
    return {
      items: (await codesOf(this.db, row.id)).map((code) => codeOf(code, now)),
      purposes: declared.purposes.map(({ id: purpose, label }) => ({ id: purpose, label })),
      defaultDays: declared.defaultDays,
      maxDays: declared.maxDays,
      mayCreate: declared.statuses.includes(row.status),
    };
  }

  /** Makes a code for a purpose, valid `days` (shown this once: only its hash is kept). */
  async create(
    type: string,
    principal: Principal,
    id: string,
    body: unknown,
  ): Promise<NewShareCode> {
    const workflow = this.sharing(type);
    const declared = workflow.definition.shareCodes;
    const given = asObject(body);
    const problems: FieldProblem[] = [];
    const purpose = declared.purposes.find((p) => p.id === given.purpose);
    if (given.purpose === undefined || given.purpose === null || given.purpose === '')
      problems.push({ path: '/purpose', rule: 'required' });
    else if (!purpose)
      problems.push({
        path: '/purpose',
        rule: 'enum',
        params: { allowedValues: declared.purposes.map((p) => p.id) },
      });
    const days = given.days ?? declared.defaultDays;
    if (typeof days !== 'number' || !Number.isInteger(days))
      problems.push({ path: '/days', rule: 'type', params: { type: 'integer' } });
    else if (days < 1)
      problems.push({ path: '/days', rule: 'minimum', params: { comparison: '>=', limit: 1 } });
    else if (days > declared.maxDays)
      problems.push({
        path: '/days',
        rule: 'maximum',
        params: { comparison: '<=', limit: declared.maxDays },
      });
    if (problems.length || !purpose || typeof days !== 'number') throw invalid(problems);
    const row = await this.holderRow(this.db, workflow, principal, id);
    if (!declared.statuses.includes(row.status))
      throw new ApiProblem(409, ERROR_CODES.shareCodesClosed, { status: row.status });
    const now = this.clock();
    // 31^9 codes: a clash is most unlikely, and the unique hash refuses one; then draw again.
    for (let attempt = 0; ; attempt++) {
      const code = randomText(SHARE_CODE_LENGTH);
      try {
        const stored = await insertCode(this.db, {
          documentType: row.type,
          documentId: row.id,
          hash: await this.hash(code),
          purpose: purpose.id,
          createdBy: principal.subject,
          createdAt: now,
          expiresAt: new Date(now.getTime() + days * DAY_MS),
        });
        return { ...codeOf(stored, now), code: formatShareCode(code) };
      } catch (error) {
        if (attempt >= 3) throw error;
      }
    }
  }

  /** Revokes a code of the holder's document: it answers nothing from now on. */
  async revoke(type: string, principal: Principal, id: string, codeId: string): Promise<ShareCode> {
    const workflow = this.sharing(type);
    const row = await this.holderRow(this.db, workflow, principal, id);
    const now = this.clock();
    const revoked = UUID.test(codeId) ? await revokeCode(this.db, row.id, codeId, now) : undefined;
    if (!revoked) throw new ApiProblem(404, ERROR_CODES.notFound);
    const counted = (await codesOf(this.db, row.id)).find((c) => c.id === revoked.id);
    return codeOf(counted ?? revoked, now);
  }

  /** The holder's check log: every public check of the document, newest first. */
  async checks(type: string, principal: Principal, id: string): Promise<{ items: StatusCheck[] }> {
    const workflow = this.workflows.get(type);
    if (!workflow?.definition.shareCodes && !workflow?.definition.verification)
      throw new ApiProblem(404, ERROR_CODES.notFound);
    const row = await this.holderRow(this.db, workflow, principal, id);
    return {
      items: (await checksOf(this.db, row.id, LOG_LIMIT)).map((check) => ({
        reference: check.reference,
        checkedAt: iso(check.checked_at),
        method: check.method as StatusCheckMethod,
        purpose: check.purpose,
        addressClass: check.address_class,
        result: check.result as StatusCheckResult,
      })),
    };
  }

  /**
   * The public check by code and one of the holder's details. Anything but a live code of a
   * document in a declared status with a right detail is the same 404; too many wrong details
   * for one code make it answer nothing for a while (the code itself is never changed).
   */
  async check(body: unknown, origin: CheckOrigin): Promise<ShareCheckAnswer> {
    const { code, holderFactor } = readCheck(body);
    const now = this.clock();
    const normalized = normalizeShareCode(code);
    const wellFormed =
      normalized.length === SHARE_CODE_LENGTH &&
      [...normalized].every((c) => SHARE_CODE_ALPHABET.includes(c));
    const hash = await this.hash(wellFormed ? normalized : '');
    const answer = await this.db.transaction().execute(async (trx) => {
      const found = wellFormed ? await codeByHash(trx, hash) : undefined;
      const workflow = found && this.workflows.get(found.document_type);
      const declared = workflow?.definition.shareCodes;
      const row =
        found && declared && (await findDocument(trx, found.document_type, found.document_id));
      const log = (result: StatusCheckResult) =>
        this.log(trx, {
          document: row ?? undefined,
          shareCodeId: found?.id ?? null,
          method: 'shareCode',
          purpose: found?.purpose ?? null,
          address: origin.address,
          result,
          now,
        });
      if (!found || !workflow || !declared || !row) {
        await log('refused');
        return undefined;
      }
      const factors = declared.holderFactors.map((pointer) => textAt(row.data, pointer));
      const matches = factorMatches(factors, holderFactor);
      const live =
        !found.revoked_at &&
        new Date(found.expires_at) > now &&
        !(found.locked_until && new Date(found.locked_until) > now) &&
        declared.statuses.includes(row.status);
      const purpose = declared.purposes.find((p) => p.id === found.purpose);
      if (!matches || !live || !purpose) {
        if (!matches && live)
          await countRefusal(
            trx,
            found.id,
            MAX_REFUSED_CHECKS,
            new Date(now.getTime() + LOCKOUT_MINUTES * 60_000),
          );
        await log('refused');
        return undefined;
      }
      await clearRefusals(trx, found.id);
      const reference = await log('shown');
      await this.notify(trx, workflow, row, {
        reference,
        method: 'shareCode',
        purpose: purpose.label,
        now,
      });
      return this.answer(
        trx,
        workflow as SharingWorkflow,
        row,
        purpose.id,
        reference,
        now,
        origin.language,
      );
    });
    if (!answer) throw notVerified();
    return answer;
  }

  /**
   * Logs a check by number or QR (`POST /verification`): the document it showed, or the one its
   * number named with wrong details; a check naming none is logged without a document.
   */
  async logVerification(
    found: { type: string; id: string } | undefined,
    method: 'number' | 'qr',
    result: StatusCheckResult,
    address: string,
  ): Promise<void> {
    const now = this.clock();
    await this.db.transaction().execute(async (trx) => {
      const workflow = found && this.workflows.get(found.type);
      const row = workflow && found && (await findDocument(trx, found.type, found.id));
      const reference = await this.log(trx, {
        document: row ?? undefined,
        shareCodeId: null,
        method,
        purpose: null,
        address,
        result,
        now,
      });
      if (workflow && row && result === 'shown')
        await this.notify(trx, workflow, row, { reference, method, purpose: null, now });
    });
  }

  /** One line of the check log; answers its reference (`CHK-` and ten characters). */
  private async log(
    trx: Queryable,
    check: {
      document: DocumentRow | undefined;
      shareCodeId: string | null;
      method: StatusCheckMethod;
      purpose: string | null;
      address: string;
      result: StatusCheckResult;
      now: Date;
    },
  ): Promise<string> {
    const reference = `CHK-${randomText(10)}`;
    await insertCheck(trx, {
      reference,
      documentType: check.document?.type ?? null,
      documentId: check.document?.id ?? null,
      shareCodeId: check.shareCodeId,
      method: check.method,
      purpose: check.purpose,
      addressClass: addressClass(check.address),
      result: check.result,
      checkedAt: check.now,
    });
    return reference;
  }

  /** Tells the holder, in their language, that their document was checked, and how. */
  private async notify(
    trx: Parameters<typeof messageOwner>[0]['trx'],
    workflow: CompiledWorkflow,
    row: DocumentRow,
    check: { reference: string; method: StatusCheckMethod; purpose: string | null; now: Date },
  ): Promise<void> {
    const definition = workflow.definition;
    const environment = this.environment();
    const context = {
      trx,
      workflow: definition,
      document: draftOf(row),
      principal: CHECK_ACTOR,
      environment,
    };
    const { language, t } = await holderTexts(context);
    const key = definition.shareCodes?.notice ?? 'notices.statusCheck';
    const params = {
      title: t(`${definition.document}._title`),
      number: row.number ?? row.id,
      reference: check.reference,
      date: new Intl.DateTimeFormat(language === 'fr' ? 'fr-FR' : 'en-GB', {
        dateStyle: 'long',
        timeStyle: 'short',
        timeZone: 'UTC',
      }).format(check.now),
      how:
        check.method === 'shareCode'
          ? t('notices.statusCheck.byShareCode', { purpose: check.purpose ? t(check.purpose) : '' })
          : t(`notices.statusCheck.${check.method === 'qr' ? 'byQr' : 'byNumber'}`),
    };
    const link = portalUrl(environment.publicUrl, noticePath(definition, context.document));
    await messageOwner(context, {
      subject: t(`${key}.subject`, params),
      body: [
        row.owner_name ? t('notices.greeting', { name: row.owner_name }) : '',
        t(`${key}.body`, params),
        t('notices.link', { link }),
      ]
        .filter(Boolean)
        .join('\n'),
      language,
    });
  }

  /** What the purpose shows of the document, in the checker's language. */
  private async answer(
    db: Queryable,
    workflow: SharingWorkflow,
    row: DocumentRow,
    purposeId: string,
    reference: string,
    now: Date,
    language: Language,
  ): Promise<ShareCheckAnswer> {
    const definition = workflow.definition;
    const declared = definition.shareCodes;
    const purpose = declared.purposes.find((p) => p.id === purposeId)!;
    const { texts } = this.environment();
    const t = (key: string) => translate(texts, language, key);
    const fromPointer = declared.validFrom ?? definition.verification?.validFrom;
    const untilPointer = declared.validUntil ?? definition.verification?.validUntil;
    const from = fromPointer ? textAt(row.data, fromPointer) : null;
    const until = untilPointer ? textAt(row.data, untilPointer) : null;
    return {
      reference,
      checkedAt: now.toISOString(),
      purpose: purpose.id,
      purposeLabel: t(purpose.label),
      documentType: definition.document,
      // What the holder holds (an e-visa) rather than what they applied with, when it has a name.
      documentTitle: t(definition.certificate?.title ?? `${definition.document}._title`),
      language,
      name: declared.name
        .map((pointer) => textAt(row.data, pointer))
        .filter((part): part is string => part !== null)
        .join(' '),
      photo: declared.photo ? await photoOf(db, row.data, declared.photo) : null,
      validity: periodState(now.toISOString().slice(0, 10), from, until),
      validFrom: from === null ? null : (dateOnly(from) ?? from),
      validUntil: until === null ? null : (dateOnly(until) ?? until),
      fields: await wordedFields(purpose.fields, {
        entity: workflow.entity,
        data: row.data,
        texts,
        language,
        names: storedCatalogNames(db, language, now),
        t,
      }),
    };
  }
}

/** The body's two fields, trimmed; missing, not text or too long is a 400 per field. */
function readCheck(body: unknown): { code: string; holderFactor: string } {
  return requiredTexts(asObject(body), {
    code: CODE_MAX_LENGTH,
    holderFactor: FACTOR_MAX_LENGTH,
  });
}

/** A text (or number) of the data; blank is none. */
function textAt(data: unknown, pointer: string): string | null {
  const value = resolvePointer(data, pointer);
  if (typeof value === 'number') return String(value);
  return typeof value === 'string' && value.trim() !== '' ? value.trim() : null;
}

/** A field as shown: a list's items' `each` joined, else its text; none when empty. */
/**
 * A purpose's lines as the checker reads them: each value worded as the e-visa words it (a
 * country's name, not its code; a date as DD/MM/YYYY); a list's items joined by "; "; a field
 * without a value, or a yes/no, left out.
 */
async function wordedFields(
  fields: readonly ShareCodeField[],
  source: WordingSource & { names: CatalogNames; t: (key: string) => string },
): Promise<Array<{ label: string; value: string }>> {
  const words = valueWords(source, source.names);
  const lines: Array<{ label: string; value: string }> = [];
  for (const field of fields) {
    const value = resolvePointer(source.data, field.pointer);
    const parts: Array<[unknown, string]> = Array.isArray(value)
      ? value.map((item, i) =>
          field.each
            ? [resolvePointer(item, field.each), `${field.pointer}/${i}${field.each}`]
            : [item, `${field.pointer}/${i}`],
        )
      : [[value, field.pointer]];
    const texts: string[] = [];
    for (const [part, pointer] of parts)
      if ((typeof part === 'string' && part !== '') || typeof part === 'number')
        texts.push(await words(part, pointer));
    if (texts.length) lines.push({ label: source.t(field.label), value: texts.join('; ') });
  }
  return lines;
}

/** The holder's photo as a data: URL, when the declared upload is an image. */
async function photoOf(
  db: Queryable,
  data: unknown,
  photo: NonNullable<WorkflowShareCodes['photo']>,
): Promise<string | null> {
  const list = resolvePointer(data, photo.list);
  if (!Array.isArray(list)) return null;
  const item = list.find(
    (entry) => resolvePointer(entry, `/${photo.match.field}`) === photo.match.equals,
  ) as unknown;
  const file = item === undefined ? undefined : resolvePointer(item, photo.file);
  const mediaId = typeof file === 'object' && file !== null ? (file as { id?: unknown }).id : file;
  if (typeof mediaId !== 'string' || !UUID.test(mediaId)) return null;
  const media = await mediaContent(db, mediaId);
  if (!media || !/^image\/(png|jpeg|gif|webp)$/.test(media.type)) return null;
  return `data:${media.type};base64,${Buffer.from(media.content).toString('base64')}`;
}
