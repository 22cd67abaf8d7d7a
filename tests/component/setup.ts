// jsdom lacks browser APIs Mantine relies on.
import { cleanup, configure } from '@testing-library/react';
import { afterEach } from 'vitest';

afterEach(() => cleanup());

// A findBy or waitFor waits for what the user would see, however long a loaded machine takes to
// draw it (a popover's calendar took over the default second beside other suites); a passing
// wait ends as soon as it holds, so the ceiling costs nothing.
configure({ asyncUtilTimeout: 10_000 });

Object.defineProperty(window, 'matchMedia', {
  writable: true,
  value: (query: string) => ({
    matches: false,
    media: query,
    onchange: null,
    addListener: () => undefined,
    removeListener: () => undefined,
    addEventListener: () => undefined,
    removeEventListener: () => undefined,
    dispatchEvent: () => false,
  }),
});

class ResizeObserverStub {
  observe() {}
  unobserve() {}
  disconnect() {}
}
window.ResizeObserver ??= ResizeObserverStub as unknown as typeof ResizeObserver;
Element.prototype.scrollIntoView ??= function scrollIntoView() {};
window.HTMLElement.prototype.scrollTo ??= function scrollTo() {};
