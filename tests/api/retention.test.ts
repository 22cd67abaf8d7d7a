import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RetentionItem } from '../../src/core/retention/plan';
import { startApiServer, type ApiHarness } from '../support/api-server';
import { databaseKinds } from '../support/databases';
import { payOnGateway } from '../support/gateway';
import { paidVisa, VISA_APPLICANT_ROLES } from '../support/granted-visa';
import { applicationsThrough } from '../support/personas';
import { visaApplication } from '../support/visa-data';

/**
 * Retention (docs/retention.md), driven by a clock the test holds: rejected visa applications are
 * kept two years after their rejection, then their uploads deleted and personal fields cleared in
 * the data and every version, their number, status and statistics kept. The dry run lists exactly
 * what the run then does; a legal hold, an open request for information or a refund under way
 * holds a document, listed with the reason; nothing goes before its period.
 */
const TYPE = 'visa-application';
const BASE = `/api/evisa/${TYPE}`;
const DAY = 86_400_000;

interface View {
  id: string;
  version: number;
  status: string;
  number: string | null;
  data: Record<string, unknown> & { applicant?: Record<string, unknown>; documents?: unknown[] };
}
interface Plan {
  at: string;
  digest: string;
  items: RetentionItem[];
}

describe.each(databaseKinds())('retention of closed documents on %s', (kind) => {
  let api: ApiHarness;
  let applicant: string;
  let officer: string;
  let manager: string;
  let now = new Date();
  const started = new Date();
  /** Rejected applications: erased, on legal hold, with an open request, with a refund pending. */
  let erased: View;
  let onHold: View;
  let asked: View;
  let refunding: View;
  const afterPeriod = () => new Date(started.getTime() + 2 * 366 * DAY);

  beforeAll(async () => {
    api = await startApiServer(kind, {}, undefined, undefined, { clock: () => now });
    applicant = await api.tokenFor(VISA_APPLICANT_ROLES, {
      sub: 'applicant-retained',
      name: 'Ana Retained',
      email: 'ana.retained@example.org',
    });
    officer = await api.tokenFor(
      ['visa-application-search', 'visa-application-read', 'visa-application-reject'],
      { sub: 'officer-rejecting', name: 'Rhea Jecter' },
    );
    manager = await api.tokenFor(['retention-manage'], { sub: 'retention-keeper', name: 'Kip' });
    const steps = applicationsThrough(api);
    const rejected = async () => {
      const paid = await paidVisa<View>(steps, applicant, visaApplication('WRK', 'WV1Y'), (id) =>
        payOnGateway(api, TYPE, id, applicant, 'Ana Retained'),
      );
      const response = await api.call('POST', `${BASE}/${paid.id}/actions/reject`, {
        token: officer,
        body: { version: paid.version, notes: 'Not eligible: Ana Retained, passport seen' },
      });
      expect(response.statusCode, response.body).toBe(200);
      return response.json() as View;
    };
    [erased, onHold, asked, refunding] = [
      await rejected(),
      await rejected(),
      await rejected(),
      await rejected(),
    ];
    // What officers and the payment service would have left: a hold, a question, a refund.
    await api.tables
      .updateTable('document')
      .set({ flags: ['legalHold'] })
      .where('id', '=', onHold.id)
      .execute();
    await api.tables
      .insertInto('document_request')
      .values({
        document_id: asked.id,
        round: 1,
        position: 1,
        status: 'QUERIED',
        question: 'Your bank statement',
        opened_at: new Date(),
        opened_by: 'officer-rejecting',
        label: JSON.stringify({ en: 'Bank statement' }),
        kind: 'answer',
        mandatory: true,
        due: '2030-01-01',
      })
      .execute();
    await api.tables
      .insertInto('payment_refund')
      .values({
        refund_number: 'RF-2026-990001',
        document_type: TYPE,
        document_id: refunding.id,
        method: 'card',
        status: 'REQUESTED',
        currency: 'NZD',
        amount_cents: 2000,
        reason: 'refused',
        requested_by: 'officer-rejecting',
      })
      .execute();
  });
  afterAll(async () => {
    await api?.close();
  });

  const plan = async (at?: Date, token = manager) => {
    const query = at ? `?at=${encodeURIComponent(at.toISOString())}` : '';
    const response = await api.call('GET', `/api/retention/plan${query}`, { token });
    expect(response.statusCode, response.body).toBe(200);
    return response.json() as Plan;
  };
  const ours = (items: RetentionItem[]) =>
    items.filter((item) =>
      [erased.id, onHold.id, asked.id, refunding.id].includes(item.documentId),
    );
  const uploadsOf = (view: View) =>
    api.tables
      .selectFrom('document_media')
      .select('media_id')
      .where('document_id', '=', view.id)
      .execute()
      .then((rows) => rows.map((row) => row.media_id).sort());
  const mediaLeft = async (ids: string[]) =>
    ids.length
      ? (await api.tables.selectFrom('media').select('id').where('id', 'in', ids).execute()).length
      : 0;
  const rejectedCount = async () => {
    const response = await api.call('GET', `/api/evisa/statistics/${TYPE}`, { token: officer });
    expect(response.statusCode, response.body).toBe(200);
    const { byStatus } = response.json() as { byStatus: { status: string; count: number }[] };
    return byStatus.find((line) => line.status === 'REJECTED')?.count;
  };

  it('touches nothing before the period ends, and only its managers see the plan', async () => {
    now = new Date(afterPeriod().getTime() - 3 * DAY - 1);
    expect(ours((await plan()).items)).toEqual([]);
    const before = await uploadsOf(erased);
    expect(before.length).toBeGreaterThan(0);
    const run = await api.server.retention.runOnce(now);
    expect(ours(run.done)).toEqual([]);
    expect(await mediaLeft(before)).toBe(before.length);
    expect((await api.call('GET', '/api/retention/plan', { token: officer })).statusCode).toBe(403);
    expect((await api.call('GET', '/api/retention/plan')).statusCode).toBe(401);
    const wrong = await api.call('GET', '/api/retention/plan?at=yesterday', { token: manager });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json().error.fields[0].path).toBe('/at');
  });

  it('erases what its dry run listed, exactly, and holds the held with their reasons', async () => {
    now = afterPeriod();
    const uploads = await uploadsOf(erased);
    const versionsBefore = await api.tables
      .selectFrom('document_version')
      .select('data')
      .where('document_id', '=', erased.id)
      .execute();
    expect(JSON.stringify(versionsBefore)).toContain('passportNumber');
    const statisticsBefore = await rejectedCount();

    const dryRun = await plan(now);
    const listed = ours(dryRun.items);
    const going = listed.find((item) => item.documentId === erased.id)!;
    expect(going).toMatchObject({
      number: erased.number,
      status: 'REJECTED',
      action: 'erase',
      uploads,
    });
    expect(going.held).toBeUndefined();
    expect(going.fields).toEqual(
      expect.arrayContaining(['/applicant/givenName', '/applicant/passportNumber', '/contact']),
    );
    const heldFor = (view: View) => listed.find((item) => item.documentId === view.id)?.held;
    expect(heldFor(onHold)).toEqual(['holdFlag']);
    expect(heldFor(asked)).toEqual(['openRequest']);
    expect(heldFor(refunding)).toEqual(['pendingRefund']);
    // The dry run changed nothing.
    expect(await mediaLeft(uploads)).toBe(uploads.length);

    const response = await api.call('POST', '/api/retention/run', {
      token: manager,
      body: { at: dryRun.at, digest: dryRun.digest },
    });
    expect(response.statusCode, response.body).toBe(200);
    const run = response.json() as { done: RetentionItem[]; held: number; skipped: unknown[] };
    // Exactly the lines of the dry run that were not held, as it listed them.
    expect(run.done).toEqual(dryRun.items.filter((item) => !item.held));
    expect(run.skipped).toEqual([]);
    expect(run.held).toBe(dryRun.items.filter((item) => item.held).length);

    // The uploads gone; the number, status and statistics kept; the personal fields cleared.
    expect(await mediaLeft(uploads)).toBe(0);
    expect(await uploadsOf(erased)).toEqual([]);
    const row = await api.tables
      .selectFrom('document')
      .selectAll()
      .where('id', '=', erased.id)
      .executeTakeFirstOrThrow();
    expect(row).toMatchObject({
      number: erased.number,
      status: 'REJECTED',
      owner_name: null,
      owner_email: null,
      retention_action: 'erase',
    });
    expect(row.data.applicant).not.toHaveProperty('givenName');
    expect(row.data.applicant).not.toHaveProperty('passportNumber');
    expect(row.data).not.toHaveProperty('contact');
    expect(row.data).not.toHaveProperty('documents');
    expect(row.data).toHaveProperty('visa');
    const versions = await api.tables
      .selectFrom('document_version')
      .select('data')
      .where('document_id', '=', erased.id)
      .execute();
    expect(versions.length).toBe(versionsBefore.length);
    const stored = JSON.stringify(versions);
    for (const gone of ['passportNumber', 'givenName', 'ana.retained@example.org'])
      expect(stored).not.toContain(gone);
    const history = await api.tables
      .selectFrom('document_history')
      .select(['action', 'notes'])
      .where('document_id', '=', erased.id)
      .execute();
    expect(history.map((line) => line.action)).toContain('reject');
    expect(history.every((line) => line.notes === null)).toBe(true);
    // The history stays append-only for anything but that erasure.
    await expect(
      api.tables
        .updateTable('document_history')
        .set({ action: 'grant' })
        .where('document_id', '=', erased.id)
        .execute(),
    ).rejects.toThrow(/append-only/);
    expect(await rejectedCount()).toBe(statisticsBefore);

    // The held ones untouched.
    for (const view of [onHold, asked, refunding]) {
      const kept = await api.tables
        .selectFrom('document')
        .select(['data', 'retained_at'])
        .where('id', '=', view.id)
        .executeTakeFirstOrThrow();
      expect(kept.retained_at).toBeNull();
      expect(JSON.stringify(kept.data)).toContain('passportNumber');
      const files = await uploadsOf(view);
      expect(await mediaLeft(files)).toBe(files.length);
    }

    // Each erasure audited, with what went, in the run's transaction.
    await api.server.audit.flush();
    const audit = await api.tables
      .selectFrom('audit_event')
      .selectAll()
      .where('kind', '=', 'retention')
      .where('document_id', '=', erased.id)
      .execute();
    expect(audit).toHaveLength(1);
    expect(audit[0]).toMatchObject({
      action: 'retention.erase',
      actor: 'retention-keeper',
      document_type: TYPE,
    });
    expect(audit[0]!.detail).toMatchObject({
      fields: going.fields,
      uploads,
      number: erased.number,
    });
  });

  it('runs only the plan shown and only what is due now', async () => {
    const stale = await plan(now);
    expect(ours(stale.items).map((item) => item.documentId)).not.toContain(erased.id);
    // A hold lifted after the plan was shown: that plan is no longer the one to run.
    await api.tables
      .updateTable('document')
      .set({ flags: [] })
      .where('id', '=', onHold.id)
      .execute();
    const changed = await api.call('POST', '/api/retention/run', {
      token: manager,
      body: { at: stale.at, digest: stale.digest },
    });
    expect(changed.statusCode).toBe(409);
    expect(changed.json().error.code).toBe('RETENTION_PLAN_CHANGED');
    const future = await api.call('POST', '/api/retention/run', {
      token: manager,
      body: { at: new Date(now.getTime() + DAY).toISOString(), digest: stale.digest },
    });
    expect(future.statusCode).toBe(400);
    expect(future.json().error.code).toBe('RETENTION_NOT_YET');
    expect(await mediaLeft(await uploadsOf(onHold))).toBeGreaterThan(0);

    // The daily job, at the clock's instant: the document no longer held goes, once.
    const daily = await api.server.retention.runOnce(now);
    expect(ours(daily.done).map((item) => item.documentId)).toEqual([onHold.id]);
    const again = await api.server.retention.runOnce(now);
    expect(ours(again.done)).toEqual([]);
    await api.server.audit.flush();
    const lines = await api.tables
      .selectFrom('audit_event')
      .select(['actor', 'action'])
      .where('document_id', '=', onHold.id)
      .where('kind', '=', 'retention')
      .execute();
    expect(lines).toEqual([{ actor: 'system:retention', action: 'retention.erase' }]);
    const runs = await api.call('GET', '/api/retention/runs', { token: manager });
    expect(runs.statusCode).toBe(200);
    expect(runs.json().items.length).toBeGreaterThanOrEqual(3);
  });
});
