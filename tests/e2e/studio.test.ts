import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium, openWatchedPage } from '../support/browser';
import { signIn } from '../support/e2e-accounts';
import { accessible, fromMenu, switchLanguage, tab } from '../support/journey';
import { startPortal, type PortalProcess } from '../support/portal-process';

const MANAGER = { login: 'catalogue', password: 'Ledger-Stone-2976!' };
const ANALYST = { login: 'analyst', password: 'Chart-Weaver-5318!' };
const SPONSOR = { login: 'sponsor', password: 'Coral-Reef-3187' };

/** Fills a text field of a scope by its label, exactly. */
const fill = (scope: Page | ReturnType<Page['locator']>, label: string, value: string) =>
  scope.getByRole('textbox', { name: label, exact: true }).fill(value);

/** Picks an option of a Mantine select by the select's label and the option's name. */
async function choose(
  page: Page,
  scope: Page | ReturnType<Page['locator']>,
  label: string,
  option: string,
) {
  await scope.getByRole('combobox', { name: label, exact: true }).click();
  await page.getByRole('option', { name: option, exact: true }).click();
}

/** Publishes the draft with a note and waits until the portal serves the new version. */
async function publish(page: Page, note: string): Promise<void> {
  await page.getByRole('button', { name: 'Publish', exact: true }).click();
  const dialog = page.getByRole('dialog', { name: 'Publish the draft' });
  await dialog.getByRole('textbox', { name: 'Note' }).fill(note);
  await dialog.getByRole('button', { name: 'Publish', exact: true }).click();
  await page
    .getByRole('status')
    .getByText(/^Version \d+ is published/)
    .waitFor();
}

/**
 * The studio in Chromium, on a portal that is never restarted: the catalogue manager designs a
 * "Port of entry" catalogue with forms (English and French labels, a reference to Country),
 * publishes it and enters a port through its menu entry; an analyst adds a field to the sponsor
 * application's form, previews it in both languages and publishes it, and a sponsor then fills
 * it in; the visa workflow's diagram draws every state; axe finds nothing on any tab.
 */
