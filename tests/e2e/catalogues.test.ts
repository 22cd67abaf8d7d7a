import fs from 'node:fs/promises';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium, openWatchedPage } from '../support/browser';
import { copyDefinitions } from '../support/definitions-dir';
import { apiToken, signIn } from '../support/e2e-accounts';
import { switchLanguage } from '../support/journey';
import { startPortal, type PortalProcess } from '../support/portal-process';

const MANAGER = { login: 'catalogue', password: 'Ledger-Stone-2976!' };
const READER = { login: 'verifier', password: 'Harbour-Light-9264!' };

/**
 * A catalogue no code knows of: a file dropped into the catalogs folder is all it takes for its
 * menu entry, route, form, validation and search to exist.
 */
const ISLAND = {
  $comment: 'Written by the test: a catalogue added without a code change.',
  id: 'island',
  category: 'configuration',
  searcherRoles: 'catalog-read',
  managerRoles: 'catalog-manage',
  key: ['code'],
  schema: {
    type: 'object',
    required: ['code', 'name'],
    properties: {
      code: { type: 'string', minLength: 2, maxLength: 4, pattern: '^[A-Z]+$' },
      name: { type: 'string', minLength: 1, maxLength: 40 },
      population: { type: 'integer', minimum: 0 },
    },
  },
  labels: {
    en: {
      title: 'Islands',
      fields: { code: 'Island code', name: 'Island name', population: 'Population' },
    },
    fr: {
      title: 'Îles',
      fields: { code: "Code de l'île", name: "Nom de l'île", population: 'Population' },
    },
  },
};

/**
 * Catalogue screens in Chromium, for two catalogues (a single-sign-on one and a passenger one): the manager creates an entry, edits it to
 * close its period, adds its successor, filters with three criteria and exports the list as
 * CSV; a reader is offered no New button and the API refuses its create. The portal runs on a
 * copy of the definitions with one catalogue more, added as a file.
 */
