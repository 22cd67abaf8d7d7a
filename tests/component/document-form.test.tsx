import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import type { TextTree } from '../../src/core/i18n/translate';
import type { EntityFormDefinition } from '../../src/core/rules/sections';
import { withRequiredFields } from '../../src/engine/form/ui';
import { loadSample, renderSample, sampleWithApplicantUi } from './harness';

/**
 * The sample's character questions as a list the server fills (docs/forms.md): the question and
 * its code hidden, the answer labelled by the question; a `mandatory` flag (data only: the sample
 * schema lets unknown fields through) marks the answer required.
 */
async function serverFilledSample(): Promise<EntityFormDefinition> {
  const { definition } = await loadSample();
  return {
    ...definition,
    uiSchema: {
      ...definition.uiSchema,
      characterQuestions: {
        'ui:options': { addable: false, removable: false, orderable: false },
        items: {
          'ui:options': { groupLabelFrom: 'question' },
          question: { 'ui:widget': 'hidden' },
          answer: {
            'ui:widget': 'yesNo',
            'ui:options': { labelFrom: 'question', requiredFrom: 'mandatory' },
          },
        },
      },
    },
  };
}

describe('DocumentForm', () => {
  it('renders only the active section with translated labels and a conditional field', async () => {
    const user = userEvent.setup();
    await renderSample();
    expect(screen.getByRole('tab', { name: /Applicant/ })).toBeTruthy();
    expect(screen.getByLabelText(/Family name/)).toBeTruthy();
    expect(screen.queryByText('Given name')).toBeNull();
    expect(screen.queryByLabelText(/Spouse's name/)).toBeNull();
    await user.click(
      within(screen.getByRole('radiogroup', { name: /Married/ })).getByLabelText('Yes'),
    );
    await waitFor(() => expect(screen.getByLabelText(/Spouse's name/)).toBeTruthy());
  });

  it('shows errors eagerly once touched, in English then French', async () => {
    const user = userEvent.setup();
    const form = await renderSample();
    const name = screen.getByLabelText(/Family name/);
    await user.type(name, 'X');
    // Typed text reaches the document after the keystroke's paint, without leaving the field.
    await waitFor(() =>
      expect((form.current.value.applicant as Record<string, unknown>).familyName).toBe('X'),
    );
    await user.clear(name);
    await waitFor(() => expect(screen.getByText('This field is required')).toBeTruthy());
    act(() => form.setLanguage('fr'));
    await waitFor(() => expect(screen.getByLabelText(/Nom de famille/)).toBeTruthy());
    expect(screen.getByText('Ce champ est obligatoire')).toBeTruthy();
  });
});

describe('DocumentForm rules and modes', () => {
  it('reports the array rules and character questions by their message on validateAll', async () => {
    const form = await renderSample({
      value: {
        applicant: { familyName: 'Doe', birthDate: '1990-03-15' },
        dependants: [{ givenName: 'A' }, { givenName: 'B' }, { givenName: 'C' }],
        characterQuestions: [{ question: 'convictions', answer: false }, { question: 'deported' }],
      },
    });
    let errors: Array<{ path: string; rule: string; message: string }> = [];
    act(() => {
      errors = form.handle.current!.validateAll();
    });
    expect(errors).toEqual(
      expect.arrayContaining([
        { path: '/dependants', rule: 'maxItems', message: 'Add at most 2 items' },
        {
          path: '/characterQuestions',
          rule: 'allAnswered',
          message: 'Please answer all Character Questions',
        },
      ]),
    );
    expect(errors.some((e) => e.rule === 'minItems')).toBe(false);
    await userEvent.setup().click(screen.getByRole('tab', { name: /Character questions/ }));
    await waitFor(() =>
      expect(screen.getByText('Please answer all Character Questions')).toBeTruthy(),
    );
    expect(screen.getByTestId('section-errors-dependants').textContent).toBe('1');
  });

  it('names the fields of a required section not yet opened, not the section', async () => {
    const form = await renderSample({ initialSection: 'dependants', value: {} });
    let errors: Array<{ path: string; rule: string }> = [];
    act(() => {
      errors = form.handle.current!.validateAll();
    });
    expect(errors).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ path: '/applicant/familyName', rule: 'required' }),
        expect.objectContaining({ path: '/applicant/birthDate', rule: 'required' }),
      ]),
    );
    expect(errors.map((e) => e.path)).not.toContain('/applicant');
  });

  it('names the answer to each character question by the question, for screen readers', async () => {
    const user = userEvent.setup();
    await renderSample({
      value: {
        characterQuestions: [
          { question: 'Have you ever been convicted of an offence?' },
          { question: 'Have you ever been deported?' },
        ],
      },
    });
    await user.click(screen.getByRole('tab', { name: /Character questions/ }));
    const deported = await screen.findByRole('group', { name: 'Have you ever been deported?' });
    await user.click(within(deported).getByLabelText('Yes'));
    const convicted = screen.getByRole('group', {
      name: 'Have you ever been convicted of an offence?',
    });
    expect((within(convicted).getByLabelText('Yes') as HTMLInputElement).checked).toBe(false);
    expect((within(deported).getByLabelText('Yes') as HTMLInputElement).checked).toBe(true);
  });

  it('shows a list the server fills as questions: the text labels the answer, no disabled fields', async () => {
    const user = userEvent.setup();
    const form = await renderSample({
      definition: await serverFilledSample(),
      initialSection: 'characterQuestions',
      value: {
        characterQuestions: [
          { question: 'Have you ever been convicted of an offence?', mandatory: true },
          { question: 'Have you ever been deported?', mandatory: false },
        ],
      },
    });
    const panel = screen.getByRole('tabpanel');
    // No input but the answers' radios: no disabled "Question" box, no code, no rank.
    expect(panel.querySelectorAll('input:not([type=radio]), textarea')).toHaveLength(0);
    expect(panel.querySelectorAll('input:disabled')).toHaveLength(0);
    expect(within(panel).queryByText('Question')).toBeNull();
    // The answer is a radio group named by its question; the group around it keeps that name.
    const convicted = screen.getByRole('radiogroup', {
      name: /^Have you ever been convicted of an offence\?/,
    });
    // Said in words (the radio group's description) and marked with an asterisk.
    const described = (group: HTMLElement) =>
      document.getElementById(group.getAttribute('aria-describedby') ?? '')?.textContent;
    const starred = (group: HTMLElement) =>
      document
        .getElementById(group.getAttribute('aria-labelledby') ?? '')
        ?.querySelector('.mantine-InputWrapper-required') != null;
    expect(described(convicted)).toBe('Mandatory');
    expect(starred(convicted)).toBe(true);
    const deported = screen.getByRole('radiogroup', { name: /^Have you ever been deported\?/ });
    expect(described(deported)).toBe('Optional');
    expect(starred(deported)).toBe(false);
    const group = screen.getByRole('group', { name: 'Have you ever been deported?' });
    await user.click(within(group).getByLabelText('Yes'));
    await waitFor(() =>
      expect(
        (form.current.value.characterQuestions as Array<{ answer?: boolean }>)[1]!.answer,
      ).toBe(true),
    );
    // The question (a hidden field) stays in the data as the server gave it.
    expect(
      (form.current.value.characterQuestions as Array<{ question: string }>)[1]!.question,
    ).toBe('Have you ever been deported?');
  });

  it('reads a list the server fills as questions and answers, and an upload as a link', async () => {
    const readFile = vi.fn(async () => new Blob(['%PDF'], { type: 'application/pdf' }));
    Object.assign(URL, { createObjectURL: () => 'blob:x', revokeObjectURL: () => undefined });
    const open = vi.spyOn(window, 'open').mockReturnValue({} as Window);
    const user = userEvent.setup();
    const passport = { id: 'm1', name: 'passport.pdf', size: 433, type: 'application/pdf' };
    await renderSample({
      definition: await serverFilledSample(),
      readOnly: true,
      initialSection: 'characterQuestions',
      services: { readFile },
      value: {
        characterQuestions: [
          { question: 'Have you ever been convicted of an offence?', answer: false },
          { question: 'Have you ever been deported?' },
        ],
        documents: { passport },
      },
    });
    const section = screen.getByTestId('readonly-characterQuestions');
    const convicted = within(section).getByRole('group', {
      name: 'Have you ever been convicted of an offence?',
    });
    expect(within(convicted).getByText('No')).toBeTruthy();
    // An unanswered question is still listed, and said to be unanswered.
    const deported = within(section).getByRole('group', { name: 'Have you ever been deported?' });
    expect(within(deported).getByText('Nothing entered')).toBeTruthy();
    expect(within(section).queryByText('Question')).toBeNull();

    await user.click(screen.getByRole('tab', { name: /Documents/ }));
    const link = await screen.findByRole('button', { name: 'Open passport.pdf (PDF, 433 B)' });
    expect(screen.queryByText('passport.pdf (433 B)')).toBeNull();
    await user.click(link);
    await waitFor(() => expect(open).toHaveBeenCalledWith('blob:x', '_blank'));
    expect(readFile).toHaveBeenCalledWith(passport);
    open.mockRestore();
  });

  it('reads a catalogue code with the name of the entry it names, as the select shows it', async () => {
    const searchCatalog = vi.fn(async () => [{ code: 'WS', name: 'Samoa' }]);
    await renderSample({
      readOnly: true,
      initialSection: 'applicant',
      services: { searchCatalog },
      value: { applicant: { givenName: 'Mia', nationality: 'WS' } },
    });
    expect(await screen.findByText('WS - Samoa')).toBeTruthy();
    expect(searchCatalog).toHaveBeenCalledWith('country', 'WS');
  });

  it('marks as required what an action of the screen requires, though the schema does not', async () => {
    const { definition } = await loadSample();
    const view = await renderSample({
      definition: withRequiredFields(definition, ['/applicant/phone', '/dependants/birthDate']),
      value: { dependants: [{ givenName: 'Mia' }] },
    });
    const phone = screen.getByLabelText(/Phone/);
    expect(
      phone.closest('.mantine-InputWrapper-root')!.querySelector('.mantine-InputWrapper-required'),
    ).not.toBeNull();
    const email = screen.getByLabelText(/E-mail/);
    expect(
      email.closest('.mantine-InputWrapper-root')!.querySelector('.mantine-InputWrapper-required'),
    ).toBeNull();
    await userEvent.setup().click(screen.getByRole('tab', { name: /Dependants/ }));
    const birth = await screen.findByLabelText(/Date of birth/);
    expect(
      birth.closest('.mantine-InputWrapper-root')!.querySelector('.mantine-InputWrapper-required'),
    ).not.toBeNull();
    void view;
  });

  it('reads as a document when read-only', async () => {
    await renderSample({
      readOnly: true,
      value: {
        applicant: {
          familyName: 'Doe',
          birthDate: '1990-03-15',
          gender: 'F',
          married: false,
          fee: '1234.5',
        },
      },
    });
    const section = screen.getByTestId('readonly-applicant');
    expect(within(section).getByText('15/03/1990')).toBeTruthy();
    expect(within(section).getByText('Female')).toBeTruthy();
    expect(within(section).getByText('No')).toBeTruthy();
    expect(within(section).getByText('NZD 1,234.50')).toBeTruthy();
    expect(section.querySelector('input')).toBeNull();
  });

  it('shows non-editable sections read-only and hides hidden ones', async () => {
    await renderSample({
      editable: ['dependants'],
      hidden: ['documents'],
      value: { applicant: { familyName: 'Doe' } },
    });
    expect(screen.getByTestId('readonly-applicant')).toBeTruthy();
    expect(screen.queryByRole('tab', { name: /Documents/ })).toBeNull();
  });

  it('adds and removes array items with buttons named for the list and the item', async () => {
    const user = userEvent.setup();
    const form = await renderSample({ initialSection: 'dependants', language: 'fr' });
    const add = screen.getByRole('button', { name: 'Ajouter une personne à charge' });
    await user.click(add);
    await waitFor(() => expect(screen.getByLabelText(/Prénom/)).toBeTruthy());
    expect(Array.isArray(form.current.value.dependants)).toBe(true);
    await user.click(add);
    // Each item is a group under its heading, its buttons named for it.
    const second = await screen.findByRole('group', { name: 'Personne à charge 2' });
    expect(within(second).getByRole('heading', { name: 'Personne à charge 2' })).toBeTruthy();
    expect(
      within(second).getByRole('button', { name: 'Monter : Personne à charge 2' }),
    ).toBeTruthy();
    const first = screen.getByRole('group', { name: 'Personne à charge 1' });
    fireEvent.click(within(first).getByRole('button', { name: 'Retirer la personne à charge 1' }));
    await waitFor(() => expect(screen.getAllByLabelText(/Prénom/)).toHaveLength(1));
    expect(screen.queryByRole('group', { name: 'Personne à charge 2' })).toBeNull();
  });

  it('reads each item of a list under its heading', async () => {
    await renderSample({
      readOnly: true,
      value: { dependants: [{ givenName: 'Ann', birthDate: '2015-02-01' }, { givenName: 'Tom' }] },
    });
    const section = screen.getByTestId('readonly-dependants');
    expect(within(section).getByText('Dependant 1')).toBeTruthy();
    expect(within(section).getByText('Dependant 2')).toBeTruthy();
  });

  it('names the items and buttons of a list without texts of its own after the list', async () => {
    const { texts } = await loadSample();
    const own = texts.en['sample-permit'] as TextTree & { dependants: TextTree };
    const { _item, _add, _remove, ...dependants } = own.dependants;
    const plain = { ...texts, en: { ...texts.en, 'sample-permit': { ...own, dependants } } };
    await renderSample({ initialSection: 'dependants', texts: plain });
    await userEvent.setup().click(screen.getByRole('button', { name: 'Add an item: Dependants' }));
    const item = await screen.findByRole('group', { name: 'Dependants, item 1' });
    expect(within(item).getByRole('button', { name: 'Remove: Dependants, item 1' })).toBeTruthy();
  });
});

