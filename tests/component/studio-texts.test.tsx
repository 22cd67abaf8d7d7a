// The studio's Texts tab as an analyst uses it: a text added in both languages at once, a key
// renamed in both files and in the workflow naming it, a key removed after a confirmation, and
// the texts the check says are missing filled in at once, each into the file it belongs to.
import { useMemo, useState } from 'react';
import { MantineProvider } from '@mantine/core';
import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { beforeAll, describe, expect, it } from 'vitest';
import type {
  CheckResult,
  DraftChanges,
  StudioDraft,
} from '../../src/portal/pages/studio/useStudioDraft';
import { TextsEditor } from '../../src/portal/pages/studio/TextsEditor';
import { initPortalTexts } from './portal-texts';

const json = (value: unknown) => `${JSON.stringify(value, null, 2)}\n`;

const BASE: Record<string, string> = {
  'translations/en/appeal.json': json({ _title: 'Appeal', lists: { mine: 'My documents' } }),
  'translations/fr/appeal.json': json({ _title: 'Recours', lists: { mine: 'Mes documents' } }),
  'workflows/appeal.json': json({
    id: 'appeal',
    lists: [{ id: 'mine', label: 'appeal.lists.mine' }],
  }),
};

/** A draft held in state as the studio's is, whose check answers `problems` until texts exist. */
function renderEditor(problems: CheckResult['problems'] = []) {
  const files = { current: { ...BASE } as Record<string, string | null> };
  const checks: DraftChanges[] = [];
  function Host() {
    const [changes, setChanges] = useState<DraftChanges>({});
    const draft = useMemo(() => {
      const file = (path: string) =>
        path in changes ? (changes[path] ?? undefined) : (BASE[path] ?? undefined);
      const paths = [...new Set([...Object.keys(BASE), ...Object.keys(changes)])].sort();
      files.current = { ...BASE, ...changes };
      return {
        paths,
        changes,
        file,
        setFile: (path: string, text: string | null) =>
          setChanges((old) => ({ ...old, [path]: text })),
        check: async (_document?: string, pending: DraftChanges = {}) => {
          checks.push(pending);
          const sent = { ...files.current, ...pending };
          // Until the missing status has a text, the check reports every problem given.
          const left = Object.values(sent).some((text) => text?.includes('"CLOSED"'))
            ? []
            : problems;
          const result: CheckResult = { valid: left.length === 0, problems: left, warnings: [] };
          return [undefined, result] as const;
        },
      } as unknown as StudioDraft;
    }, [changes]);
    return <TextsEditor draft={draft} />;
  }
  render(
    <MantineProvider>
      <Host />
    </MantineProvider>,
  );
  const read = (path: string) => JSON.parse(files.current[path] ?? '{}') as Record<string, unknown>;
  return { read, checks };
}

beforeAll(async () => {
  await initPortalTexts(['studio']);
});

