import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium, openWatchedPage } from '../support/browser';
import { signIn } from '../support/e2e-accounts';
import { accessible, switchLanguage, tab } from '../support/journey';
import { startPortal, type PortalProcess } from '../support/portal-process';

const ANALYST = { login: 'analyst', password: 'Chart-Weaver-5318!' };
const SPONSOR = { login: 'sponsor', password: 'Coral-Reef-3187' };

const PATTERN_EN = 'Enter the 11 digits of the business number';
const PATTERN_FR = 'Saisissez les 11 chiffres du numéro d’entreprise';

/** Fills a text field of a scope by its label, exactly. */
const fill = (scope: Page | Locator, label: string, value: string) =>
  scope.getByRole('textbox', { name: label, exact: true }).fill(value);

/** Picks an option of a Mantine select by the select's label and the option's name. */
async function choose(page: Page, scope: Page | Locator, label: string, option: string) {
  await scope.getByRole('combobox', { name: label, exact: true }).click();
  await page.getByRole('option', { name: option, exact: true }).click();
}

/** Adds a field to the sponsor's contact details with what `more` fills beyond its name and labels. */
async function addContactField(
  page: Page,
  field: { name: string; kind: string; en: string; fr: string },
  more: (form: Locator) => Promise<void> = async () => {},
) {
  const add = page.getByRole('region', { name: 'Add a field' });
  await choose(page, add, 'Section', 'Contact details (contact)');
  await fill(add, 'Field name', field.name);
  await choose(page, add, 'Type', field.kind);
  await fill(add, 'Label in English', field.en);
  await fill(add, 'Label in French', field.fr);
  await more(add);
  await add.getByRole('button', { name: 'Add the field and preview' }).click();
  const preview = page.getByRole('region', { name: 'Preview' });
  await preview.getByText('The draft can be published').waitFor({ timeout: 60_000 });
  await page
    .getByRole('region', { name: 'Fields of a section' })
    .getByText(`${field.en} (${field.name}`)
    .waitFor();
}

/**
 * The form designer, on a portal of its own: the analyst adds to the sponsor application a
 * choice of Country (a catalogue reference), a business number with a format and its own message
 * in both languages, and a business name required once the number is given, all chosen in forms,
 * and publishes; a sponsor then chooses a country, reads the format's message in the page's
 * language and is asked for the business name only once the number is given.
 */
describe('the form designer in Chromium', () => {
  let portal: PortalProcess;
  let browser: Browser;

  beforeAll(async () => {
    [portal, browser] = await Promise.all([startPortal(), launchChromium()]);
  });
  afterAll(async () => {
    await browser?.close();
    await portal?.stop();
  });

  it('a catalogue choice, a format with its own message and a required-when rule reach the sponsor', async () => {
    const { page, pageErrors } = await openWatchedPage(browser);
    await signIn(page, portal, ANALYST.login, ANALYST.password, '/studio/forms');
    await choose(page, page, 'Document type', 'Sponsor application (sponsor-application)');

    await addContactField(
      page,
      {
        name: 'contactCountry',
        kind: 'Choice from a catalogue',
        en: 'Country of contact',
        fr: 'Pays du contact',
      },
      async (add) => choose(page, add, 'Catalogue', 'Countries'),
    );
    await addContactField(
      page,
      {
        name: 'businessNumber',
        kind: 'Short text',
        en: 'Business number',
        fr: 'Numéro d’entreprise',
      },
      async (add) => {
        await fill(add, 'Format (regular expression)', '^[0-9]{11}$');
        await fill(add, 'Message when the format is wrong, in English', PATTERN_EN);
        await fill(add, 'Message when the format is wrong, in French', PATTERN_FR);
      },
    );
    await addContactField(
      page,
      { name: 'businessName', kind: 'Short text', en: 'Business name', fr: 'Nom de l’entreprise' },
      async (add) => {
        await choose(page, add, 'Required when', 'Business number (contact/businessNumber)');
        await choose(page, add, 'Condition', 'has a value');
      },
    );
    // The preview says the format's own message, as the sponsor will read it.
    const preview = page.getByRole('region', { name: 'Preview' });
    const number = preview.getByRole('textbox', { name: 'Business number', exact: true });
    await number.fill('12AB');
    await number.press('Tab');
    await preview.getByText(PATTERN_EN).waitFor();
    await accessible(page, 'studio form designer');

    await page.getByRole('button', { name: 'Publish', exact: true }).click();
    const dialog = page.getByRole('dialog', { name: 'Publish the draft' });
    await dialog.getByRole('textbox', { name: 'Note' }).fill('Business details of the contact');
    await dialog.getByRole('button', { name: 'Publish', exact: true }).click();
    await page
      .getByRole('status')
      .getByText(/^Version \d+ is published/)
      .waitFor();
    await page.context().close();

    const sponsor = await openWatchedPage(browser);
    const form = sponsor.page;
    await signIn(form, portal, SPONSOR.login, SPONSOR.password, '/sponsor/application/new');
    await tab(form, 'Contact details');
    // The catalogue reference is a choice of the catalogue's entries.
    const country = form.getByRole('combobox', { name: 'Country of contact' });
    await country.click();
    await country.fill('Samoa');
    await form.getByRole('option', { name: /^WS - Samoa/ }).click();
    expect(await country.inputValue()).toMatch(/Samoa/);
    // The business name is asked for only once a business number is given.
    const name = form.getByRole('textbox', { name: 'Business name' });
    expect(await name.getAttribute('required')).toBeNull();
    const numberField = form.getByRole('textbox', { name: 'Business number' });
    await numberField.fill('12AB');
    await numberField.press('Tab');
    await form.getByText(PATTERN_EN).waitFor();
    await expect.poll(() => name.getAttribute('required')).not.toBeNull();
    await name.click();
    await name.press('Tab');
    await form.getByText('This field is required').first().waitFor();
    // The format's message in the page's language.
    await switchLanguage(form, 'fr');
    await form.getByText(PATTERN_FR).waitFor();
    await switchLanguage(form, 'en');
    await numberField.fill('12345678901');
    await numberField.press('Tab');
    await form.getByText(PATTERN_EN).waitFor({ state: 'detached' });
    expect(pageErrors).toEqual([]);
    expect(sponsor.pageErrors).toEqual([]);
    await form.context().close();
  });
});
