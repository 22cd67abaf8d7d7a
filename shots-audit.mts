import { chromium } from 'playwright-core';
const URL = 'http://127.0.0.1:8147';
const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--no-sandbox'] });
async function signIn(page, login, password, path) {
  await page.goto(`${URL}/#${path}`);
  await page.locator('#username').waitFor({ timeout: 60000 });
  await page.locator('#username').fill(login);
  await page.locator('#password').fill(password);
  await page.locator('button[type=submit]').click();
  await page.waitForURL(`${URL}/#${path}`, { timeout: 60000 });
}
// An officer lists applications and opens the first: reads to show.
{
  const context = await browser.newContext();
  const page = await context.newPage();
  await signIn(page, 'verifier', 'Harbour-Light-9264!', '/visa/application');
  await page.waitForTimeout(3000);
  const apply = page.getByRole('button', { name: 'Apply' });
  if (await apply.count()) await apply.first().click();
  await page.waitForTimeout(3000);
  await page.screenshot({ path: '/tmp/shots-4/verifier-list.png' });
  const open = page.getByRole('link', { name: /open/i }).first();
  if (await open.count()) { await open.click(); await page.waitForTimeout(3000); }
  await page.screenshot({ path: '/tmp/shots-4/verifier-doc.png' });
  await context.close();
}
for (const scheme of ['light', 'dark']) {
  for (const lang of ['en', 'fr']) {
    for (const width of [1366, 390]) {
      const context = await browser.newContext({ colorScheme: scheme, locale: lang, viewport: { width, height: 900 } });
      const page = await context.newPage();
      await signIn(page, 'auditor', 'Record-Keeper-7319!', '/audit');
      if (lang === 'fr') {
        await page.evaluate(() => localStorage.setItem('i18nextLng', 'fr'));
      }
      await page.getByRole('table').waitFor({ timeout: 60000 });
      await page.waitForTimeout(500);
      await page.screenshot({ path: `/tmp/shots-4/audit-${scheme}-${lang}-${width}.png`, fullPage: width === 390 ? false : false });
      await context.close();
    }
  }
}
await browser.close();
