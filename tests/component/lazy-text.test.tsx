import { createRef, useState } from 'react';
import { act, fireEvent, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Button } from '@mantine/core';
import { describe, expect, it } from 'vitest';
import { DocumentForm } from '../../src/engine/form/DocumentForm';
import type { DocumentData, DocumentFormHandle } from '../../src/engine/form/types';
import { loadSample, renderSample, wrap } from './harness';

/*
 * Text-like widgets hand their text to the form after the keystroke's paint (pendingEdits.ts).
 * Nothing typed may be lost: leaving the field, validateAll(), a section change and a click on
 * a button all see it.
 */

const applicant = (value: DocumentData) => (value.applicant ?? {}) as Record<string, unknown>;

describe('text typed into the form', () => {
  it('is in onChange as soon as the field is left', async () => {
    const form = await renderSample();
    const name = screen.getByLabelText(/Family name/) as HTMLInputElement;
    act(() => name.focus());
    fireEvent.change(name, { target: { value: 'Doe' } });
    // Not yet: it reaches the document after the keystroke's paint ...
    expect(applicant(form.current.value).familyName).toBeUndefined();
    // ... or at once when the field is left.
    fireEvent.blur(name);
    expect(applicant(form.current.value).familyName).toBe('Doe');
    expect(name.value).toBe('Doe');
  });

  it('reaches the document on its own after the paint, with its errors shown eagerly', async () => {
    const form = await renderSample();
    const phone = screen.getByLabelText(/Phone/) as HTMLInputElement;
    fireEvent.change(phone, { target: { value: '12' } });
    expect(applicant(form.current.value).phone).toBeUndefined();
    await waitFor(() => expect(applicant(form.current.value).phone).toBe('12'));
    await waitFor(() =>
      expect(screen.getByText('This value does not have the expected format')).toBeTruthy(),
    );
    // The input kept its own text throughout.
    expect(phone.value).toBe('12');
  });

  it('is validated by validateAll() right after typing', async () => {
    const form = await renderSample({ value: { applicant: { birthDate: '1990-03-15' } } });
    let errors: Array<{ path: string }> = [];
    act(() => {
      errors = form.handle.current!.validateAll();
    });
    expect(errors.some((e) => e.path === '/applicant/familyName')).toBe(true);
    fireEvent.change(screen.getByLabelText(/Family name/), { target: { value: 'Doe' } });
    act(() => {
      errors = form.handle.current!.validateAll();
    });
    expect(errors.some((e) => e.path === '/applicant/familyName')).toBe(false);
    expect(applicant(form.current.value).familyName).toBe('Doe');
  });

  it('is in the handle’s currentValue() and survives a section change', async () => {
    const form = await renderSample();
    fireEvent.change(screen.getByLabelText(/Family name/), { target: { value: 'Roe' } });
    expect(applicant(form.handle.current!.currentValue()).familyName).toBe('Roe');
    fireEvent.change(screen.getByLabelText(/E-mail/), { target: { value: 'r@o.nz' } });
    act(() => form.handle.current!.goToSection('dependants'));
    expect(applicant(form.current.value).email).toBe('r@o.nz');
  });

  it('is what a button clicked right after typing sees', async () => {
    const sample = await loadSample();
    const handle = createRef<DocumentFormHandle>();
    const saved: DocumentData[] = [];
    function Screen() {
      const [value, setValue] = useState<DocumentData>({});
      return (
        <>
          <DocumentForm
            ref={handle}
            definition={sample.definition}
            texts={sample.texts}
            validators={sample.validators}
            language="en"
            value={value}
            onChange={setValue}
          />
          <Button onClick={() => saved.push(value)}>Save</Button>
          <Button onClick={() => setValue({ applicant: { familyName: 'Loaded' } })}>Load</Button>
        </>
      );
    }
    render(wrap(<Screen />));
    const user = userEvent.setup();
    const name = screen.getByLabelText(/Family name/) as HTMLInputElement;
    await user.click(name);
    fireEvent.change(name, { target: { value: 'Smith' } });
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(saved.map((v) => applicant(v).familyName)).toEqual(['Smith']);

    // Data from outside replaces the input's text.
    await user.click(screen.getByRole('button', { name: 'Load' }));
    await waitFor(() => expect(name.value).toBe('Loaded'));
  });
});