describe('the studio texts editor', () => {
  it('adds a key in English and French in one step, refusing one that exists', async () => {
    const { read } = renderEditor();
    fireEvent.click(screen.getByRole('button', { name: 'Add a text' }));
    const dialog = await screen.findByRole('dialog', { name: 'Add a text to appeal' });
    const key = within(dialog).getByRole('textbox', { name: /^Key/ });
    fireEvent.change(key, { target: { value: 'lists.mine' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Add to the draft' }));
    await within(dialog).findByText('This key already has a text');
    expect(within(dialog).getAllByText('Give the text in this language')).toHaveLength(2);

    fireEvent.change(key, { target: { value: 'lists.submitted' } });
    fireEvent.change(within(dialog).getByRole('textbox', { name: /^English/ }), {
      target: { value: 'To process' },
    });
    fireEvent.change(within(dialog).getByRole('textbox', { name: /^Français/ }), {
      target: { value: 'À traiter' },
    });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Add to the draft' }));
    await screen.findByText(
      'The text appeal.lists.submitted is in the draft in English and French.',
    );
    expect(read('translations/en/appeal.json').lists).toEqual({
      mine: 'My documents',
      submitted: 'To process',
    });
    expect(read('translations/fr/appeal.json').lists).toEqual({
      mine: 'Mes documents',
      submitted: 'À traiter',
    });
    expect(screen.getByRole('textbox', { name: 'lists.submitted (Français)' })).toHaveProperty(
      'value',
      'À traiter',
    );
  });

  it('renames a key in both languages and where the workflow names it', async () => {
    const { read } = renderEditor();
    fireEvent.click(screen.getByRole('button', { name: 'Rename lists.mine' }));
    const dialog = await screen.findByRole('dialog', { name: 'Rename lists.mine' });
    fireEvent.change(within(dialog).getByRole('textbox', { name: /^New key/ }), {
      target: { value: 'lists.own' },
    });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Rename' }));
    await screen.findByText(
      'lists.mine is now lists.own, in both languages and in 1 place of the definitions.',
    );
    expect(read('translations/en/appeal.json').lists).toEqual({ own: 'My documents' });
    expect(read('translations/fr/appeal.json').lists).toEqual({ own: 'Mes documents' });
    expect(read('workflows/appeal.json').lists).toEqual([
      { id: 'mine', label: 'appeal.lists.own' },
    ]);
  });

  it('removes a key from both languages only once confirmed', async () => {
    const { read } = renderEditor();
    fireEvent.click(screen.getByRole('button', { name: 'Remove lists.mine' }));
    let dialog = await screen.findByRole('dialog', { name: 'Remove a text' });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(read('translations/en/appeal.json').lists).toEqual({ mine: 'My documents' });

    fireEvent.click(screen.getByRole('button', { name: 'Remove lists.mine' }));
    dialog = await screen.findByRole('dialog', { name: 'Remove a text' });
    within(dialog).getByText(/Remove the text appeal\.lists\.mine in English and French\?/);
    fireEvent.click(within(dialog).getByRole('button', { name: 'Remove' }));
    await screen.findByText('The text appeal.lists.mine is removed from the draft.');
    expect(read('translations/en/appeal.json')).toEqual({ _title: 'Appeal' });
    expect(read('translations/fr/appeal.json')).toEqual({ _title: 'Recours' });
  });

  it('offers the texts the check finds missing and adds them where they belong', async () => {
    const { read, checks } = renderEditor([
      {
        file: 'workflows/appeal.json',
        pointer: '/machine/states/CLOSED',
        message: 'no text "statuses.CLOSED" in en',
        key: 'noText',
        params: { key: 'statuses.CLOSED', language: 'en' },
      },
      {
        file: 'workflows/appeal.json',
        pointer: '/machine/states/CLOSED',
        message: 'no text "statuses.CLOSED" in fr',
        key: 'noText',
        params: { key: 'statuses.CLOSED', language: 'fr' },
      },
      {
        file: 'translations/fr.json',
        pointer: '/appeal/lists/closed',
        message: 'missing text present in en',
        key: 'missingTranslation',
        params: { language: 'en' },
      },
    ]);
    fireEvent.click(screen.getByRole('button', { name: 'Find the missing texts' }));
    await screen.findByText('2 texts are missing: give them in the languages they lack.');
    fireEvent.change(screen.getByRole('textbox', { name: 'statuses.CLOSED (English)' }), {
      target: { value: 'Closed' },
    });
    fireEvent.change(screen.getByRole('textbox', { name: 'statuses.CLOSED (Français)' }), {
      target: { value: 'Clôturé' },
    });
    expect(screen.queryByRole('textbox', { name: 'appeal.lists.closed (English)' })).toBeNull();
    fireEvent.change(screen.getByRole('textbox', { name: 'appeal.lists.closed (Français)' }), {
      target: { value: 'Clôturés' },
    });
    fireEvent.click(screen.getByRole('button', { name: 'Add the missing texts' }));
    await screen.findByText('The check finds no missing text.');
    expect(read('translations/en.json').statuses).toEqual({ CLOSED: 'Closed' });
    expect(read('translations/fr.json').statuses).toEqual({ CLOSED: 'Clôturé' });
    expect(read('translations/fr/appeal.json').lists).toEqual({
      mine: 'Mes documents',
      closed: 'Clôturés',
    });
    // The second check was sent the texts just written, not the draft before them.
    expect(Object.keys(checks[1] ?? {}).sort()).toEqual([
      'translations/en.json',
      'translations/fr.json',
      'translations/fr/appeal.json',
    ]);
  });
});