describe('DocumentForm fields that apply only sometimes (ui:options.when)', () => {
  it('hides a field while its condition does not hold, and neither checks nor keeps its value', async () => {
    const conditional = await sampleWithApplicantUi('email', {
      'ui:widget': 'email',
      'ui:options': { when: { pointer: '/applicant/married', in: [true] } },
    });
    const user = userEvent.setup();
    const form = await renderSample({
      definition: conditional,
      value: { applicant: { familyName: 'Doe', birthDate: '1990-03-15', email: 'not-an-email' } },
    });
    expect(screen.getByLabelText(/Family name/)).toBeTruthy();
    expect(screen.queryByLabelText(/E-mail/)).toBeNull();
    const married = within(screen.getByRole('radiogroup', { name: /Married/ }));
    await user.click(married.getByLabelText('Yes'));
    const email = await screen.findByLabelText(/E-mail/);
    // The widget is given no `when` (a theme would write it on the input as an attribute).
    expect(email.getAttribute('when')).toBeNull();
    let errors: Array<{ path: string }> = [];
    act(() => {
      errors = form.handle.current!.validateAll();
    });
    expect(errors.map((e) => e.path)).toContain('/applicant/email');
    await user.click(married.getByLabelText('No'));
    await waitFor(() => expect(screen.queryByLabelText(/E-mail/)).toBeNull());
    act(() => {
      errors = form.handle.current!.validateAll();
    });
    expect(errors.map((e) => e.path)).not.toContain('/applicant/email');
    // The form keeps what was typed, should it apply again; the server drops it (applicableData).
    expect((form.current.value.applicant as Record<string, unknown>).email).toBe('not-an-email');
  });
});
