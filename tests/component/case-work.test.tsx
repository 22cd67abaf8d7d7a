// The officers' case work on a document (CaseWorkPanels) as an officer meets it: the flags as
// badges with their names, set with a button, cleared only after a confirmation; the case
// notes thread with a loading state, a note added, edited with its earlier text kept, and a
// concurrent edit's refusal said in words; nothing at all for the document's owner.
import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { MantineProvider } from '@mantine/core';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import type { ApiClient, ApiResult } from '../../src/core/api/client';
import type { CaseNote } from '../../src/core/documents/case-work';
import type { WorkflowDefinition } from '../../src/core/documents/workflow';
import { CaseWorkPanels } from '../../src/engine';
import { initPortalTexts } from './portal-texts';

const workflow = {
  id: 'visa-application',
  rolePrefix: 'visa-application-',
  seeAll: ['forward', 'search'],
  caseNotes: { roles: ['forward'] },
  flags: { risk: { roles: ['forward'] }, priority: {}, vulnerable: {} },
  actions: {},
  screens: [],
  lists: [],
} as unknown as WorkflowDefinition;

const OFFICER = ['visa-application-forward'];
const DOCUMENT = { id: 'doc-1', owner: 'applicant-1' };

beforeAll(async () => {
  await initPortalTexts(['case-work', 'visa-application']);
});

const note = (version: number, text: string, edits: CaseNote['edits'] = []): CaseNote => ({
  id: 'note-1',
  version,
  text,
  author: { subject: 'o1', name: 'Tavita Verifier' },
  createdAt: '2026-01-05T10:00:00.000Z',
  updatedAt: '2026-01-05T11:00:00.000Z',
  updatedBy: { subject: 'o2', name: 'Losa Validator' },
  edits,
});

/** An API answering from `routes` by method and path; what it was sent is kept. */
function fakeApi(routes: Record<string, (body?: unknown) => ApiResult<unknown>>) {
  const sent: Array<[string, string, unknown]> = [];
  const answer =
    (method: string) =>
    async (_backend: string, path: string, body?: unknown): Promise<ApiResult<unknown>> => {
      sent.push([method, path, body]);
      const route = routes[`${method} ${path}`];
      if (!route) throw new Error(`unexpected ${method} ${path}`);
      return route(body);
    };
  const api = {
    get: vi.fn(answer('GET')),
    post: vi.fn(answer('POST')),
    put: vi.fn(answer('PUT')),
    delete: vi.fn(answer('DELETE')),
  } as unknown as ApiClient;
  return { api, sent };
}

function renderPanels(api: ApiClient, subject = 'o1', roles = OFFICER) {
  render(
    <MantineProvider env="test">
      <CaseWorkPanels
        workflow={workflow}
        document={DOCUMENT}
        api={api}
        backend="evisa"
        roles={roles}
        subject={subject}
      />
    </MantineProvider>,
  );
}

const FLAGS = '/visa-application/doc-1/flags';
const NOTES = '/visa-application/doc-1/case-notes';

describe('case work on the document screen', () => {
  it('shows flags by name, sets one, and clears one only once confirmed', async () => {
    const { api, sent } = fakeApi({
      [`GET ${FLAGS}`]: () => [null, { flags: ['risk'] }],
      [`PUT ${FLAGS}/priority`]: () => [null, { flags: ['risk', 'priority'] }],
      [`DELETE ${FLAGS}/risk`]: () => [null, { flags: ['priority'] }],
      [`GET ${NOTES}`]: () => [null, { items: [] }],
    });
    renderPanels(api);
    const flags = await screen.findByRole('region', { name: 'Flags' });
    expect(await within(flags).findByText('Risk')).toBeTruthy();
    fireEvent.click(within(flags).getByRole('button', { name: 'Priority' }));
    expect(await within(flags).findByText('Priority')).toBeTruthy();
    fireEvent.click(within(flags).getByRole('button', { name: 'Clear the flag Risk' }));
    const dialog = await screen.findByRole('dialog', { name: 'Clear this flag?' });
    expect(sent.some(([method]) => method === 'DELETE')).toBe(false);
    fireEvent.click(within(dialog).getByRole('button', { name: 'Clear' }));
    await waitFor(() => expect(flags.querySelector('[data-flag="risk"]')).toBeNull());
    expect(sent.filter(([method]) => method !== 'GET').map(([m, p]) => `${m} ${p}`)).toEqual([
      `PUT ${FLAGS}/priority`,
      `DELETE ${FLAGS}/risk`,
    ]);
  });

  it('adds a note, edits it keeping the earlier text, and says a concurrent edit', async () => {
    let stale = false;
    /** The thread as the server holds it: someone else's edit makes version 3. */
    let thread: CaseNote[] = [];
    const { api, sent } = fakeApi({
      [`GET ${FLAGS}`]: () => [null, { flags: [] }],
      [`GET ${NOTES}`]: () => [null, { items: stale ? [note(3, 'Changed elsewhere')] : thread }],
      [`POST ${NOTES}`]: () => [null, (thread = [note(1, 'Call the sponsor')])[0]],
      [`PUT ${NOTES}/note-1`]: () =>
        stale
          ? [
              {
                status: 409,
                code: 'STALE_VERSION',
                message: 'Someone else changed this note meanwhile',
              },
              null,
            ]
          : [
              null,
              note(2, 'Sponsor called back', [
                {
                  version: 1,
                  text: 'Call the sponsor',
                  by: { subject: 'o1', name: 'Tavita Verifier' },
                  at: '2026-01-05T10:00:00.000Z',
                },
              ]),
            ],
    });
    renderPanels(api);
    const notes = await screen.findByRole('region', { name: 'Case notes' });
    expect(await within(notes).findByText('No case note yet')).toBeTruthy();
    fireEvent.change(within(notes).getByLabelText('New note'), {
      target: { value: 'Call the sponsor' },
    });
    fireEvent.click(within(notes).getByRole('button', { name: 'Add the note' }));
    expect(await within(notes).findByText('Call the sponsor')).toBeTruthy();

    fireEvent.click(within(notes).getByRole('button', { name: 'Edit' }));
    fireEvent.change(within(notes).getByLabelText('Edit the note'), {
      target: { value: 'Sponsor called back' },
    });
    fireEvent.click(within(notes).getByRole('button', { name: 'Save' }));
    expect(await within(notes).findByText('Sponsor called back')).toBeTruthy();
    expect(within(notes).getByText('Earlier texts (1)')).toBeTruthy();
    expect(sent.find(([method]) => method === 'PUT')?.[2]).toEqual({
      text: 'Sponsor called back',
      version: 1,
    });

    stale = true;
    fireEvent.click(within(notes).getByRole('button', { name: 'Edit' }));
    fireEvent.click(within(notes).getByRole('button', { name: 'Save' }));
    expect((await within(notes).findByRole('alert')).textContent).toContain(
      'Someone else changed this note',
    );
  });

  it('shows nothing to the document’s owner, nor to someone without the roles', () => {
    const { api } = fakeApi({});
    renderPanels(api, DOCUMENT.owner);
    renderPanels(api, 'o1', ['visa-application-read']);
    expect(screen.queryByRole('region')).toBeNull();
    expect(api.get).not.toHaveBeenCalled();
  });
});
