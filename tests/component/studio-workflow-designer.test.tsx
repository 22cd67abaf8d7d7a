// The studio's workflow designer as an analyst uses it: a status chosen in the drawing (by click
// and from the keyboard) or a transition in the table is edited beside it; a status and a
// transition are added with their texts in both languages; a removal asks first and says what
// goes with it. The draft here is the project's files held in memory, as the studio keeps them.
import path from 'node:path';
import { useState } from 'react';
import { MantineProvider } from '@mantine/core';
import { act, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { beforeAll, describe, expect, it } from 'vitest';
import type { WorkflowDefinition } from '../../src/core/documents/workflow';
import { readDefinitionFiles } from '../../src/server/definitions/files';
import { WorkflowEditor } from '../../src/portal/pages/studio/WorkflowStudio';
import type { StudioDraft } from '../../src/portal/pages/studio/useStudioDraft';
import { initPortalTexts } from './portal-texts';
import { PortalContext, type Portal } from '../../src/portal/context';
import { implementationsOf } from '../../src/server/implementations';
import { implementationsAnswer } from '../../src/server/plugins/definition-implementations';
import { serverModules } from '../../src/modules/server';

// jsdom has no font loading, which autosized text areas (the JSON) listen to.
if (!('fonts' in document))
  Object.defineProperty(document, 'fonts', {
    value: { addEventListener: () => undefined, removeEventListener: () => undefined },
  });

const VISA = 'workflows/visa-application.json';
let base: Map<string, string>;

beforeAll(async () => {
  await initPortalTexts(['studio']);
  base = await readDefinitionFiles(path.resolve(import.meta.dirname, '../..'));
});

/** Renders the designer on a draft of the project's files; `files()` reads the draft's now. */
function renderDesigner() {
  const latest = { files: new Map(base) };
  function Host() {
    const [files, setFiles] = useState(() => new Map(base));
    latest.files = files;
    const draft = {
      paths: [...files.keys()],
      file: (path: string) => files.get(path),
      setFile: (path: string, text: string | null) =>
        setFiles((old) => {
          const next = new Map(old);
          if (text === null) next.delete(path);
          else next.set(path, text);
          return next;
        }),
    } as unknown as StudioDraft;
    return <WorkflowEditor id="visa-application" draft={draft} />;
  }
  // The server's own answer: the guards and effects the engine and the modules implement.
  const answer = implementationsAnswer(implementationsOf(serverModules));
  const api = {
    get: async (_backend: string, path: string) =>
      path === '/implementations' ? [null, answer] : [{ status: 404 }, undefined],
  };
  render(
    <MantineProvider>
      <PortalContext.Provider value={{ api } as unknown as Portal}>
        <Host />
      </PortalContext.Provider>
    </MantineProvider>,
  );
  return {
    workflow: () => JSON.parse(latest.files.get(VISA)!) as WorkflowDefinition,
    texts: (language: string) =>
      JSON.parse(latest.files.get(`translations/${language}.json`)!) as {
        statuses: Record<string, string>;
        actions: Record<string, string>;
      },
  };
}

const panel = () => screen.getByRole('region', { name: 'Edit the chosen part' });

describe('the workflow designer', () => {
  it('edits a status chosen from the keyboard in the drawing, and adds a status and an action leading to it', async () => {
    const draft = renderDesigner();
    const forwarded = screen.getByRole('button', { name: 'Forwarded' });
    forwarded.focus();
    fireEvent.keyDown(forwarded, { key: 'Enter' });
    expect(forwarded.getAttribute('aria-pressed')).toBe('true');
    const side = within(panel());
    expect(side.getByRole('heading', { name: 'Status Forwarded (FORWARDED)' })).toBeTruthy();
    const french = side.getByRole('textbox', { name: /French text of FORWARDED/ });
    expect((french as HTMLInputElement).value).toBe('Transmis');
    fireEvent.change(french, { target: { value: 'Transmis au validateur' } });
    expect(draft.texts('fr').statuses.FORWARDED).toBe('Transmis au validateur');
    // The settings come from the meta-schema: a final flag, a description, an estimate.
    fireEvent.change(side.getByRole('textbox', { name: 'Description' }), {
      target: { value: 'Waiting for the validation officer' },
    });
    expect(draft.workflow().machine.states.FORWARDED).toMatchObject({
      description: 'Waiting for the validation officer',
      on: { issue: 'ISSUED' },
    });

    // A status added, with both its texts, is drawn and chosen.
    fireEvent.change(side.getByRole('textbox', { name: /Status name/ }), {
      target: { value: 'legal review' },
    });
    fireEvent.change(side.getByRole('textbox', { name: /English text of the status/ }), {
      target: { value: 'Legal review' },
    });
    fireEvent.change(side.getByRole('textbox', { name: /French text of the status/ }), {
      target: { value: 'Examen juridique' },
    });
    fireEvent.click(side.getByRole('button', { name: 'Add the status' }));
    expect(draft.workflow().machine.states['LEGAL REVIEW']).toEqual({});
    expect(draft.texts('en').statuses['LEGAL REVIEW']).toBe('Legal review');
    expect(draft.texts('fr').statuses['LEGAL REVIEW']).toBe('Examen juridique');
    // The new status is drawn, chosen, and edited beside the drawing.
    expect(screen.getByRole('button', { name: 'Legal review' }).getAttribute('aria-pressed')).toBe(
      'true',
    );

    fireEvent.click(screen.getByRole('button', { name: 'Forwarded' }));
    const add = within(screen.getByRole('form', { name: 'Add a transition from Forwarded' }));
    fireEvent.change(add.getByRole('combobox', { name: /Leads to/ }), {
      target: { value: 'LEGAL REVIEW' },
    });
    fireEvent.change(add.getByRole('combobox', { name: 'Action' }), {
      target: { value: 'legal-review' },
    });
    fireEvent.change(add.getByRole('textbox', { name: /Roles allowed/ }), {
      target: { value: 'escalate' },
    });
    fireEvent.change(add.getByRole('textbox', { name: /English text of the action/ }), {
      target: { value: 'Send to legal review' },
    });
    fireEvent.change(add.getByRole('textbox', { name: /French text of the action/ }), {
      target: { value: 'Envoyer en examen juridique' },
    });
    fireEvent.click(add.getByRole('button', { name: 'Add the transition' }));
    expect(add.queryByRole('alert')?.textContent).toBeUndefined();
    const workflow = draft.workflow();
    expect(workflow.machine.states.FORWARDED).toMatchObject({
      on: { 'legal-review': 'LEGAL REVIEW' },
    });
    expect(workflow.actions['legal-review']).toEqual({ roles: ['escalate'] });
    expect(draft.texts('en').actions['legal-review']).toBe('Send to legal review');
    expect(draft.texts('fr').actions['legal-review']).toBe('Envoyer en examen juridique');
    // The transition is listed in the table, and chosen.
    const row = screen.getByRole('button', {
      name: 'Send to legal review: Forwarded → Legal review',
    });
    expect(row.getAttribute('aria-pressed')).toBe('true');
  }, 180_000);

  it('removes a transition chosen in the table and a status only once confirmed, saying what goes with them', async () => {
    const draft = renderDesigner();
    fireEvent.click(screen.getByRole('button', { name: 'Escalate: Forwarded → Escalated' }));
    const side = within(panel());
    expect(side.getByRole('heading', { name: 'Escalate: Forwarded to Escalated' })).toBeTruthy();
    // Below the drawing, the moves of stored documents a changed machine or schema needs.
    const moves = within(
      screen.getByRole('group', { name: 'Stored documents: moves when published' }),
    );
    expect(moves.getByRole('textbox', { name: /^Data moves/ })).toBeTruthy();
    // The action's settings are a form from its meta-schema, each keyword named in words.
    expect(side.getByRole('group', { name: /Settings of the action/ })).toBeTruthy();
    expect(side.getByText('On behalf of')).toBeTruthy();
    expect(
      side.getByText(/^Who may take it or see it: the roles named here. \(roles\)/),
    ).toBeTruthy();
    // A guard is chosen among those the service implements; one reading parameters says which,
    // and starts them for the analyst to fill in.
    const guard = side.getByRole('combobox', { name: /Guard/ });
    await act(async () => undefined); // the service's answer, asked as the designer opened
    fireEvent.change(guard, { target: { value: 'previousStatusIs' } });
    const params = side.getByRole('textbox', { name: /Guard parameters/ });
    await waitFor(() => expect((params as HTMLTextAreaElement).value).toBe('{"status":""}'));
    expect(side.getByText('Reads: status (a status of the machine, required)')).toBeTruthy();
    fireEvent.click(side.getByRole('button', { name: 'Remove the transition' }));
    const dialog = await screen.findByRole('dialog', { name: 'Remove Escalate from Forwarded?' });
    expect(dialog.textContent).toContain('and the action with it');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(draft.workflow().actions.escalate).toBeDefined();
    fireEvent.click(side.getByRole('button', { name: 'Remove the transition' }));
    fireEvent.click(
      within(await screen.findByRole('dialog')).getByRole('button', {
        name: 'Remove the transition',
      }),
    );
    expect(draft.workflow().actions.escalate).toBeUndefined();
    expect(draft.workflow().machine.states.FORWARDED).not.toHaveProperty('on.escalate');

    // A status other transitions name: refused, unless they go too.
    fireEvent.click(screen.getByRole('button', { name: 'Issued' }));
    fireEvent.click(within(panel()).getByRole('button', { name: 'Remove the status' }));
    const statusDialog = within(
      await screen.findByRole('dialog', { name: 'Remove the status Issued?' }),
    );
    expect(
      statusDialog.getByText('2 transitions of other statuses lead to it or ask about it:'),
    ).toBeTruthy();
    fireEvent.click(statusDialog.getByRole('button', { name: 'Remove the status' }));
    expect(statusDialog.getByRole('alert').textContent).toContain(
      'Other transitions name ISSUED (2)',
    );
    expect(draft.workflow().machine.states.ISSUED).toBeDefined();
    fireEvent.click(statusDialog.getByRole('checkbox', { name: /Remove these transitions too/ }));
    fireEvent.click(statusDialog.getByRole('button', { name: 'Remove the status' }));
    expect(draft.workflow().machine.states.ISSUED).toBeUndefined();
    expect(draft.workflow().machine.states.GRANTED).not.toHaveProperty('on.issue');
  }, 180_000);
});
