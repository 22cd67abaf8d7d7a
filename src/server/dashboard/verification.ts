import { createHash, timingSafeEqual } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { DocumentValidity, VerificationResult } from '../../core/dashboard/types';
import type { CertificateHolders, WorkflowVerification } from '../../core/documents/workflow';
import { resolvePointer } from '../../core/rules/registry';
import type { Database } from '../db/schema';
import { documentsNumbered } from '../documents/store/lists';
import { holderLookup, numberAtLookup, unstorable } from '../documents/store/numbered-in-data';
import type { CompiledWorkflow } from '../documents/workflows';
import { ApiProblem } from '../http/api-error';
import { invalid, requiredTexts } from '../search/compile-search';

/** The one answer for an unknown number, a wrong second factor and a document not issued. */
export const NOT_VERIFIED = 'DOCUMENT_NOT_VERIFIED';
export const NUMBER_MAX_LENGTH = 50;
export const SECOND_FACTOR_MAX_LENGTH = 100;

type VerifiedWorkflow = CompiledWorkflow & {
  definition: CompiledWorkflow['definition'] & { verification: WorkflowVerification };
};

/** A document (or one of its people's certificates) a number names, as the check compares it. */
interface Candidate {
  workflow: VerifiedWorkflow;
  /** The document's id (for the check log). */
  id: string;
  status: string;
  number: string;
  /** The stored values of the declared second factors; null for one left blank. */
  factors: Array<string | null>;
  from: string | null;
  until: string | null;
}

/**
 * The public check: a number and one second factor tell what a document is and whether it is in
 * force, nothing personal; anything else is the same 404. Each lookup goes through an index.
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
      for (const pointer of [...secondFactors, validFrom, validUntil, mainOutcome(definition)])
        if (pointer) pointers.add(pointer);
    }
    this.pointers = [...pointers];
  }

  async verify(body: unknown, now: Date = new Date()): Promise<VerificationResult> {
    const { answer } = await this.check(body, now);
    if (!answer) throw notVerified();
    return answer;
  }

  /**
   * The check, telling besides its answer which document it found, or the one its number named
   * when the details were wrong (for that holder's check log); a 400 for a malformed body.
   */
  async check(
    body: unknown,
    now: Date = new Date(),
  ): Promise<{ answer?: VerificationResult; document?: { type: string; id: string } }> {
    const { number, secondFactor } = readRequest(body);
    if (this.workflows.size === 0) return {};
    let named: { type: string; id: string } | undefined;
    // Numbers are `{PREFIX}-{year}-{serial}` in capitals: the caller's case does not matter.
    for (const candidate of await this.candidates(number.toUpperCase())) {
      const document = { type: candidate.workflow.definition.id, id: candidate.id };
      const { statuses } = candidate.workflow.definition.verification;
      if (!statuses.includes(candidate.status)) continue;
      named ??= document;
      if (!factorMatches(candidate.factors, secondFactor)) continue;
      const { from, until } = candidate;
      const validity = periodState(now.toISOString().slice(0, 10), from, until);
      const answer: VerificationResult = {
        number: candidate.number,
        documentType: candidate.workflow.definition.document,
        validFrom: from === null ? null : (dateOnly(from) ?? from),
        validUntil: until === null ? null : (dateOnly(until) ?? until),
        validity,
        valid: validity === 'inForce',
      };
      return { answer, document };
    }
    return named ? { document: named } : {};
  }

  /** Every document, or person of one, that `number` may name, by the indexes of each kind. */
  private async candidates(number: string): Promise<Candidate[]> {
    // PostgreSQL text holds no NUL character: no number has one (and the database refuses it).
    if (unstorable(number)) return [];
    const all = [...this.workflows.values()];
    const byColumn = all.filter((w) => !w.definition.verification.number);
    const lookups: Array<Promise<Candidate[]>> = [
      documentsNumbered(
        this.db,
        byColumn.map((w) => w.definition.id),
        number,
        this.pointers,
      ).then((rows) => rows.flatMap((row) => this.ofDocument(row))),
    ];
    for (const workflow of all) {
      const { verification, certificate } = workflow.definition;
      const type = workflow.definition.id;
      if (verification.number)
        lookups.push(
          numberAtLookup(this.db, type, verification.number, number, this.pointers)
            .execute()
            .then((rows) => rows.flatMap((row) => this.ofDocument(row))),
        );
      const holders = certificate?.holders;
      if (holders)
        lookups.push(
          holderLookup(this.db, type, holders.list, holders.number, number, this.pointers)
            .execute()
            .then((rows) => rows.flatMap((row) => this.ofHolder(row, holders, number))),
        );
    }
    return (await Promise.all(lookups)).flat();
  }

  /** A field read with the row (column p<i>); a field left blank counts as absent. */
  private column(row: Record<string, unknown>, pointer: string | undefined): string | null {
    const found = pointer ? row[`p${this.pointers.indexOf(pointer)}`] : undefined;
    return typeof found === 'string' && found.trim() !== '' ? found : null;
  }

  /** The document itself, checked by its declared factors. */
  private ofDocument(row: Record<string, unknown>): Candidate[] {
    const workflow = this.workflows.get(String(row.type));
    if (!workflow || typeof row.number !== 'string') return [];
    const { secondFactors, validFrom, validUntil } = workflow.definition.verification;
    // The main person refused (`persons`): the document's own number is nobody's visa.
    if (this.column(row, mainOutcome(workflow.definition)) === 'REFUSED') return [];
    return [
      {
        workflow,
        id: String(row.id),
        status: String(row.status),
        number: row.number,
        factors: secondFactors.map((pointer) => this.column(row, pointer)),
        from: this.column(row, validFrom),
        until: this.column(row, validUntil),
      },
    ];
  }

  /** One of the document's people, checked by their own factors, valid as the document is. */
  private ofHolder(
    row: Record<string, unknown>,
    holders: CertificateHolders,
    number: string,
  ): Candidate[] {
    const workflow = this.workflows.get(String(row.type));
    const holder = row.holder as { item?: unknown } | null;
    if (!workflow || !holder || typeof holder.item !== 'object' || holder.item === null) return [];
    const item = holder.item;
    const text = (pointer: string) => {
      const value = resolvePointer(item, pointer);
      return typeof value === 'string' && value.trim() !== '' ? value : null;
    };
    const { validFrom, validUntil } = workflow.definition.verification;
    return [
      {
        workflow,
        id: String(row.id),
        status: String(row.status),
        number,
        factors: holders.secondFactors.map(text),
        from: this.column(row, validFrom),
        until: this.column(row, validUntil),
      },
    ];
  }
}

