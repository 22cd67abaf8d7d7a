import { render, screen, waitFor } from '@testing-library/react';
import { renderToStaticMarkup } from 'react-dom/server';
import { afterEach, describe, expect, it } from 'vitest';
import { useFirstPaintSlice } from '../../src/engine/form/firstPaint';
import { focusField } from '../../src/portal/pages/document/ErrorSummary';

const FIELDS = Array.from({ length: 12 }, (_, i) => `field ${i + 1}`);

function Fields() {
  const shown = useFirstPaintSlice(FIELDS, 8);
  return (
    <ul>
      {shown.map((name) => (
        <li key={name}>{name}</li>
      ))}
    </ul>
  );
}

describe("a long section's first paint", () => {
  it('shows the first fields on its first render, every field on the render after it', async () => {
    // A server render is a first render alone: what the first paint holds.
    const first = renderToStaticMarkup(<Fields />);
    expect(first.match(/<li>/g)).toHaveLength(8);
    expect(first).not.toContain('field 9');

    render(<Fields />);
    await waitFor(() => expect(screen.getAllByRole('listitem')).toHaveLength(12));
    expect(screen.getByText('field 12')).toBeTruthy();
  });
});

describe('focusField', () => {
  afterEach(() => document.body.replaceChildren());
  // jsdom has no CSS.escape; browsers do. Enough of it for the ids RJSF gives.
  globalThis.CSS ??= {
    escape: (text: string) => text.replace(/[^\w-]/g, (c) => `\\${c}`),
  } as typeof CSS;

  it('waits for a field rendered after the first paint instead of focusing its group', async () => {
    document.body.innerHTML =
      '<div id="root.applicant"><input id="root.applicant.familyName" /></div>';
    focusField('/applicant/passportNumber');
    // The group's first input is another field: nothing is focused meanwhile.
    await new Promise((resolve) => requestAnimationFrame(resolve));
    expect(document.activeElement).toBe(document.body);

    const late = document.createElement('input');
    late.id = 'root.applicant.passportNumber';
    document.getElementById('root.applicant')!.append(late);
    await waitFor(() => expect(document.activeElement).toBe(late));
  });

  it("focuses the field's group when the field never comes", async () => {
    document.body.innerHTML =
      '<div id="root.applicant"><input id="root.applicant.familyName" /></div>';
    focusField('/applicant/removed');
    await waitFor(
      () =>
        expect(document.activeElement).toBe(document.getElementById('root.applicant.familyName')),
      { timeout: 5_000 },
    );
  });
});
