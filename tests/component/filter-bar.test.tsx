import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import { MantineProvider } from '@mantine/core';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import type { FilterCondition } from '../../src/core/search/protocol';
import { FilterBar, type FilterField } from '../../src/engine/FilterBar';
import { changeLanguage, i18next } from '../../src/portal/i18n';
import { initPortalTexts } from './portal-texts';

beforeAll(() => initPortalTexts());

const FIELDS: FilterField[] = [
  { name: 'code', label: 'Code', kind: 'text' },
  { name: 'startTime', label: 'Start', kind: 'datetime' },
];

const t = (key: string) => i18next.t(key);

function choose(label: string, option: string) {
  fireEvent.click(screen.getByRole('combobox', { name: label }));
  fireEvent.click(screen.getByRole('option', { name: option }));
}

function renderBar() {
  const onApply = vi.fn<(condition: FilterCondition | undefined) => void>();
  render(
    <MantineProvider>
      <FilterBar fields={FIELDS} onApply={onApply} />
    </MantineProvider>,
  );
  return onApply;
}

describe('FilterBar', () => {
  it('takes dates as DD/MM/YYYY HH:mm:ss, not the browser’s datetime-local', async () => {
    await changeLanguage('en');
    const onApply = renderBar();
    choose(t('catalog.filterField'), 'Start');
    choose(t('catalog.criterion'), t('catalog.criteria.greaterThan'));
    expect(document.querySelector('input[type="datetime-local"], input[type="date"]')).toBeNull();
    // The whole date and time may be typed (or pasted) into the date.
    const value = screen.getByPlaceholderText('DD/MM/YYYY');
    fireEvent.change(value, { target: { value: '15/03/2026 10:20:30' } });
    fireEvent.blur(value);
    expect((value as HTMLInputElement).value).toBe('15/03/2026');
    fireEvent.click(screen.getByRole('button', { name: t('catalog.apply') }));
    expect(onApply).toHaveBeenLastCalledWith({
      field: 'startTime',
      criterion: 'greaterThan',
      value: new Date(2026, 2, 15, 10, 20, 30).toISOString(),
    });
  });

  it('sets the time of a date with a 24-hour time control beside it, in the page language', async () => {
    await changeLanguage('fr');
    const onApply = renderBar();
    choose(t('catalog.filterField'), 'Start');
    choose(t('catalog.criterion'), t('catalog.criteria.greaterThan'));
    // No date, no time to set.
    const hours = screen.getByRole('spinbutton', { name: 'Heures' });
    expect(hours.hasAttribute('disabled')).toBe(true);
    const date = screen.getByPlaceholderText('DD/MM/YYYY');
    fireEvent.change(date, { target: { value: '15/03/2026' } });
    fireEvent.blur(date);
    expect(hours.hasAttribute('disabled')).toBe(false);
    // Each part of the time says which date it is the time of.
    const label = document.getElementById(hours.getAttribute('aria-describedby')!)!;
    expect(label.textContent).toBe(t('catalog.value'));
    fireEvent.change(hours, { target: { value: '18' } });
    fireEvent.change(screen.getByRole('spinbutton', { name: 'Minutes' }), {
      target: { value: '45' },
    });
    fireEvent.change(screen.getByRole('spinbutton', { name: 'Secondes' }), {
      target: { value: '05' },
    });
    fireEvent.click(screen.getByRole('button', { name: t('catalog.apply') }));
    expect(onApply).toHaveBeenLastCalledWith({
      field: 'startTime',
      criterion: 'greaterThan',
      value: new Date(2026, 2, 15, 18, 45, 5).toISOString(),
    });
    await changeLanguage('en');
  });

  it('resets the field, the criterion and the value on Clear', async () => {
    await changeLanguage('en');
    const onApply = renderBar();
    const field = () => screen.getByRole('combobox', { name: t('catalog.filterField') });
    const criterion = () => screen.getByRole('combobox', { name: t('catalog.criterion') });
    const firstCriterion = criterion().getAttribute('value');
    choose(t('catalog.filterField'), 'Start');
    choose(t('catalog.criterion'), t('catalog.criteria.lessThan'));
    expect((field() as HTMLInputElement).value).toBe('Start');
    fireEvent.click(screen.getByRole('button', { name: t('catalog.clear') }));
    expect(onApply).toHaveBeenLastCalledWith(undefined);
    await waitFor(() => expect((field() as HTMLInputElement).value).toBe('Code'));
    expect((criterion() as HTMLInputElement).value).toBe(firstCriterion);
    expect(screen.getByRole('textbox', { name: t('catalog.value') })).toHaveProperty('value', '');
  });
});
