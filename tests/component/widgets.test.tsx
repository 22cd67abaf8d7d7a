import { act, fireEvent, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import type { MediaReference } from '../../src/core/documents/types';
import { renderSample, sampleWithApplicantUi } from './harness';

describe('widgets', () => {
  it('date stores ISO from DD/MM/YYYY; money keeps a decimal string; email and phone', async () => {
    const user = userEvent.setup();
    const form = await renderSample();
    await user.type(screen.getByLabelText(/Date of birth/), '15/03/1990');
    await waitFor(() =>
      expect((form.current.value.applicant as Record<string, unknown>).birthDate).toBe(
        '1990-03-15',
      ),
    );
    await user.type(screen.getByLabelText(/Fee/), '12a34.567');
    await user.tab(); // leaving the field hands its text to the form at once
    const applicant = () => form.current.value.applicant as Record<string, unknown>;
    expect(applicant().fee).toBe('1234.56');
    expect(typeof applicant().fee).toBe('string');
    await user.type(screen.getByLabelText(/E-mail/), 'a@b.nz');
    await user.type(screen.getByLabelText(/Phone/), '+64 21 555');
    await user.tab();
    expect(applicant().email).toBe('a@b.nz');
    expect(applicant().phone).toBe('+64 21 555');
    expect((screen.getByLabelText(/Phone/) as HTMLInputElement).type).toBe('tel');
  });

  it("a date's calendar names its controls in the form's language and shows no faded days", async () => {
    const user = userEvent.setup();
    await renderSample();
    await user.click(screen.getByLabelText(/Date of birth/));
    // Mantine's previous and next buttons had no name of their own. (jsdom lays nothing out,
    // so the popover may take its input for one scrolled away and hide itself: the names are
    // read whether it shows or not; the browser journeys see it open.)
    await screen.findByRole('button', { name: 'Previous month', hidden: true });
    const named = [...document.querySelectorAll('button[aria-label]')].map((button) =>
      button.getAttribute('aria-label'),
    );
    expect(named).toEqual(expect.arrayContaining(['Next month', 'Choose a month']));
    // The last and next months' days, faded below AA contrast, are not drawn.
    const outside = document.querySelectorAll<HTMLElement>('[data-outside]');
    expect([...outside].every((day) => day.style.display === 'none')).toBe(true);
  });

  it('yesNo stores booleans', async () => {
    const user = userEvent.setup();
    const form = await renderSample();
    await user.click(screen.getByLabelText('No'));
    expect((form.current.value.applicant as Record<string, unknown>).married).toBe(false);
    await user.click(screen.getByLabelText('Yes'));
    expect((form.current.value.applicant as Record<string, unknown>).married).toBe(true);
  });

  it('catalog searches through the service and shows the name beside the code', async () => {
    const user = userEvent.setup();
    const searchCatalog = vi.fn(async (_catalog: string, text: string) =>
      [
        { code: 'NZ', name: 'New Zealand' },
        { code: 'FR', name: 'France' },
      ].filter((c) => c.name.toLowerCase().includes(text.toLowerCase())),
    );
    const form = await renderSample({ services: { searchCatalog } });
    await user.type(document.getElementById('root.applicant.nationality')!, 'zeal');
    await waitFor(() => expect(searchCatalog).toHaveBeenCalledWith('country', 'zeal', {}));
    await user.click(await screen.findByText('NZ - New Zealand'));
    expect((form.current.value.applicant as Record<string, unknown>).nationality).toBe('NZ');
  });

  it("catalog narrowed by another field never offers the other value's entries while it asks", async () => {
    const user = userEvent.setup();
    // The nationality offered depends on the gender given (any field names any other here).
    const narrowed = await sampleWithApplicantUi('nationality', {
      'ui:widget': 'catalog',
      'ui:options': { catalog: 'country', match: { group: '/applicant/gender' } },
    });
    let release: () => void = () => undefined;
    const answered = new Promise<void>((resolve) => (release = resolve));
    const searchCatalog = vi.fn(
      async (_catalog: string, _text: string, where?: Readonly<Record<string, unknown>>) => {
        if (where?.group === 'F') return [{ code: 'FF', name: 'Of the first' }];
        await answered;
        return [{ code: 'MM', name: 'Of the second' }];
      },
    );
    const form = await renderSample({
      definition: narrowed,
      services: { searchCatalog },
      value: { applicant: { gender: 'F' } },
    });
    const nationality = () => document.getElementById('root.applicant.nationality')!;
    const applicant = () => form.current.value.applicant as Record<string, unknown>;
    await user.click(nationality());
    expect(await screen.findByText('FF - Of the first')).toBeTruthy();
    await user.keyboard('{Escape}');
    // The other gender: until the answer comes, the first gender's entries are not offered.
    await user.click(screen.getByRole('combobox', { name: /^Gender/ }));
    await user.click(await screen.findByText('Male'));
    expect(applicant().gender).toBe('M');
    await user.click(nationality());
    await waitFor(() =>
      expect(searchCatalog).toHaveBeenCalledWith('country', expect.anything(), { group: 'M' }),
    );
    expect(screen.queryByText(/Of the first/)).toBeNull();
    expect(await screen.findByText('Loading')).toBeTruthy();
    act(() => release());
    await user.click(await screen.findByText('MM - Of the second'));
    expect(applicant().nationality).toBe('MM');
    expect(screen.queryByText(/Of the first/)).toBeNull();
    // The chosen entry chosen again stays chosen (the x button clears).
    await user.click(nationality());
    await user.click(
      await screen.findByText('MM - Of the second', { selector: '[role=option] *' }),
    );
    expect(applicant().nationality).toBe('MM');
  });

  it('an enum select keeps its option when it is chosen again', async () => {
    const user = userEvent.setup();
    const form = await renderSample({ value: { applicant: { gender: 'F' } } });
    await user.click(screen.getByRole('combobox', { name: /^Gender/ }));
    await user.click(
      await screen.findByText('Female', { selector: '[role=option] *, [role=option]' }),
    );
    expect((form.current.value.applicant as Record<string, unknown>).gender).toBe('F');
  });

  it('datetime and file: checks type and size, uploads with progress, keeps the reference', async () => {
    let finish: (reference: MediaReference) => void = () => undefined;
    const uploadFile = vi.fn(
      (file: File, onProgress: (percent: number) => void) =>
        new Promise<MediaReference>((resolve) => {
          onProgress(40);
          finish = resolve;
          void file;
        }),
    );
    const user = userEvent.setup();
    const form = await renderSample({ initialSection: 'documents', services: { uploadFile } });
    await user.type(screen.getByLabelText(/Arrival/), '02/01/2026 10:20:30');
    await waitFor(() =>
      expect(String((form.current.value.documents as Record<string, unknown>).arrival)).toMatch(
        /^2026-01-02T10:20:30[+-]\d\d:\d\d$/,
      ),
    );
    const input = document.querySelector('input[type=file]') as HTMLInputElement;
    fireEvent.change(input, {
      target: { files: [new File(['x'], 'virus.exe', { type: 'application/x-msdownload' })] },
    });
    expect(await screen.findByText(/This type of file is not accepted/)).toBeTruthy();
    fireEvent.change(input, {
      target: { files: [new File(['x'.repeat(2000)], 'big.pdf', { type: 'application/pdf' })] },
    });
    expect(await screen.findByText(/The file is too large/)).toBeTruthy();
    expect(uploadFile).not.toHaveBeenCalled();
    fireEvent.change(input, {
      target: { files: [new File(['%PDF'], 'passport.pdf', { type: 'application/pdf' })] },
    });
    await waitFor(() => expect(screen.getByRole('progressbar')).toBeTruthy());
    await act(async () =>
      finish({ id: 'm1', name: 'passport.pdf', size: 4, type: 'application/pdf' }),
    );
    await waitFor(() =>
      expect((form.current.value.documents as Record<string, unknown>).passport).toEqual({
        id: 'm1',
        name: 'passport.pdf',
        size: 4,
        type: 'application/pdf',
      }),
    );
    // Its name, format and size (a link that opens it when the screen can read files: below).
    expect(screen.getByTestId('root.documents.passport-file').textContent).toBe(
      'passport.pdf(PDF, 4 B)',
    );
  });

  it('an upload opens through readFile: the fetched file is shown in a new tab, or saved', async () => {
    const user = userEvent.setup();
    const file: MediaReference = { id: 'm1', name: 'scan.png', size: 2048, type: 'image/png' };
    const blob = new Blob(['png'], { type: 'image/png' });
    let deliver: (blob: Blob) => void = () => undefined;
    const readFile = vi.fn(() => new Promise<Blob>((resolve) => (deliver = resolve)));
    const createObjectURL = vi.fn(() => 'blob:scan');
    const revoke = vi.fn();
    Object.assign(URL, { createObjectURL, revokeObjectURL: revoke });
    const open = vi.spyOn(window, 'open').mockReturnValue({} as Window);
    await renderSample({
      initialSection: 'documents',
      language: 'fr',
      value: { documents: { passport: file } },
      services: { readFile },
    });
    const link = screen.getByRole('button', { name: 'Ouvrir scan.png (PNG, 2 Ko)' });
    await user.click(link);
    expect(readFile).toHaveBeenCalledWith(file);
    expect(link.getAttribute('aria-busy')).toBe('true');
    await act(async () => deliver(blob));
    expect(createObjectURL).toHaveBeenCalledWith(blob);
    expect(open).toHaveBeenCalledWith('blob:scan', '_blank');
    // A refused pop-up: the file is saved under its name instead.
    open.mockReturnValue(null);
    const click = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (
      this: HTMLAnchorElement,
    ) {
      expect(this.download).toBe('scan.png');
      expect(this.href).toBe('blob:scan');
    });
    readFile.mockResolvedValueOnce(blob);
    await user.click(link);
    await waitFor(() => expect(click).toHaveBeenCalledTimes(1));
    // A failure is said, in the page's language.
    readFile.mockRejectedValueOnce(new Error('HTTP 404'));
    await user.click(link);
    expect(await screen.findByRole('alert')).toHaveProperty(
      'textContent',
      'Le fichier n’a pas pu être ouvert, veuillez réessayer',
    );
    open.mockRestore();
    click.mockRestore();
  });
});
