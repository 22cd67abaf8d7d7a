import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApiServer, type ApiHarness } from '../support/api-server';
import { databaseKinds } from '../support/databases';
import { signedPersona, type SignedPersona } from '../support/personas';
import { visaApplication } from '../support/visa-data';
const visaLists = (
  JSON.parse(
    readFileSync(join(import.meta.dirname, '../../workflows/visa-application.json'), 'utf8'),
  ) as { lists: Array<{ id: string }> }
).lists;

/**
 * Case notes and flags (docs/workflows.md, "Case notes and flags"), as visa-application declares
 * them: officers (seeAll) holding the caseNotes roles write and edit internal notes, each edit
 * keeping the text it replaced, a concurrent edit refused (409) and never lost; officers set and
 * clear flags, each change a line of the history, and filter their lists by them. The applicant
 * is refused both (403, translated) and never reads a note or a flag in any answer it gets.
 */
const TYPE = 'visa-application';
const BASE = `/api/evisa/${TYPE}`;
const NOTE = 'Passport scan looks altered, check with the issuing office';
const EDITED = 'Issuing office confirmed the passport is genuine';

type View = { id: string; version: number; owner: string };
type Note = {
  id: string;
  version: number;
  text: string;
  author: { subject: string; name: string };
  updatedBy: { subject: string; name: string };
  edits: Array<{ version: number; text: string; by: { subject: string; name: string } }>;
};

