// "Write to the holder" (WriteMessageButton) as an officer meets it on a document's screen: shown
// only to who may write and is not the holder, a dialog named by the document's number, its
// fields labelled, required ones checked before sending, the server's problems on their fields,
// an attachment uploaded as forms upload files, a confirmation taking the focus once sent, and
// nothing typed thrown away without asking.
import fs from 'node:fs/promises';
import path from 'node:path';
import { act, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { MantineProvider } from '@mantine/core';
import { MemoryRouter } from 'react-router-dom';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import type { ApiClient, ApiResult } from '../../src/core/api/client';
import type { DefinitionBundle, EntityDefinition } from '../../src/core/definitions/types';
import type { DocumentView } from '../../src/core/documents/types';
import type { WorkflowDefinition } from '../../src/core/documents/workflow';
import type { TextTree } from '../../src/core/i18n/translate';
import { PortalContext } from '../../src/portal/context';
import { changeLanguage, initI18n } from '../../src/portal/i18n';
import { WriteMessageButton } from '../../src/portal/pages/document/WriteMessageDialog';
import { signedInSession, type Session } from '../../src/portal/session';

// Uploads go to the media backend with XMLHttpRequest: the seam is the services' uploadFile.
const uploads = vi.hoisted(() => ({ uploadFile: vi.fn() }));
vi.mock('../../src/portal/documentServices', () => ({
  documentServices: () => ({ uploadFile: uploads.uploadFile }),
}));

const root = path.resolve(import.meta.dirname, '../..');
const readJson = async <T,>(file: string): Promise<T> =>
  JSON.parse(await fs.readFile(path.join(root, file), 'utf8')) as T;

let bundle: DefinitionBundle;
let permit: WorkflowDefinition;
let inbox: WorkflowDefinition;

beforeAll(async () => {
  // Mantine's growing text areas listen for fonts loading, which jsdom does not have.
  if (!('fonts' in globalThis.document))
    Object.defineProperty(globalThis.document, 'fonts', {
      value: { addEventListener: () => undefined, removeEventListener: () => undefined },
    });
  inbox = await readJson<WorkflowDefinition>('workflows/inbox-message.json');
  permit = await readJson<WorkflowDefinition>(
    'tests/fixtures/definitions/workflows/sample-permit.json',
  );
  const translations = {} as DefinitionBundle['translations'];
  for (const language of ['en', 'fr'] as const) {
    translations[language] = {
      ...(await readJson<TextTree>(`translations/${language}.json`)),
      'inbox-message': await readJson<TextTree>(`translations/${language}/inbox-message.json`),
      'sample-permit': await readJson<TextTree>(
        `tests/fixtures/definitions/translations/${language}/sample-permit.json`,
      ),
    };
  }
  bundle = {
    modules: [],
    catalogs: [],
    workflows: [permit, inbox],
    schemas: [await readJson<EntityDefinition>('schemas/inbox-message.schema.json')],
    translations,
    version: 'test',
  };
  await initI18n(bundle);
});

beforeEach(() => {
  uploads.uploadFile.mockReset();
});
afterEach(async () => {
  await changeLanguage('en');
});

const permitDocument: DocumentView = {
  id: '6f1c2d3e-0000-4000-8000-000000000001',
  type: 'sample-permit',
  status: 'SUBMITTED',
  version: 3,
  number: 'SP-2026-000007',
  year: 2026,
  submittedAt: '2026-03-01T10:00:00.000Z',
  owner: 'holder-1',
  ownerName: 'Jane Doe',
  assignee: null,
  data: {},
  createdAt: '2026-03-01T10:00:00.000Z',
  createdBy: 'Jane Doe',
  updatedAt: '2026-03-01T10:00:00.000Z',
  updatedBy: 'Jane Doe',
  allowedActions: [],
};

function person(subject: string, roles: string[]): Session {
  return signedInSession(
    { sub: subject, groups: roles.map((role) => `/${role}`), name: 'Omar Officer' },
    { token: async () => 'token', login: vi.fn(), logout: vi.fn() },
  );
}
const officer = () => person('officer-1', ['inbox-message-send', 'sample-permit-search']);

/** An API whose POST answers what is given, when `release` is called if asked to wait. */
function apiAnswering(result: ApiResult<unknown>, wait = false) {
  let release: () => void = () => undefined;
  const gate = wait ? new Promise<void>((resolve) => (release = resolve)) : Promise.resolve();
  const post = vi.fn(async () => {
    await gate;
    return result;
  });
  return { post, release: () => release(), api: { post } as unknown as ApiClient };
}

const SENT: ApiResult<unknown> = [null, { ...permitDocument, id: 'm1', type: 'inbox-message' }];

function renderButton({
  session = officer(),
  api = apiAnswering(SENT).api,
  document = permitDocument as DocumentView | null,
  workflow = permit,
  definitions = bundle,
}: {
  session?: Session;
  api?: ApiClient;
  document?: DocumentView | null;
  workflow?: WorkflowDefinition;
  definitions?: DefinitionBundle;
} = {}) {
  return render(
    <MantineProvider env="test">
      <PortalContext.Provider value={{ bundle: definitions, session, api }}>
        <MemoryRouter>
          <WriteMessageButton workflow={workflow} document={document} />
        </MemoryRouter>
      </PortalContext.Provider>
    </MantineProvider>,
  );
}

function openDialog() {
  fireEvent.click(screen.getByRole('button', { name: 'Write to the holder' }));
  return within(screen.getByRole('dialog', { name: 'Write to the holder of SP-2026-000007' }));
}

const type = (field: HTMLElement, value: string) => fireEvent.change(field, { target: { value } });

describe('write to the holder', () => {
  it.each<[string, () => Parameters<typeof renderButton>[0]]>([
    [
      'without the role to write',
      () => ({ session: person('officer-1', ['sample-permit-search']) }),
    ],
    ['on one’s own document', () => ({ session: person('holder-1', ['inbox-message-send']) })],
    ['before the document is there (creating)', () => ({ document: null })],
    ['on a message itself', () => ({ workflow: inbox })],
    [
      'when the definitions have no inbox',
      () => ({ definitions: { ...bundle, workflows: [permit] } }),
    ],
  ])('is not offered %s', (_name, options) => {
    const view = renderButton(options());
    expect(view.container.querySelector('button, [role], p, div')).toBeNull();
  });

  it('opens a labelled dialog naming the document and whom it is for', async () => {
    renderButton();
    const dialog = openDialog();
    expect(dialog.getByText('To: Jane Doe')).toBeTruthy();
    const subject = dialog.getByRole('textbox', { name: 'Subject' });
    expect(subject.hasAttribute('required')).toBe(true);
    expect(dialog.getByRole('textbox', { name: 'Message' }).hasAttribute('required')).toBe(true);
    expect(dialog.getByRole('textbox', { name: 'Note' }).hasAttribute('required')).toBe(false);
    const attachment = dialog.getByRole('group', { name: 'Attachment' });
    expect(within(attachment).getByRole('button', { name: 'Choose a file' })).toBeTruthy();
    expect(attachment.textContent).toContain('PDF, JPEG or PNG, at most 10 MB');
    // The dialog's first field has the focus (the dialog traps it).
    await waitFor(() => expect(globalThis.document.activeElement).toBe(subject));
  });

  it('checks the required fields before sending, saying so on each', async () => {
    const { api, post } = apiAnswering(SENT);
    renderButton({ api });
    const dialog = openDialog();
    fireEvent.click(dialog.getByRole('button', { name: 'Send message' }));
    const subject = dialog.getByRole('textbox', { name: 'Subject' });
    const message = dialog.getByRole('textbox', { name: 'Message' });
    expect(subject.getAttribute('aria-invalid')).toBe('true');
    expect(message.getAttribute('aria-invalid')).toBe('true');
    expect(dialog.getAllByText('This field is required')).toHaveLength(2);
    expect(globalThis.document.activeElement).toBe(subject);
    expect(post).not.toHaveBeenCalled();

    // Typing clears the field's message; blanks alone are no subject.
    type(subject, '   ');
    type(message, 'Hello');
    fireEvent.click(dialog.getByRole('button', { name: 'Send message' }));
    expect(dialog.getAllByText('This field is required')).toHaveLength(1);
    expect(message.getAttribute('aria-invalid')).not.toBe('true');
    expect(post).not.toHaveBeenCalled();
  });

  it('shows the server’s problems on their fields, and the others above them', async () => {
    const { api } = apiAnswering([
      {
        status: 400,
        code: 'VALIDATION_FAILED',
        message: 'Please fix the errors',
        fields: [
          {
            path: '/message/subject',
            rule: 'maxLength',
            message: 'Must be at most 200 characters',
          },
          {
            path: '/about/id',
            rule: 'heldDocument',
            message: 'You can only write to the holder of a document you hold',
          },
        ],
      },
      null,
    ]);
    renderButton({ api });
    const dialog = openDialog();
    type(dialog.getByRole('textbox', { name: 'Subject' }), 'x'.repeat(201));
    type(dialog.getByRole('textbox', { name: 'Message' }), 'Hello');
    fireEvent.click(dialog.getByRole('button', { name: 'Send message' }));
    expect(await dialog.findByText('Must be at most 200 characters')).toBeTruthy();
    expect(dialog.getByRole('alert').textContent).toBe(
      'You can only write to the holder of a document you hold',
    );
    expect(globalThis.document.activeElement).toBe(
      dialog.getByRole('textbox', { name: 'Subject' }),
    );
  });

  it('says a refusal without fields as it is, keeping what was typed', async () => {
    const { api } = apiAnswering([
      { status: 403, code: 'FORBIDDEN', message: 'You may not do this' },
      null,
    ]);
    renderButton({ api });
    const dialog = openDialog();
    type(dialog.getByRole('textbox', { name: 'Subject' }), 'Hello');
    type(dialog.getByRole('textbox', { name: 'Message' }), 'Hello');
    fireEvent.click(dialog.getByRole('button', { name: 'Send message' }));
    expect((await dialog.findByRole('alert')).textContent).toBe('You may not do this');
    expect((dialog.getByRole('textbox', { name: 'Subject' }) as HTMLInputElement).value).toBe(
      'Hello',
    );
    expect(screen.queryByRole('status')).toBeNull();
  });

  it('sends the message with its attachment, then confirms where the focus goes', async () => {
    uploads.uploadFile.mockImplementation(async (file: File, progress: (n: number) => void) => {
      progress(50);
      return { id: 'media-1', name: file.name, size: file.size, type: file.type, extra: 1 };
    });
    const { api, post, release } = apiAnswering(SENT, true);
    renderButton({ api });
    const dialog = openDialog();
    type(dialog.getByRole('textbox', { name: 'Subject' }), '  Your passport  ');
    type(dialog.getByRole('textbox', { name: 'Message' }), 'Please send a copy.\nThank you.');
    type(dialog.getByRole('textbox', { name: 'Note' }), 'Asked by phone too');
    const input = globalThis.document.querySelector('input[type=file]') as HTMLInputElement;
    expect(input.getAttribute('accept')).toBe('application/pdf,image/jpeg,image/png');
    const file = new File(['%PDF-1.4'], 'letter.pdf', { type: 'application/pdf' });
    fireEvent.change(input, { target: { files: [file] } });
    expect(await dialog.findByText('letter.pdf')).toBeTruthy();
    expect(dialog.getByRole('button', { name: 'Replace the file' })).toBeTruthy();

    fireEvent.click(dialog.getByRole('button', { name: 'Send message' }));
    await waitFor(() => expect(post).toHaveBeenCalledTimes(1));
    expect(dialog.getByRole('button', { name: /Send message/ }).hasAttribute('data-loading')).toBe(
      true,
    );
    expect(post).toHaveBeenCalledWith('evisa', '/inbox-message', {
      action: 'write',
      data: {
        message: {
          subject: 'Your passport',
          message: 'Please send a copy.\nThank you.',
          note: 'Asked by phone too',
          attachment: { id: 'media-1', name: 'letter.pdf', size: 8, type: 'application/pdf' },
        },
        about: { type: 'sample-permit', id: permitDocument.id },
      },
    });
    await act(async () => release());
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    const confirmation = screen.getByRole('status');
    expect(confirmation.textContent).toContain('Message Sent Successfully');
    await waitFor(() => expect(globalThis.document.activeElement).toBe(confirmation));
  });

  it('refuses an attachment of a type the message does not take', async () => {
    renderButton();
    const dialog = openDialog();
    const input = globalThis.document.querySelector('input[type=file]') as HTMLInputElement;
    fireEvent.change(input, {
      target: { files: [new File(['x'], 'notes.txt', { type: 'text/plain' })] },
    });
    expect(
      await dialog.findByText(
        'This type of file is not accepted (application/pdf,image/jpeg,image/png)',
      ),
    ).toBeTruthy();
    expect(uploads.uploadFile).not.toHaveBeenCalled();
  });

  it('closes at once when nothing was typed, and asks before throwing a message away', () => {
    const { api, post } = apiAnswering(SENT);
    renderButton({ api });
    let dialog = openDialog();
    fireEvent.click(dialog.getByRole('button', { name: 'Cancel' }));
    expect(screen.queryByRole('dialog')).toBeNull();

    dialog = openDialog();
    type(dialog.getByRole('textbox', { name: 'Subject' }), 'Draft');
    fireEvent.click(dialog.getByRole('button', { name: 'Cancel' }));
    const question = dialog.getByRole('alertdialog', {
      name: 'Discard this message? What you wrote will be lost.',
    });
    // Keeping is the safe default: it has the focus.
    const keep = within(question).getByRole('button', { name: 'Keep writing' });
    expect(globalThis.document.activeElement).toBe(keep);
    fireEvent.click(keep);
    expect(dialog.queryByRole('alertdialog')).toBeNull();
    expect((dialog.getByRole('textbox', { name: 'Subject' }) as HTMLInputElement).value).toBe(
      'Draft',
    );

    // Escape asks too; discarding closes without sending, and the next opening starts afresh.
    fireEvent.keyDown(dialog.getByRole('textbox', { name: 'Subject' }), { key: 'Escape' });
    fireEvent.click(
      within(dialog.getByRole('alertdialog')).getByRole('button', { name: 'Discard' }),
    );
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(post).not.toHaveBeenCalled();
    dialog = openDialog();
    expect((dialog.getByRole('textbox', { name: 'Subject' }) as HTMLInputElement).value).toBe('');
  });

  it('speaks French', async () => {
    await changeLanguage('fr');
    renderButton();
    fireEvent.click(screen.getByRole('button', { name: 'Écrire au titulaire' }));
    const dialog = within(
      screen.getByRole('dialog', { name: 'Écrire au titulaire de SP-2026-000007' }),
    );
    expect(dialog.getByText('À : Jane Doe')).toBeTruthy();
    type(dialog.getByRole('textbox', { name: 'Objet' }), 'Votre passeport');
    fireEvent.click(dialog.getByRole('button', { name: 'Envoyer le message' }));
    expect(dialog.getByText('Ce champ est obligatoire')).toBeTruthy();
    type(dialog.getByRole('textbox', { name: 'Message' }), 'Merci');
    fireEvent.click(dialog.getByRole('button', { name: 'Envoyer le message' }));
    await waitFor(() =>
      expect(screen.getByRole('status').textContent).toBe('Message envoyé avec succès'),
    );
  });
});