describe('the studio in Chromium', () => {
  let portal: PortalProcess;
  let browser: Browser;

  beforeAll(async () => {
    [portal, browser] = await Promise.all([startPortal(), launchChromium()]);
  });
  afterAll(async () => {
    await browser?.close();
    await portal?.stop();
  });

  it('a catalogue designed with forms is published, in the menu and takes entries', async () => {
    const { page, cspViolations, pageErrors } = await openWatchedPage(browser);
    await signIn(page, portal, MANAGER.login, MANAGER.password, '/studio/catalogs');
    const form = page.getByRole('form', { name: 'Catalogue definition' });
    await fill(form, 'Identifier', 'port-of-entry');
    await choose(page, form, 'Menu category', 'Configuration');
    await fill(form, 'Title in English', 'Ports of entry');
    await fill(form, 'Title in French', "Points d'entrée");
    for (const [label, role] of [
      ['Roles that may search', 'catalog-read'],
      ['Roles that may manage entries', 'catalog-manage'],
    ]) {
      const roles = form.getByRole('combobox', { name: label });
      await roles.fill(role as string);
      await roles.press('Enter');
    }
    const code = form.getByRole('group', { name: 'code' });
    await fill(code, 'Label in English', 'Port code');
    await fill(code, 'Label in French', 'Code du point');
    const name = form.getByRole('group', { name: 'name' });
    await fill(name, 'Label in English', 'Port name');
    await fill(name, 'Label in French', 'Nom du point');
    // A port's name is given in English and French; its code is a code, in neither.
    await name.getByRole('switch', { name: 'Given in English and French' }).check();
    expect(
      await code.getByRole('switch', { name: 'Given in English and French' }).isDisabled(),
    ).toBe(true);
    await form.getByRole('button', { name: 'Add a field' }).click();
    // A new field is named by its number until it has a name.
    await fill(form.getByRole('group', { name: 'Field 3' }), 'Field name', 'country');
    const country = form.getByRole('group', { name: 'country' });
    await fill(country, 'Label in English', 'Country');
    await fill(country, 'Label in French', 'Pays');
    await country.getByRole('textbox', { name: 'Maximum length' }).fill('2');
    await choose(page, country, 'Refers to the catalogue', 'Countries');
    await form.getByRole('button', { name: 'Save to draft and preview' }).click();

    // The preview: the search page's columns, and the entry dialog checking a sample.
    const preview = page.getByRole('region', { name: 'Preview' });
    await preview.getByText('The draft can be published').waitFor();
    await preview.getByRole('columnheader', { name: 'Port code' }).waitFor();
    await preview.getByText('Français', { exact: true }).click();
    await preview.getByRole('columnheader', { name: 'Code du point' }).waitFor();
    await preview.getByRole('button', { name: 'Try the entry dialog' }).click();
    const dialog = page.getByRole('dialog', { name: 'New Entry' });
    await dialog.getByRole('button', { name: 'Save' }).click();
    // Required and unset: refused by the draft's own validator, nothing sent.
    await expect
      .poll(() => dialog.locator('[aria-invalid="true"]').count(), { timeout: 30_000 })
      .toBeGreaterThan(0);
    // The open dialog too: its close button says what it does.
    await accessible(page, 'studio catalogue entry dialog');
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await dialog.waitFor({ state: 'hidden' });
    await accessible(page, 'studio catalogues');

    await publish(page, 'Ports of entry for arrival cards');
    // The portal serves the new version at once: reloaded, its menu holds the catalogue.
    await page.goto(`${portal.url}/#/home`);
    await page.reload();
    // Signed in again from the session kept: the menu is the manager's once the name shows.
    await page.getByRole('banner').getByText('Vai Librarian').waitFor();
    await fromMenu(page, 'Ports of entry');
    await page.waitForURL(/#\/catalog\/search\/port-of-entry$/, { waitUntil: 'commit' });
    await page.getByRole('button', { name: 'New', exact: true }).click();
    const entry = page.getByRole('dialog', { name: 'New Entry' });
    await entry.getByLabel('Port code').fill('APW');
    await entry.getByLabel('Port name (English)').fill('Faleolo International Airport');
    await entry.getByLabel('Port name (French)').fill('Aéroport international de Faleolo');
    await entry.getByLabel('Country').fill('WS');
    await entry.getByLabel('Valid from').fill('01/01/2024 00:00:00');
    await entry.getByRole('button', { name: 'Save' }).click();
    await page.getByRole('status').getByText('Entry saved').waitFor();
    await page.getByRole('cell', { name: 'Faleolo International Airport' }).waitFor();
    expect(cspViolations).toEqual([]);
    expect(pageErrors).toEqual([]);
    await page.context().close();
  });

  it('a field added to the sponsor form is previewed in both languages and served at once', async () => {
    const { page, pageErrors } = await openWatchedPage(browser);
    await signIn(page, portal, ANALYST.login, ANALYST.password, '/studio/forms');
    await choose(page, page, 'Document type', 'Sponsor application (sponsor-application)');
    const add = page.getByRole('region', { name: 'Add a field' });
    await choose(page, add, 'Section', 'Contact details (contact)');
    await fill(add, 'Field name', 'preferredContactTime');
    await fill(add, 'Label in English', 'Preferred time to call');
    await fill(add, 'Label in French', "Heure d'appel préférée");
    await add.getByRole('button', { name: 'Add the field and preview' }).click();

    const preview = page.getByRole('region', { name: 'Preview' });
    await preview.getByText('The draft can be published').waitFor();
    await preview.getByRole('textbox', { name: 'Preferred time to call' }).waitFor();
    // The field list stays on the section the field went to (it went back to the first one).
    const fields = page.getByRole('region', { name: 'Fields of a section' });
    expect(await fields.getByRole('combobox', { name: 'Section' }).inputValue()).toBe('contact');
    await fields.getByText('Preferred time to call').waitFor();
    await preview.getByText('Français', { exact: true }).click();
    await preview.getByRole('textbox', { name: "Heure d'appel préférée" }).waitFor();
    await preview.getByText('English', { exact: true }).click();
    await preview.getByRole('textbox', { name: 'Preferred time to call' }).fill('x'.repeat(120));
    await preview.getByRole('button', { name: 'Check the sample' }).click();
    await preview
      .getByRole('status')
      .getByText(/errors? in the sample/)
      .waitFor();
    await accessible(page, 'studio forms');

    await publish(page, 'Sponsors say when they can be called');
    await page.context().close();

    // A sponsor, in a new session of the same running portal, fills the field in.
    const sponsor = await openWatchedPage(browser);
    await signIn(sponsor.page, portal, SPONSOR.login, SPONSOR.password, '/sponsor/application/new');
    await tab(sponsor.page, 'Contact details');
    await sponsor.page.getByRole('textbox', { name: 'Preferred time to call' }).fill('Mornings');
    await switchLanguage(sponsor.page, 'fr');
    await sponsor.page.getByRole('textbox', { name: "Heure d'appel préférée" }).waitFor();
    expect(pageErrors).toEqual([]);
    expect(sponsor.pageErrors).toEqual([]);
    await sponsor.page.context().close();
  });

  it("draws every state of the visa workflow, and axe finds nothing on the studio's tabs", async () => {
    const { page, pageErrors } = await openWatchedPage(browser);
    await signIn(page, portal, ANALYST.login, ANALYST.password, '/studio/workflows');
    await choose(page, page, 'Workflow', 'visa-application');
    const diagram = page.getByRole('group', { name: /States and transitions/ });
    await diagram.waitFor();
    const states = await diagram
      .locator('[data-state]')
      .evaluateAll((nodes) => nodes.map((node) => node.getAttribute('data-state')));
    expect(states.sort()).toEqual(
      [
        'NEW',
        'STORED',
        'SUBMITTED',
        'SUBMITTED FOR PAYMENT',
        'PURCHASE INITIATED',
        'PAID FOR VERIFICATION',
        'SUBMITTED FOR VERIFICATION',
        'REPLIED FOR VERIFICATION',
        'NO REPLY',
        'QUERIED',
        'VERIFIED',
        'FORWARDED',
        'ESCALATED',
        'GRANTED',
        'ISSUED',
        'DISPATCHED',
        'REJECTED',
        'CANCELLED',
        'WITHDRAWN',
        'DELETED',
      ].sort(),
    );
    // It opens whole, fitted to the width of its box; at its actual size it scrolls in it.
    const box = page.getByRole('region', { name: /States and transitions/ });
    const sizes = () =>
      box.evaluate((element) => ({
        box: element.clientWidth,
        drawing: element.scrollWidth,
        svg: element.querySelector('svg')!.getBoundingClientRect().width,
      }));
    const fitted = await sizes();
    expect(fitted.drawing).toBeLessThanOrEqual(fitted.box);
    const zoom = page.getByRole('group', { name: 'Zoom of the drawing' });
    await zoom.getByRole('button', { name: 'Actual size' }).click();
    await expect.poll(async () => (await sizes()).svg).toBeGreaterThan(2 * fitted.svg);
    expect((await sizes()).drawing).toBeGreaterThan(fitted.box);
    await zoom.getByText('100%').waitFor();
    // From the keyboard, in the focused box: fitted again.
    await box.focus();
    await page.keyboard.press('f');
    await expect.poll(async () => (await sizes()).svg).toBeCloseTo(fitted.svg, 0);
    await accessible(page, 'studio workflows');
    for (const name of ['Texts', 'Versions']) {
      await page.getByRole('tab', { name }).click();
      await page.waitForURL(new RegExp(`#/studio/${name.toLowerCase()}$`));
      await page.getByRole('tabpanel').getByRole('table').first().waitFor();
      await accessible(page, `studio ${name.toLowerCase()}`);
    }
    // The history lists the two publishes of this run, each with its note.
    await page.getByRole('cell', { name: 'Sponsors say when they can be called' }).waitFor();
    await page.getByRole('cell', { name: 'Ports of entry for arrival cards' }).waitFor();
    // The one process switched twice and never took its earlier set for another process's.
    expect(portal.logs()).not.toMatch(/different definition sets/);
    expect(pageErrors).toEqual([]);
    await page.context().close();
  });
});