describe.each(databaseKinds())('case notes and flags on %s', (kind) => {
  let api: ApiHarness;
  let applicant: SignedPersona;
  /** A verification officer: sees every application, writes notes, may set every flag. */
  let officer: string;
  /** A validation officer: the same, a second writer. */
  let colleague: string;
  /** Sees every application but holds no caseNotes role nor the risk flag's. */
  let clerk: string;
  let flagged: View;
  let plain: View;

  const call = (
    method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE',
    url: string,
    token: string,
    body?: unknown,
    headers?: Record<string, string>,
  ) => api.call(method, url, { token, body, headers });

  beforeAll(async () => {
    api = await startApiServer(kind);
    applicant = await signedPersona(api, 'applicant');
    officer = await api.issuer.token({
      sub: 'officer-verification',
      name: 'Tavita Verifier',
      groups: ['visa-application-forward', 'visa-application-search'],
    });
    colleague = await api.issuer.token({
      sub: 'officer-validation',
      name: 'Losa Validator',
      groups: ['visa-application-issue', 'visa-application-search'],
    });
    clerk = await api.issuer.token({
      sub: 'officer-clerk',
      name: 'Sina Clerk',
      groups: ['visa-application-submitted'],
    });
    const store = async () => {
      const stored = await call('POST', BASE, applicant.token, {
        data: visaApplication('VIS', 'VV30'),
      });
      expect(stored.statusCode, stored.body).toBe(201);
      return stored.json() as View;
    };
    [flagged, plain] = [await store(), await store()];
  });
  afterAll(async () => {
    await api?.close();
  });

  it('keeps a note and every text its edits replaced; a concurrent edit is a 409', async () => {
    const added = await call('POST', `${BASE}/${flagged.id}/case-notes`, officer, { text: NOTE });
    expect(added.statusCode, added.body).toBe(201);
    const note = added.json() as Note;
    expect(note).toMatchObject({
      version: 1,
      text: NOTE,
      author: { subject: 'officer-verification', name: 'Tavita Verifier' },
      edits: [],
    });

    const edited = await call('PUT', `${BASE}/${flagged.id}/case-notes/${note.id}`, colleague, {
      text: EDITED,
      version: 1,
    });
    expect(edited.statusCode, edited.body).toBe(200);
    expect(edited.json()).toMatchObject({
      version: 2,
      text: EDITED,
      author: { name: 'Tavita Verifier' },
      updatedBy: { subject: 'officer-validation', name: 'Losa Validator' },
      edits: [{ version: 1, text: NOTE, by: { name: 'Tavita Verifier' } }],
    });

    // The officer still holding version 1 is refused, in their language; nothing is lost.
    const stale = await call(
      'PUT',
      `${BASE}/${flagged.id}/case-notes/${note.id}`,
      officer,
      { text: 'Overwriting', version: 1 },
      { 'accept-language': 'fr' },
    );
    expect(stale.statusCode).toBe(409);
    expect(stale.json().error.message).toContain('Quelqu');
    const thread = (await call('GET', `${BASE}/${flagged.id}/case-notes`, officer)).json() as {
      items: Note[];
    };
    expect(thread.items).toHaveLength(1);
    expect(thread.items[0]).toMatchObject({ version: 2, text: EDITED });
    expect(thread.items[0]!.edits.map((e) => e.text)).toEqual([NOTE]);

    // Too long, blank: translated 400s.
    const long = await call('POST', `${BASE}/${flagged.id}/case-notes`, officer, {
      text: 'x'.repeat(4001),
    });
    expect(long.statusCode).toBe(400);
    const blank = await call('POST', `${BASE}/${flagged.id}/case-notes`, officer, { text: '  ' });
    expect(blank.statusCode).toBe(400);
  });

  it('refuses notes to the applicant and to officers without the notes roles (403)', async () => {
    for (const token of [applicant.token, clerk]) {
      const read = await call('GET', `${BASE}/${flagged.id}/case-notes`, token, undefined, {
        'accept-language': 'fr',
      });
      expect(read.statusCode).toBe(403);
      expect(read.json().error.message).toContain('agents');
      const write = await call('POST', `${BASE}/${flagged.id}/case-notes`, token, { text: 'x' });
      expect(write.statusCode).toBe(403);
    }
  });

  it('records each flag set and cleared in the history, for the officers only', async () => {
    const set = await call('PUT', `${BASE}/${flagged.id}/flags/risk`, officer);
    expect(set.statusCode, set.body).toBe(200);
    expect(set.json()).toEqual({ flags: ['risk'] });
    expect((await call('PUT', `${BASE}/${flagged.id}/flags/priority`, officer)).json()).toEqual({
      flags: ['risk', 'priority'],
    });
    // Setting again changes nothing and writes no line.
    await call('PUT', `${BASE}/${flagged.id}/flags/priority`, officer);
    expect(
      (await call('DELETE', `${BASE}/${flagged.id}/flags/priority`, colleague)).json(),
    ).toEqual({ flags: ['risk'] });
    const read = (await call('GET', `${BASE}/${flagged.id}/flags`, clerk)).json();
    expect(read).toEqual({ flags: ['risk'] });
    // The risk flag is its roles' only; priority anyone seeing every application's.
    expect((await call('PUT', `${BASE}/${plain.id}/flags/risk`, clerk)).statusCode).toBe(403);
    expect((await call('PUT', `${BASE}/${plain.id}/flags/unknown`, officer)).statusCode).toBe(404);

    const history = (await call('GET', `${BASE}/${flagged.id}/history`, officer)).json() as Array<{
      action: string;
      notes: string | null;
      name: string;
    }>;
    const lines = history.filter((line) => line.action.startsWith('flag:'));
    expect(lines.map((l) => [l.action, l.notes, l.name])).toEqual([
      ['flag:set', 'Risk', 'Tavita Verifier'],
      ['flag:set', 'Priority', 'Tavita Verifier'],
      ['flag:cleared', 'Priority', 'Losa Validator'],
    ]);
    // In the reader's language, with the flag's text key for the portal.
    const french = (
      await call('GET', `${BASE}/${flagged.id}/history`, officer, undefined, {
        'accept-language': 'fr',
      })
    ).json() as Array<{ action: string; notes: string | null; notesKey?: string }>;
    expect(french.find((line) => line.action === 'flag:set')).toMatchObject({
      notes: 'Risque',
      notesKey: 'visa-application.flags.risk',
    });
    // The document's version stays: a flag is no edit of the data.
    const view = (await call('GET', `${BASE}/${flagged.id}`, officer)).json() as View;
    expect(view.version).toBe(flagged.version);
  });

  it('filters an officer list by flags, and shows them as its column', async () => {
    await call('PUT', `${BASE}/${flagged.id}/flags/risk`, officer);
    const found = await call('PATCH', BASE, officer, { list: 'find', flags: ['risk'] });
    expect(found.statusCode, found.body).toBe(200);
    const items = found.json().items as Array<{ id: string; flags?: string[] }>;
    expect(items.map((i) => i.id)).toEqual([flagged.id]);
    expect(items[0]!.flags).toEqual(['risk']);
    const all = (await call('PATCH', BASE, officer, { list: 'find' })).json().items as Array<{
      id: string;
      flags?: string[];
    }>;
    expect(all.find((i) => i.id === plain.id)?.flags).toEqual([]);
    // A flag the list does not offer is a 400.
    const unknown = await call('PATCH', BASE, officer, { list: 'find', flags: ['urgent'] });
    expect(unknown.statusCode).toBe(400);
  });

  it('never shows the applicant a note or a flag in anything it may read', async () => {
    await call('PUT', `${BASE}/${flagged.id}/flags/vulnerable`, officer);
    const forbidden = [
      ['GET', `${BASE}/${flagged.id}/flags`],
      ['PUT', `${BASE}/${flagged.id}/flags/priority`],
      ['DELETE', `${BASE}/${flagged.id}/flags/risk`],
    ] as const;
    for (const [method, url] of forbidden)
      expect((await call(method, url, applicant.token)).statusCode).toBe(403);
    // Filtering by a flag would tell which ones its documents carry.
    expect((await call('PATCH', BASE, applicant.token, { flags: ['risk'] })).statusCode).toBe(403);

    const answers = [
      await call('GET', `${BASE}/${flagged.id}`, applicant.token),
      await call('GET', `${BASE}/${flagged.id}/history`, applicant.token),
      await call('GET', `${BASE}/${flagged.id}/versions`, applicant.token),
      await call('GET', `${BASE}/${flagged.id}/versions/1`, applicant.token),
      await call('PATCH', BASE, applicant.token, {}),
      await call('PATCH', '/api/evisa/dashboard/library', applicant.token, {}),
      await call('PATCH', '/api/evisa/dashboard/tasks', applicant.token, {}),
    ];
    // Every list of the workflow the applicant may open (the others are 403s, nothing said).
    for (const list of visaLists) {
      const answer = await call('PATCH', BASE, applicant.token, { list: list.id });
      if (answer.statusCode === 200) answers.push(answer);
      else expect(answer.statusCode).toBe(403);
    }
    for (const answer of answers) {
      expect(answer.statusCode, answer.body).toBeLessThan(500);
      for (const secret of [NOTE, EDITED, '"risk"', '"vulnerable"', 'flag:set', 'flags'])
        expect(answer.body, `${answer.statusCode} ${secret}`).not.toContain(secret);
    }
    // The owner's view of its own document carries no note's text either, however asked.
    const view = await call('GET', `${BASE}/${flagged.id}`, applicant.token);
    expect(view.statusCode).toBe(200);
  });

  it('lists the routes in the contract, per workflow declaring them, without any note', async () => {
    const contract = await call('GET', '/api/openapi.json', officer);
    const paths = (contract.json() as { paths: Record<string, object> }).paths;
    expect(Object.keys(paths)).toEqual(
      expect.arrayContaining([
        `${BASE}/{id}/case-notes`,
        `${BASE}/{id}/case-notes/{noteId}`,
        `${BASE}/{id}/flags`,
        `${BASE}/{id}/flags/risk`,
        `${BASE}/{id}/flags/vulnerable`,
      ]),
    );
    expect(contract.body).not.toContain(NOTE);
    expect(Object.keys(paths).some((p) => p.startsWith('/api/evisa/user-group/{id}/case'))).toBe(
      false,
    );
  });
});
