import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApiServer, type ApiHarness } from '../support/api-server';
import { databaseKinds } from '../support/databases';
import { multipartFile } from '../support/multipart';
import { visaApplication } from '../support/visa-data';

/**
 * The read audit and its search (docs/audit.md): an officer's opening of an application and
 * download of its upload are lines of the trail, found by document, person and kind, and in the
 * CSV export (itself a line); the applicant's own reads are not recorded; only `audit-read` may
 * search; bad filters are refused with a reason.
 */
const TYPE = 'visa-application';
const BASE = `/api/evisa/${TYPE}`;
const SCREEN = '/visa/applications/:id';
const PDF = Buffer.concat([
  Buffer.from('%PDF-1.4\n'),
  Buffer.alloc(100, 32),
  Buffer.from('%%EOF\n'),
]);

interface Line {
  id: string;
  at: string;
  kind: string;
  action: string;
  actor: string;
  actorName: string;
  documentId: string | null;
  documentNumber: string | null;
  target: string | null;
  route: string | null;
  screen: string | null;
  detail: Record<string, unknown> | null;
}

describe.each(databaseKinds())('audit search on %s', (kind) => {
  let api: ApiHarness;
  let applicant: string;
  let officer: string;
  let auditor: string;

  beforeAll(async () => {
    api = await startApiServer(kind);
    applicant = await api.tokenFor(
      ['visa-application-submit', 'visa-application-read', 'visa-application-update'],
      { sub: 'applicant-ana', name: 'Ana Tui' },
    );
    officer = await api.tokenFor(['visa-application-search', 'visa-application-read'], {
      sub: 'officer-vera',
      name: 'Vera Officer',
    });
    auditor = await api.tokenFor(['audit-read'], { sub: 'auditor-tavi', name: 'Tavi Auditor' });
  });
  afterAll(async () => api?.close());

  const get = (url: string, token: string, headers: Record<string, string> = {}) =>
    api.call('GET', url, { token, headers });
  const lines = async (query: string, token = auditor) => {
    const response = await get(`/api/audit/events?${query}`, token);
    expect(response.statusCode, response.body).toBe(200);
    return response.json() as { items: Line[]; next?: string };
  };

  it("records an officer's reads of an application and its upload, never the applicant's own", async () => {
    // The applicant's application, naming an upload.
    const { body: payload, contentType } = multipartFile('passport.pdf', 'application/pdf', PDF);
    const uploaded = await api.app.inject({
      method: 'POST',
      url: '/api/media',
      headers: { authorization: `Bearer ${applicant}`, 'content-type': contentType },
      payload,
    });
    expect(uploaded.statusCode, uploaded.body).toBe(201);
    const file = uploaded.json() as { id: string };
    const created = await api.call('POST', BASE, {
      token: applicant,
      body: { data: visaApplication('VIS', 'VV30') },
    });
    expect(created.statusCode, created.body).toBe(201);
    const stored = created.json() as {
      id: string;
      version: number;
      data: { documents: Array<Record<string, unknown>> };
    };
    const updated = await api.call('PUT', `${BASE}/${stored.id}`, {
      token: applicant,
      body: {
        version: stored.version,
        data: { ...stored.data, documents: stored.data.documents.map((d) => ({ ...d, file })) },
      },
    });
    expect(updated.statusCode, updated.body).toBe(200);

    // The applicant reads it all back: nothing recorded.
    expect((await get(`${BASE}/${stored.id}`, applicant)).statusCode).toBe(200);
    expect((await get(`${BASE}/${stored.id}/history`, applicant)).statusCode).toBe(200);
    expect((await get(`/api/media/${file.id}`, applicant)).statusCode).toBe(200);
    const ownSearch = await api.call('PATCH', BASE, { token: applicant, body: {} });
    expect(ownSearch.statusCode, ownSearch.body).toBe(200);

    // The officer opens it from the portal's screen, reads its history, downloads the upload.
    const screen = { 'x-portal-screen': SCREEN };
    expect((await get(`${BASE}/${stored.id}`, officer, screen)).statusCode).toBe(200);
    expect((await get(`${BASE}/${stored.id}/history`, officer, screen)).statusCode).toBe(200);
    expect((await get(`/api/media/${file.id}`, officer, screen)).statusCode).toBe(200);
    const search = await api.call('PATCH', BASE, {
      token: officer,
      body: { options: { itemsPerPage: 5 } },
    });
    expect(search.statusCode, search.body).toBe(200);
    await api.server.audit.flush();

    const found = (await lines(`document=${stored.id}`)).items;
    const reads = found.filter((line) => line.kind === 'read');
    expect(reads.map((line) => [line.action, line.actor]).sort()).toEqual([
      ['document.read', 'officer-vera'],
      ['document.read', 'officer-vera'],
      ['upload.read', 'officer-vera'],
    ]);
    const opened = reads.find((line) => line.action === 'document.read' && !line.detail)!;
    expect(opened).toMatchObject({
      actorName: 'Vera Officer',
      documentId: stored.id,
      route: 'GET /api/evisa/:type/:id',
      screen: SCREEN,
    });
    expect(reads.find((line) => line.action === 'upload.read')).toMatchObject({
      target: file.id,
      documentId: stored.id,
      route: 'GET /api/media/:id',
    });
    // The document's own changes are lines of the same search (its history, read where it is).
    expect(found.some((line) => line.kind === 'change' && line.actor === 'applicant-ana')).toBe(
      true,
    );
    // Newest first.
    const times = found.map((line) => line.at);
    expect([...times].sort().reverse()).toEqual(times);

    // The applicant's own reads: none anywhere in the trail.
    expect((await lines('person=applicant-ana&kind=read')).items).toEqual([]);
    // By person (a piece of the name) and kind: the officer's search page names the document.
    const officerReads = (await lines('person=vera&kind=read')).items;
    expect(officerReads.every((line) => line.actor === 'officer-vera')).toBe(true);
    const page = officerReads.find((line) => line.action === 'search.page');
    expect(page?.detail).toMatchObject({ type: TYPE, itemsPerPage: 5 });
    expect(page?.detail?.ids).toContain(stored.id);

    // Paging: pages of one line give every line once, in the same order.
    const all = (await lines(`document=${stored.id}&limit=500`)).items.map((line) => line.id);
    const paged: string[] = [];
    let cursor: string | undefined;
    do {
      const next = await lines(
        `document=${stored.id}&limit=2${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`,
      );
      paged.push(...next.items.map((line) => line.id));
      cursor = next.next;
    } while (cursor);
    expect(paged).toEqual(all);

    // The CSV: the same lines, the officer's read and download among them; its export recorded.
    const csv = await get(`/api/audit/events.csv?document=${stored.id}`, auditor);
    expect(csv.statusCode, csv.body).toBe(200);
    expect(csv.headers['content-type']).toMatch(/^text\/csv/);
    expect(csv.headers['content-disposition']).toMatch(/^attachment; filename="audit-/);
    expect(csv.body.startsWith('\uFEFFat,kind,kind_words,action,action_words,actor')).toBe(true);
    const rows = csv.body.slice(1).trim().split('\r\n');
    expect(rows).toHaveLength(all.length + 1);
    const officerRows = rows.filter((row) => row.includes('officer-vera'));
    expect(officerRows.some((row) => row.includes(',upload.read,Downloaded an upload,'))).toBe(
      true,
    );
    expect(officerRows.some((row) => row.includes(',document.read,Opened a document,'))).toBe(true);
    expect(officerRows.some((row) => row.includes(file.id))).toBe(true);
    expect(rows.some((row) => row.includes('applicant-ana') && row.includes(',read,'))).toBe(false);
    const exports = (await lines('kind=export&person=auditor-tavi')).items;
    expect(exports[0]).toMatchObject({
      action: 'audit.export',
      actorName: 'Tavi Auditor',
      route: 'GET /api/audit/events.csv',
    });
    expect(exports[0]!.detail).toMatchObject({
      filters: { document: stored.id },
      lines: all.length,
    });
  });

  it('is for the role audit-read only, and refuses bad filters with their reason', async () => {
    expect((await get('/api/audit/events', officer)).statusCode).toBe(403);
    expect((await get('/api/audit/events.csv', applicant)).statusCode).toBe(403);
    expect((await api.call('GET', '/api/audit/events')).statusCode).toBe(401);
    for (const query of ['kind=gossip', 'from=yesterday', 'to=2026-13-45', 'cursor=nonsense']) {
      const refused = await get(`/api/audit/events?${query}`, auditor);
      expect(refused.statusCode, query).toBe(400);
      expect(refused.json().error.code, query).toBe('VALIDATION_FAILED');
    }
    // A period, a kind with no lines, a document nobody has: empty pages, not errors.
    expect((await lines('from=2000-01-01&to=2000-01-31')).items).toEqual([]);
    expect((await lines('document=VA-1999-999999')).items).toEqual([]);
    const today = new Date().toISOString().slice(0, 10);
    expect((await lines(`from=${today}&to=${today}&kind=read`)).items.length).toBeGreaterThan(0);
  });
});
