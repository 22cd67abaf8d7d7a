import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApiServer, type ApiHarness } from '../support/api-server';
import { databaseKinds } from '../support/databases';
import { messagesAbout } from '../support/inbox';
import { visaApplication } from '../support/visa-data';

const VISA = '/api/evisa/visa-application';

interface View {
  id: string;
  version: number;
  status: string;
  owner: string;
  ownerName: string | null;
  allowedActions: string[];
}

/**
 * Change of ownership (specification 000, section 4; DESIGN.md section 5): an officer holding
 * visa-application-modify hands an application to another account of the directory, named by
 * its sign-in name (an agent's application to the applicant it is for). The handover is a
 * version of its own, both holders are told, and the new one finds it in My Library while the
 * former one no longer sees it.
 */
describe.each(databaseKinds())('change of ownership of a visa application on %s', (kind) => {
  let api: ApiHarness;
  let agent: string;
  let officer: string;
  let reader: string;

  beforeAll(async () => {
    // The demo accounts (the applicant among them) are the directory's accounts.
    api = await startApiServer(kind, { demoData: true });
    agent = await api.tokenFor(['visa-application-submit', 'visa-application-read'], {
      sub: 'agent-lagi',
      name: 'Lagi Agent',
      email: 'lagi@example.org',
    });
    officer = await api.tokenFor(
      ['visa-application-search', 'visa-application-read', 'visa-application-modify'],
      { sub: 'officer-modifier', name: 'Mo Officer' },
    );
    reader = await api.tokenFor(['visa-application-search', 'visa-application-read'], {
      sub: 'officer-reader',
    });
  });
  afterAll(async () => {
    await api?.close();
  });

  const call = (method: 'GET' | 'POST' | 'PATCH', url: string, token: string, body?: unknown) =>
    api.call(method, url, { token, body });

  it('hands an agent’s application to the applicant: versioned, both told, in the new holder’s library', async () => {
    const stored = (
      await call('POST', VISA, agent, { data: visaApplication('VIS', 'VV30') })
    ).json() as View;
    expect(stored.owner).toBe('agent-lagi');

    // Unknown sign-in name, or no modify role: refused, nothing changed.
    const unknown = await call('POST', `${VISA}/${stored.id}/actions/change-owner`, officer, {
      version: stored.version,
      owner: 'nobody-of-that-name',
    });
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json().error.fields).toContainEqual(
      expect.objectContaining({ path: '/owner', rule: 'unknownAccount' }),
    );
    const noRole = await call('POST', `${VISA}/${stored.id}/actions/change-owner`, reader, {
      version: stored.version,
      owner: 'applicant',
    });
    expect(noRole.statusCode).toBe(403);
    expect(((await call('GET', `${VISA}/${stored.id}`, agent)).json() as View).version).toBe(
      stored.version,
    );

    const handed = await call('POST', `${VISA}/${stored.id}/actions/change-owner`, officer, {
      version: stored.version,
      owner: 'applicant',
      notes: 'Lodged by the agent for you',
    });
    expect(handed.statusCode, handed.body).toBe(200);
    const view = handed.json() as View;
    expect(view).toMatchObject({ status: 'STORED', version: stored.version + 1 });
    expect(view.owner).not.toBe('agent-lagi');
    expect(view.ownerName).toBeTruthy();

    // The history names the handover.
    const history = (await call('GET', `${VISA}/${stored.id}/history`, officer)).json() as Array<{
      action: string;
      notes: string | null;
    }>;
    expect(history.at(-1)).toMatchObject({
      action: 'change-owner',
      notes: 'Lodged by the agent for you',
    });

    // Both holders are told: the new one with a link to it, the former one without.
    const messages = await messagesAbout(api.server.database.db, stored.id);
    expect(messages.map((m) => m.owner).sort()).toEqual([view.owner, 'agent-lagi'].sort());
    const toNew = messages.find((m) => m.owner === view.owner)!;
    const toFormer = messages.find((m) => m.owner === 'agent-lagi')!;
    expect(toNew.body).toContain('is now yours');
    expect((toNew.data.about as { path?: string }).path).toBe(
      `/visa/application/view/${stored.id}`,
    );
    expect(toFormer.body).toContain(`has been handed to ${view.ownerName}`);
    expect((toFormer.data.about as { path?: string }).path).toBeUndefined();

    // The new holder finds it in My Library; the former one no longer sees it.
    const holder = await api.tokenFor(['visa-application-read', 'view-profile'], {
      sub: view.owner,
    });
    const library = (await call('PATCH', '/api/evisa/dashboard/library', holder, {})).json() as {
      items: Array<{ id: string }>;
    };
    expect(library.items.map((i) => i.id)).toContain(stored.id);
    expect((await call('GET', `${VISA}/${stored.id}`, agent)).statusCode).toBe(404);
  });
});
