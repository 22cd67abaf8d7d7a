import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { renderSample } from './harness';

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

  it('adds and removes array items with translated buttons', async () => {
    const user = userEvent.setup();
    const form = await renderSample({ initialSection: 'dependants', language: 'fr' });
    await user.click(screen.getByTitle('Ajouter'));
    await waitFor(() => expect(screen.getByLabelText(/Prénom/)).toBeTruthy());
    expect(Array.isArray(form.current.value.dependants)).toBe(true);
    fireEvent.click(screen.getByTitle('Supprimer'));
    await waitFor(() => expect(screen.queryByLabelText(/Prénom/)).toBeNull());
  });
});
