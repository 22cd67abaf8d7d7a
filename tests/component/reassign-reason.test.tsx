// Reassigning on the assignment screen (`reassignReason`; docs/workflows.md, "Assignment and
// workload"): once the document is assigned, the Notes field is there and says why it is asked;
// choosing someone else without a reason is stopped before anything is sent, and the reason
// given goes with the assignee.
import { configure, fireEvent, screen, waitFor } from '@testing-library/react';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import type { ApiClient } from '../../src/core/api/client';
import type { DefinitionBundle, EntityDefinition } from '../../src/core/definitions/types';
import type { DocumentView } from '../../src/core/documents/types';
import type { WorkflowDefinition } from '../../src/core/documents/workflow';
import type { TextTree } from '../../src/core/i18n/translate';
import { loadSample } from './harness';
import { documentScreenPage, renderScreens, screenBundle, sessionOf } from './screen-harness';

configure({ asyncUtilTimeout: 25_000 });

let bundle: DefinitionBundle;
let Page: Awaited<ReturnType<typeof documentScreenPage>>;

const workflow: WorkflowDefinition = {
  id: 'sample-permit',
  document: 'sample-permit',
  prefix: '/sample/permit',
  rolePrefix: 'sample-permit-',
  seeAll: ['assign'],
  machine: { id: 'sample-permit', initial: 'NEW', states: {} },
  actions: {
    assign: {
      roles: ['assign'],
      payload: 'assignee',
      assignees: ['verify'],
      reassignReason: true,
      stay: true,
    },
  },
  screens: [
    {
      path: '/assignment/:id',
      mode: 'assignment',
      roles: ['assign'],
      actions: ['assign'],
      editable: [],
    },
  ],
  lists: [],
};

const OFFICERS = [
  { id: 'id-kalo', login: 'kalo', name: 'Kalo Colleague', openCases: 1 },
  { id: 'id-tavita', login: 'verifier', name: 'Tavita Verifier', openCases: 4 },
];

const assigned: DocumentView = {
  id: 'd1',
  type: 'sample-permit',
  status: 'PAID FOR VERIFICATION',
  version: 3,
  number: 'SP-2026-000001',
  year: 2026,
  submittedAt: '2026-01-02T10:00:00.000Z',
  owner: 'owner-1',
  ownerName: 'Jane Doe',
  assignee: 'id-kalo',
  data: { applicant: { familyName: 'Doe' } },
  createdAt: '2026-01-02T10:00:00.000Z',
  createdBy: 'Jane Doe',
  updatedAt: '2026-01-02T10:00:00.000Z',
  updatedBy: 'Jane Doe',
  allowedActions: ['assign'],
};

beforeAll(async () => {
  if (!('fonts' in document))
    Object.defineProperty(document, 'fonts', {
      value: { addEventListener: () => undefined, removeEventListener: () => undefined },
    });
  const sample = await loadSample();
  for (const language of ['en', 'fr'] as const)
    sample.texts[language].assignment = JSON.parse(
      readFileSync(
        join(import.meta.dirname, '../../translations', language, 'assignment.json'),
        'utf8',
      ),
    ) as TextTree;
  bundle = await screenBundle(workflow, sample.definition as EntityDefinition, sample.texts);
  Page = await documentScreenPage();
});

describe('reassigning on the assignment screen', { timeout: 90_000 }, () => {
  it('asks for a reason to hand an assigned document to someone else, and sends it', async () => {
    const post = vi.fn(async (_backend: string, _path: string, body: unknown) => [
      undefined,
      { ...assigned, version: 4, assignee: (body as { assignee: string }).assignee },
    ]);
    const api = {
      get: vi.fn(async (_backend: string, path: string) => {
        if (path.endsWith('/assignees/assign')) return [undefined, { items: OFFICERS }];
        if (path.endsWith('/history') || path.endsWith('/versions')) return [undefined, []];
        return [undefined, assigned];
      }),
      post,
    } as unknown as ApiClient;
    renderScreens(
      Page,
      bundle,
      workflow,
      '/sample/permit/assignment/d1',
      api,
      sessionOf('sample-permit-', ['assign'], 'officer-1'),
    );
    const notes = await screen.findByRole('textbox', { name: /Notes/ });
    expect(
      await screen.findByText('To hand it to someone else, say why: it is assigned now.'),
    ).toBeDefined();
    // Starting from whom it is assigned to, then someone else.
    const field = screen.getByRole('combobox', { name: /Officer to assign/ });
    await waitFor(() =>
      expect((field as HTMLInputElement).value).toBe('Kalo Colleague (kalo) — 1 open case'),
    );
    fireEvent.click(field);
    fireEvent.click(await screen.findByRole('option', { name: /Tavita Verifier/ }));
    fireEvent.click(screen.getByRole('button', { name: 'Assign' }));
    await waitFor(() => expect(notes.getAttribute('aria-invalid')).toBe('true'));
    expect(
      screen.getAllByText('Say why you hand this work to someone else').length,
    ).toBeGreaterThan(0);
    expect(post).not.toHaveBeenCalled();

    fireEvent.change(notes, { target: { value: 'Kalo is on leave' } });
    fireEvent.click(screen.getByRole('button', { name: 'Assign' }));
    await waitFor(() => expect(post).toHaveBeenCalled());
    expect(post.mock.calls[0]?.[2]).toMatchObject({
      version: 3,
      assignee: 'id-tavita',
      notes: 'Kalo is on leave',
    });
  });
});
