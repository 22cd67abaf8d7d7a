import { createHash, timingSafeEqual } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { VerificationResult } from '../../core/dashboard/types';
import type { WorkflowVerification } from '../../core/documents/workflow';
import type { Database } from '../db/schema';
import { documentsNumbered } from '../documents/store/lists';
import type { CompiledWorkflow } from '../documents/workflows';
import { ApiProblem, ERROR_CODES, type FieldProblem } from '../http/api-error';

/** The one answer for an unknown number, a wrong second factor and a document not issued. */
export const NOT_VERIFIED = 'DOCUMENT_NOT_VERIFIED';
export const NUMBER_MAX_LENGTH = 50;
export const SECOND_FACTOR_MAX_LENGTH = 100;

type VerifiedWorkflow = CompiledWorkflow & {
  definition: CompiledWorkflow['definition'] & { verification: WorkflowVerification };
};

/**
 * The public check of an electronic document (the home page's search): anyone holding a
 * document's number and one of its second factors (passport number, date of birth...) learns
 * what the document is, its status and validity, and nothing personal. Everything that is not
 * a match answers the same 404, so the endpoint tells no one whether a number exists.
 */
export class DocumentVerifier {
  private readonly workflows: Map<string, VerifiedWorkflow>;
  /** Every data pointer any verification reads, selected as columns p0, p1... */
  private readonly pointers: string[];

  constructor(
    private readonly db: Kysely<Database>,
    workflows: Iterable<CompiledWorkflow>,
  ) {
    this.workflows = new Map(
      [...workflows]
        .filter((w): w is VerifiedWorkflow => w.definition.verification !== undefined)
        .map((w) => [w.definition.id, w]),
    );
    const pointers = new Set<string>();
    for (const { definition } of this.workflows.values()) {
      const { secondFactors, validFrom, validUntil } = definition.verification;
      for (const pointer of [...secondFactors, validFrom, validUntil])
        if (pointer) pointers.add(pointer);
    }
    this.pointers = [...pointers];
  }

  async verify(body: unknown, now: Date = new Date()): Promise<VerificationResult> {
    const { number, secondFactor } = readRequest(body);
    if (this.workflows.size === 0) throw notVerified();
    // Numbers are `{PREFIX}-{year}-{serial}` in capitals: the caller's case does not matter,
    // and the (type, number) index finds the row.
    const rows = await documentsNumbered(
      this.db,
      [...this.workflows.keys()],
      number.toUpperCase(),
      this.pointers,
    );
    const given = fingerprint(normalizeFactor(secondFactor));
    for (const row of rows) {
      const workflow = this.workflows.get(String(row.type));
      if (!workflow) continue;
      const { statuses, secondFactors, validFrom, validUntil } = workflow.definition.verification;
      // A field left blank counts as absent: it matches nothing and bounds nothing.
      const value = (pointer: string | undefined): string | null => {
        const found = pointer ? row[`p${this.pointers.indexOf(pointer)}`] : undefined;
        return typeof found === 'string' && found.trim() !== '' ? found : null;
      };
      // Every declared factor is compared (no early exit), in constant time.
      let matches = false;
      for (const pointer of secondFactors) {
        const stored = value(pointer);
        if (stored !== null)
          matches = timingSafeEqual(fingerprint(normalizeFactor(stored)), given) || matches;
      }
      if (!matches || !statuses.includes(String(row.status))) continue;
      const from = value(validFrom);
      const until = value(validUntil);
      return {
        number: String(row.number),
        documentType: workflow.definition.document,
        status: String(row.status),
        validFrom: from === null ? null : (dateOnly(from) ?? from),
        validUntil: until === null ? null : (dateOnly(until) ?? until),
        valid: withinPeriod(now.toISOString().slice(0, 10), from, until),
      };
    }
    throw notVerified();
  }
}

function notVerified(): ApiProblem {
  return new ApiProblem(404, NOT_VERIFIED, {}, undefined, 'dashboard.errors.documentNotVerified');
}

/** The body's two fields, trimmed; anything missing, not text or too long is a 400 per field. */
function readRequest(body: unknown): { number: string; secondFactor: string } {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw new ApiProblem(400, ERROR_CODES.validationFailed, {}, [
      { path: '/', rule: 'type', params: { type: 'object' } },
    ]);
  }
  const problems: FieldProblem[] = [];
  const text = (name: 'number' | 'secondFactor', limit: number): string => {
    const raw = (body as Record<string, unknown>)[name];
    if (raw !== undefined && raw !== null && typeof raw !== 'string') {
      problems.push({ path: `/${name}`, rule: 'type', params: { type: 'string' } });
      return '';
    }
    const value = (raw ?? '').trim();
    if (value === '') problems.push({ path: `/${name}`, rule: 'required' });
    else if (value.length > limit)
      problems.push({ path: `/${name}`, rule: 'maxLength', params: { limit } });
    return value;
  };
  const number = text('number', NUMBER_MAX_LENGTH);
  const secondFactor = text('secondFactor', SECOND_FACTOR_MAX_LENGTH);
  if (problems.length) throw new ApiProblem(400, ERROR_CODES.validationFailed, {}, problems);
  return { number, secondFactor };
}

/**
 * A second factor as compared: spaces removed, case ignored; a date, whether typed
 * `DD/MM/YYYY` (also with `.` or `-`) or stored `YYYY-MM-DD` (or as a date-time), becomes
 * `YYYY-MM-DD`, so "04/05/1990" matches a stored "1990-05-04".
 */
export function normalizeFactor(value: string): string {
  const compact = value.replace(/\s+/g, '').toLowerCase();
  const dayFirst = /^(\d{1,2})[/.-](\d{1,2})[/.-](\d{4})$/.exec(compact);
  if (dayFirst) return isoDate(dayFirst[3]!, dayFirst[2]!, dayFirst[1]!);
  return dateOnly(compact) ?? compact;
}

/** `YYYY-MM-DD` of a date or date-time written year first, else undefined. */
function dateOnly(value: string): string | undefined {
  const yearFirst = /^(\d{4})-(\d{1,2})-(\d{1,2})(?:[tT ].*)?$/.exec(value.trim());
  return yearFirst ? isoDate(yearFirst[1]!, yearFirst[2]!, yearFirst[3]!) : undefined;
}

function isoDate(year: string, month: string, day: string): string {
  return `${year}-${month.padStart(2, '0')}-${day.padStart(2, '0')}`;
}

/**
 * Today within [from, until], both days included; a bound the document lacks does not limit it.
 * A bound that is not a date makes the document not valid rather than valid forever.
 */
function withinPeriod(today: string, from: string | null, until: string | null): boolean {
  const start = from === null ? undefined : dateOnly(from);
  const end = until === null ? undefined : dateOnly(until);
  if ((from !== null && !start) || (until !== null && !end)) return false;
  return (!start || start <= today) && (!end || today <= end);
}

/** A fixed-length digest, so comparing two factors takes the same time whatever they hold. */
function fingerprint(value: string): Buffer {
  return createHash('sha256').update(value).digest();
}