describe('catalogue screens in Chromium', () => {
  let portal: PortalProcess;
  let browser: Browser;
  let definitions: Awaited<ReturnType<typeof copyDefinitions>>;

  beforeAll(async () => {
    definitions = await copyDefinitions();
    await definitions.write('catalogs/island.json', ISLAND);
    [portal, browser] = await Promise.all([
      startPortal({ DEFINITIONS_DIR: definitions.dir }),
      launchChromium(),
    ]);
  });
  afterAll(async () => {
    await browser?.close();
    await portal?.stop();
    await definitions?.remove();
  });

  async function newEntry(page: Page, code: string, name: string, from: string) {
    await page.getByRole('button', { name: 'New', exact: true }).click();
    const dialog = page.getByRole('dialog', { name: 'New Entry' });
    await dialog.getByLabel('Code').fill(code);
    await dialog.getByLabel('Name (English)').fill(name);
    await dialog.getByLabel('Valid from').fill(from);
    await dialog.getByRole('button', { name: 'Save' }).click();
    await page.getByRole('status').getByText('Entry saved').waitFor();
  }

  async function filter(page: Page, field: string, criterion: string, value: string) {
    await page.getByLabel('Field', { exact: true }).first().click();
    await page.getByRole('option', { name: field, exact: true }).click();
    await page.getByLabel('Criterion', { exact: true }).first().click();
    await page.getByRole('option', { name: criterion, exact: true }).click();
    await page.getByLabel('Value', { exact: true }).fill(value);
    await page.getByRole('button', { name: 'Apply' }).click();
  }

  const rows = (page: Page) => page.locator('table tbody tr');

  it.each([
    ['country', 'QZ', 'Quokka Islands'],
    ['period', 'QFN', 'Quokka fortnight'],
  ])(
    'manages %s entries: create, close a period, filter three ways, export CSV',
    async (catalogId, code, name) => {
      const { page, context, cspViolations, pageErrors } = await openWatchedPage(browser);
      await signIn(page, portal, MANAGER.login, MANAGER.password, `/catalog/search/${catalogId}`);
      // Closing a dialog with changes asks first, in the catalogue's wording.
      await page.getByRole('button', { name: 'New', exact: true }).click();
      const draft = page.getByRole('dialog', { name: 'New Entry' });
      await draft.getByLabel('Code').fill(code);
      await draft.getByRole('button', { name: 'Cancel' }).click();
      const question = draft.getByRole('alertdialog');
      await question
        .getByText('Are you sure you want to proceed without saving. Please confirm?')
        .waitFor();
      await question.getByRole('button', { name: 'No' }).click();
      expect(await draft.getByLabel('Code').inputValue()).toBe(code);
      await draft.getByRole('button', { name: 'Cancel' }).click();
      await draft.getByRole('alertdialog').getByRole('button', { name: 'Yes' }).click();
      await draft.waitFor({ state: 'hidden' });

      await newEntry(page, code, name, '01/01/2021 00:00:00');

      // Open the entry, edit it to end on 1 January 2025, and add its successor from then on.
      await filter(page, 'Code', 'Equals', code);
      await page.getByRole('cell', { name, exact: true }).click();
      const view = page.getByRole('dialog', { name: 'View Entry' });
      await view.getByText('Entry keys and validity period').waitFor();
      await view.getByText(/Created .* by catalogue/).waitFor();
      await view.getByRole('button', { name: 'Edit' }).click();
      const edit = page.getByRole('dialog', { name: 'Edit Entry' });
      await edit.getByLabel('Valid until').fill('01/01/2025 00:00:00');
      await edit.getByRole('button', { name: 'Save' }).click();
      await page.getByRole('status').getByText('Entry saved').waitFor();
      await newEntry(page, code, `${name} (new)`, '01/01/2025 00:00:00');

      // Three criteria: equals, starts with, greater than or equal.
      await filter(page, 'Code', 'Equals', code);
      await expect.poll(() => rows(page).count()).toBe(2);
      await filter(page, 'Name', 'Starts with', `${name} (`);
      await expect.poll(() => rows(page).count()).toBe(1);
      await page.getByRole('cell', { name: `${name} (new)`, exact: true }).waitFor();
      await filter(page, 'Valid from', 'Greater than or equal to', '01/06/2024 00:00:00');
      await page.getByRole('cell', { name: `${name} (new)`, exact: true }).waitFor();
      expect(await page.getByRole('cell', { name, exact: true }).count()).toBe(0);
      // Clear starts over: the first field, its first criterion, an empty value.
      await page.getByRole('button', { name: 'Clear' }).click();
      await expect
        .poll(() => page.getByLabel('Field', { exact: true }).first().inputValue())
        .toBe('Code');
      expect(await page.getByLabel('Criterion', { exact: true }).first().inputValue()).toBe(
        'Equals',
      );
      expect(await page.getByLabel('Value', { exact: true }).inputValue()).toBe('');

      // Export what the filter finds, and read the file.
      await filter(page, 'Code', 'Equals', code);
      await expect.poll(() => rows(page).count()).toBe(2);
      const download = page.waitForEvent('download');
      await page.getByRole('button', { name: 'Export CSV' }).click();
      const file = await (await download).path();
      const csv = (await fs.readFile(file, 'utf8')).replace(/^\ufeff/, '');
      const lines = csv.trim().split(/\r?\n/);
      // A column per language of the name, each as written (no French given here).
      expect(lines[0]).toMatch(/^Code,Name \(English\),Name \(French\),/);
      expect(lines).toHaveLength(3);
      expect(csv).toContain(`${code},${name},,`);
      expect(csv).toContain('01/01/2025 ');

      // The file imports back as it is, on a French page: both rows found unchanged.
      await switchLanguage(page, 'fr');
      await page.getByRole('button', { name: 'Importer un CSV' }).click();
      const importing = page.getByRole('dialog', { name: 'Importer un CSV' });
      const chooser = page.waitForEvent('filechooser');
      await importing.getByRole('button', { name: 'Choisir un fichier' }).click();
      await (await chooser).setFiles(file);
      await importing.getByText('2 lignes ne changent rien').waitFor();
      await importing.getByText('0 entrée sera mise à jour').waitFor();
      await importing.getByText("il n'y a rien à importer", { exact: false }).waitFor();
      await importing.getByRole('button', { name: 'Annuler' }).click();
      // English again, kept in the manager's profile (switchLanguage waits for it) before the
      // page closes: the next test signs in as the manager and must not find French kept.
      await switchLanguage(page, 'en');
      expect(cspViolations).toEqual([]);
      expect(pageErrors).toEqual([]);
      await context.close();
    },
  );

  it('opens the selected entry with the keyboard, hides the filter bar with Finder, keeps ISO codes out of sight', async () => {
    const { page, context, cspViolations, pageErrors } = await openWatchedPage(browser);
    await signIn(page, portal, MANAGER.login, MANAGER.password, '/catalog/search/country');
    await filter(page, 'Code', 'Equals', 'WS');
    await expect.poll(() => rows(page).count()).toBe(1);

    // Finder shows and hides the filter bar, and says which it is doing.
    const finder = page.getByRole('button', { name: 'Finder' });
    expect(await finder.getAttribute('aria-expanded')).toBe('true');
    await finder.click();
    expect(await finder.getAttribute('aria-expanded')).toBe('false');
    await page.getByRole('button', { name: 'Apply' }).waitFor({ state: 'hidden' });
    await finder.press('Enter');
    await page.getByRole('button', { name: 'Apply' }).waitFor();
    expect(await finder.getAttribute('aria-expanded')).toBe('true');

    // Open needs a row: the row's radio is chosen with the keyboard, then Open opens it to edit.
    const open = page.getByRole('button', { name: 'Open', exact: true });
    expect(await open.isDisabled()).toBe(true);
    const radio = page.getByRole('radio', { name: 'Select WS' });
    await radio.focus();
    await page.keyboard.press('Space');
    expect(await radio.isChecked()).toBe(true);
    await open.focus();
    await page.keyboard.press('Enter');
    const edit = page.getByRole('dialog', { name: 'Edit Entry' });
    expect(await edit.getByLabel('Code').inputValue()).toBe('WS');
    expect(await edit.getByText(/Alpha-3|Numeric/).count()).toBe(0);
    await edit.getByRole('button', { name: 'Cancel' }).click();
    await edit.waitFor({ state: 'hidden' });

    // The View Entry dialog: the status in words, no ISO codes; the API has them.
    await page.getByRole('cell', { name: 'Samoa', exact: true }).click();
    const view = page.getByRole('dialog', { name: 'View Entry' });
    await view.getByText('Status: valid').waitFor();
    // The seed is no person: its entry says it is reference data, in words.
    await view.getByText(/^Reference data, loaded \d{2}\/\d{2}\/\d{4}/).waitFor();
    expect(await view.getByText(/WSM|882|Alpha-3|Numeric/).count()).toBe(0);
    const token = await apiToken(portal, MANAGER.login, MANAGER.password);
    const found = await fetch(`${portal.url}/api/catalog/v1/country`, {
      method: 'PATCH',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ filter: [{ field: 'code', criterion: 'equals', value: 'WS' }] }),
    });
    const [samoa] = ((await found.json()) as { items: Array<{ data: unknown }> }).items;
    expect(samoa?.data).toMatchObject({ alpha3Code: 'WSM', numericCode: 882 });
    expect(cspViolations).toEqual([]);
    expect(pageErrors).toEqual([]);
    await context.close();
  });

  it('serves a catalogue added as a file: menu entry, route, form, validation, search', async () => {
    const { page, context, pageErrors } = await openWatchedPage(browser);
    await signIn(page, portal, MANAGER.login, MANAGER.password, '/dashboard/home');
    await page.getByRole('button', { name: 'Application menu' }).click();
    const menu = page.getByRole('navigation', { name: 'Application menu' });
    await menu.getByRole('button', { name: 'Configuration' }).click();
    await menu.getByRole('link', { name: 'Islands' }).click();
    await page.waitForURL(`${portal.url}/#/catalog/search/island`);

    await page.getByRole('button', { name: 'New', exact: true }).click();
    const dialog = page.getByRole('dialog', { name: 'New Entry' });
    await dialog.getByLabel('Island code').fill('RAROTONGA');
    await dialog.getByLabel('Island name').fill('Rarotonga');
    await dialog.getByLabel('Population').fill('13000');
    await dialog.getByLabel('Valid from').fill('01/01/2021 00:00:00');
    await dialog.getByRole('button', { name: 'Save' }).click();
    await dialog.getByText('Must be at most 4 characters').waitFor();
    await dialog.getByLabel('Island code').fill('RARO');
    await dialog.getByRole('button', { name: 'Save' }).click();
    await page.getByRole('status').getByText('Entry saved').waitFor();

    await filter(page, 'Island name', 'Starts with', 'Raro');
    await expect.poll(() => rows(page).count()).toBe(1);
    await page.getByRole('cell', { name: 'Rarotonga', exact: true }).waitFor();
    await page.getByRole('cell', { name: 'RARO', exact: true }).waitFor();
    expect(pageErrors).toEqual([]);
    await context.close();
  });

  it('words flags and enumerated values in the finder, the View Entry dialog and the form', async () => {
    const { page, context, pageErrors } = await openWatchedPage(browser);
    await signIn(page, portal, MANAGER.login, MANAGER.password, '/catalog/search/identity-types');
    const passport = page.getByRole('row').filter({ hasText: 'PASSPORT' });
    await passport.getByRole('cell', { name: 'Yes', exact: true }).waitFor();
    await passport.getByRole('cell', { name: 'Passport', exact: true }).click();
    const view = page.getByRole('dialog', { name: 'View Entry' });
    await view.getByRole('row', { name: 'Date of issue Mandatory' }).waitFor();
    await view.getByRole('button', { name: 'Cancel' }).click();

    await page.goto(`${portal.url}/#/catalog/search/declaration`);
    await page.getByRole('heading', { name: 'Declarations' }).waitFor();
    await page.getByRole('button', { name: 'New', exact: true }).click();
    const dialog = page.getByRole('dialog', { name: 'New Entry' });
    await dialog.getByLabel('Applies to').first().click();
    await page.getByRole('option', { name: 'Sub-document', exact: true }).waitFor();
    await page.getByRole('option', { name: 'Document', exact: true }).click();
    expect(await dialog.getByLabel('Applies to').first().inputValue()).toBe('Document');
    expect(pageErrors).toEqual([]);
    await context.close();
  });

  it('shows the name of the entry a reference field names, valid at the entry start', async () => {
    const { page, context } = await openWatchedPage(browser);
    await signIn(page, portal, MANAGER.login, MANAGER.password, '/catalog/search/administration');
    await newEntry(page, 'RADM', 'Reef Administration', '01/01/2021 00:00:00');
    await page.goto(`${portal.url}/#/catalog/search/user-types`);
    await page.getByRole('button', { name: 'New', exact: true }).click();
    const dialog = page.getByRole('dialog', { name: 'New Entry' });
    await dialog.getByLabel('Valid from').fill('01/01/2022 00:00:00');
    await dialog.getByLabel('Administration').fill('RADM');
    await dialog.getByText('Reef Administration').waitFor();
    // Before the administration existed, the code names nothing.
    await dialog.getByLabel('Valid from').fill('01/01/2020 00:00:00');
    await dialog.getByText('No entry with this code is valid at the start of this entry').waitFor();
    await context.close();
  });

  it('offers a reader no New button, and the API refuses its create', async () => {
    const { page, context } = await openWatchedPage(browser);
    await signIn(page, portal, READER.login, READER.password, '/catalog/search/administration');
    await page.getByRole('button', { name: 'Reload' }).waitFor();
    expect(await page.getByRole('button', { name: 'New', exact: true }).count()).toBe(0);
    await context.close();
    const token = await apiToken(portal, READER.login, READER.password);
    const refused = await fetch(`${portal.url}/api/catalog/v1/administration`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ code: 'NOPE', name: 'Nope', startTime: '2021-01-01T00:00:00Z' }),
    });
    expect(refused.status).toBe(403);
  });
});