/** Where the main person's outcome is, for a workflow deciding each person (`persons`). */
function mainOutcome(workflow: CompiledWorkflow['definition']): string | undefined {
  return workflow.persons && `${workflow.persons.decisions}/0/outcome`;
}

export function notVerified(): ApiProblem {
  return new ApiProblem(404, NOT_VERIFIED, {}, undefined, 'dashboard.errors.documentNotVerified');
}

/** The body's two fields, trimmed; anything missing, not text or too long is a 400 per field. */
function readRequest(body: unknown): { number: string; secondFactor: string } {
  if (typeof body !== 'object' || body === null || Array.isArray(body))
    throw invalid([{ path: '/', rule: 'type', params: { type: 'object' } }]);
  return requiredTexts(body as Record<string, unknown>, {
    number: NUMBER_MAX_LENGTH,
    secondFactor: SECOND_FACTOR_MAX_LENGTH,
  });
}

/**
 * Whether `given` is one of the stored factors (those left blank never match). Every one is
 * compared, with no early exit, in constant time: the answer's timing tells nothing.
 */
export function factorMatches(stored: ReadonlyArray<string | null>, given: string): boolean {
  const fingerprintGiven = fingerprint(normalizeFactor(given));
  let matches = false;
  for (const value of stored) {
    if (value !== null)
      matches = timingSafeEqual(fingerprint(normalizeFactor(value)), fingerprintGiven) || matches;
  }
  return matches;
}

/** A second factor as compared: no spaces, any case, a date (DD/MM/YYYY or ISO) as YYYY-MM-DD. */
export function normalizeFactor(value: string): string {
  const compact = value.replace(/\s+/g, '').toLowerCase();
  const dayFirst = /^(\d{1,2})[/.-](\d{1,2})[/.-](\d{4})$/.exec(compact);
  if (dayFirst) return isoDate(dayFirst[3]!, dayFirst[2]!, dayFirst[1]!);
  return dateOnly(compact) ?? compact;
}

/** `YYYY-MM-DD` of a date or date-time written year first, else undefined. */
export function dateOnly(value: string): string | undefined {
  const yearFirst = /^(\d{4})-(\d{1,2})-(\d{1,2})(?:[tT ].*)?$/.exec(value.trim());
  return yearFirst ? isoDate(yearFirst[1]!, yearFirst[2]!, yearFirst[3]!) : undefined;
}

function isoDate(year: string, month: string, day: string): string {
  return `${year}-${month.padStart(2, '0')}-${day.padStart(2, '0')}`;
}

/** Today against [from, until], both included; a missing bound is none, one not a date expires it. */
export function periodState(
  today: string,
  from: string | null,
  until: string | null,
): DocumentValidity {
  const start = from === null ? undefined : dateOnly(from);
  const end = until === null ? undefined : dateOnly(until);
  if ((from !== null && !start) || (until !== null && !end)) return 'expired';
  if (start && today < start) return 'notYetInForce';
  if (end && end < today) return 'expired';
  return 'inForce';
}

/** A fixed-length digest, so comparing two factors takes the same time whatever they hold. */
function fingerprint(value: string): Buffer {
  return createHash('sha256').update(value).digest();
}
