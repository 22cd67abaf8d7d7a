import { MantineProvider } from '@mantine/core';
import { renderToStaticMarkup } from 'react-dom/server';
import { MemoryRouter } from 'react-router-dom';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { HEADER_ACTIONS_LIMIT, Toolbar } from '../../src/portal/Toolbar';
import { initPortalTexts } from './portal-texts';

beforeAll(() => initPortalTexts());

const matchMedia = window.matchMedia;
afterEach(() => {
  window.matchMedia = matchMedia;
});

/** The screen as wide as `width` CSS pixels, for the header's one media query. */
function screenOf(width: number) {
  window.matchMedia = (query: string) => {
    const maxEm = /max-width:\s*([\d.]+)em/.exec(query);
    return {
      ...matchMedia(query),
      matches: maxEm ? width <= Number(maxEm[1]) * 16 : false,
    };
  };
}

/** The toolbar's first render alone (a server render runs no effects): what the first paint holds. */
function firstRender(): string {
  return renderToStaticMarkup(
    <MantineProvider>
      <MemoryRouter>
        <Toolbar onLanguage={() => undefined} />
      </MemoryRouter>
    </MantineProvider>,
  );
}

describe("the header's toolbar", () => {
  it('keeps one action and the overflow menu on a phone from its first render', () => {
    // A phone rendered the desktop toolbar first (six buttons with tooltips) and the phone's
    // only once an effect had read the screen's width: twice the work as the page started.
    screenOf(390);
    const html = firstRender();
    expect(html.match(/data-action="/g)).toHaveLength(HEADER_ACTIONS_LIMIT);
    expect(html).toContain('aria-label="More actions"');
  });

  it('shows every action on a desktop', () => {
    screenOf(1366);
    const html = firstRender();
    expect(html.match(/data-action="/g)).toHaveLength(6);
    expect(html).not.toContain('aria-label="More actions"');
  });
});
