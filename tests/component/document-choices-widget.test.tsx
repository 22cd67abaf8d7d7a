import fs from 'node:fs/promises';
import path from 'node:path';
import { useState } from 'react';
import { MantineProvider } from '@mantine/core';
import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import type { TextTree } from '../../src/core/i18n/translate';
import type { EngineFormContext } from '../../src/engine/form/context';
import { DocumentChoicesWidget } from '../../src/engine/form/widgets/DocumentChoicesWidget';
import { engineWidgets, type EngineWidgetProps } from '../../src/engine/form/widgets';

const root = path.resolve(import.meta.dirname, '../..');

const ROLES = [
  { code: 'view-profile', name: 'Profile: view your own profile' },
  { code: 'visa-application-grant', name: 'Visa applications: grant a visa' },
  { code: 'visa-application-search', name: 'Visa applications: search visa applications' },
];

async function renderRoles(initial: unknown, rawErrors: string[] = []) {
  const texts = {
    en: JSON.parse(await fs.readFile(path.join(root, 'translations/en.json'), 'utf8')) as TextTree,
  };
  const documentChoices = vi.fn(async () => ROLES);
  const formContext: EngineFormContext = {
    entityId: 'access-unit',
    texts,
    language: 'en',
    services: { documentChoices },
    valueAt: () => undefined,
    fieldApplies: () => true,
  };
  const changes: unknown[] = [];
  function Host() {
    const [value, setValue] = useState<unknown>(initial);
    const props = {
      id: 'root_access_roles',
      name: 'roles',
      label: 'Roles this unit gives',
      value,
      required: false,
      disabled: false,
      readonly: false,
      autofocus: false,
      rawErrors,
      schema: { type: 'array', items: { type: 'string' } },
      uiSchema: {},
      options: { document: 'access-role', code: '/role/roleCode', label: '/role/roleDescription' },
      onChange: (next: unknown) => {
        changes.push(next);
        setValue(next);
      },
      onBlur: () => undefined,
      onFocus: () => undefined,
      registry: { formContext },
    } as unknown as EngineWidgetProps;
    return <DocumentChoicesWidget {...props} />;
  }
  render(
    <MantineProvider env="test">
      <Host />
    </MantineProvider>,
  );
  return { documentChoices, changes };
}

describe('document choices widget', () => {
  it('is registered under its ui:widget name', () => {
    expect(engineWidgets().documentChoices).toBeDefined();
  });

  it('offers the existing access roles with code and description, one label for the field, and stores the codes', async () => {
    const { documentChoices, changes } = await renderRoles(['view-profile']);
    expect(documentChoices).toHaveBeenCalledWith('access-role');
    // One labelled field, not a "Roles *" text box per item.
    const input = screen.getByLabelText('Roles this unit gives', { selector: 'input' });
    expect(screen.queryAllByRole('textbox', { name: /Roles \*/ })).toHaveLength(0);
    fireEvent.click(input);
    const listbox = await screen.findByRole('listbox');
    await waitFor(() => expect(within(listbox).getAllByRole('option')).toHaveLength(2));
    const grant = within(listbox).getByRole('option', { name: /visa-application-grant/ });
    expect(grant.textContent).toContain('Visa applications: grant a visa');
    // Typing part of the description narrows the list.
    fireEvent.change(input, { target: { value: 'search visa' } });
    await waitFor(() =>
      expect(within(screen.getByRole('listbox')).getAllByRole('option')).toHaveLength(1),
    );
    fireEvent.click(screen.getByRole('option', { name: /visa-application-search/ }));
    expect(changes.at(-1)).toEqual(['view-profile', 'visa-application-search']);
  });

  it("keeps a stored code that names no role visible, with the server's error on the field", async () => {
    await renderRoles(['view-profile', 'no-such-role'], ['There is no access role no-such-role']);
    const input = screen.getByLabelText('Roles this unit gives', { selector: 'input' });
    await waitFor(() => expect(screen.getByText('no-such-role')).toBeTruthy());
    expect(input.getAttribute('aria-invalid')).toBe('true');
    expect(screen.getByText('There is no access role no-such-role')).toBeTruthy();
  });
});
