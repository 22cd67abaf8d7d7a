import '@mantine/core/styles.css';
import { useLayoutEffect, type ReactNode } from 'react';
import { createRoot } from 'react-dom/client';
import { MantineProvider } from '@mantine/core';
import type { TextTree } from '../src/core/i18n/translate';
import type { EntityFormDefinition } from '../src/core/rules/sections';
import en from '../translations/en.json';
import visaApplicationEn from '../translations/en/visa-application.json';
import definitionJson from '../schemas/visa-application.schema.json';
import { markMounted, markRenderStart } from './instrument';

/** The reference form, read from its definition file at build time (same file for both pages). */
export const definition = definitionJson as unknown as EntityFormDefinition;

/** The texts as the server hands them over: the global tree, the entity's texts under its id. */
export const texts: { en: TextTree } = {
  en: { ...(en as TextTree), [definition.id]: visaApplicationEn as TextTree },
};

/** The section and text fields the keystrokes go to (applicant names and the like). */
export const BENCH_SECTION = 'applicant';

/**
 * Marks the form mounted once `ready` (the first field typed into) is in the DOM: at the first
 * commit for a form that renders everything at once, at a later one for ours when its section
 * waits for its validators. Checked in a layout effect, then on every change of the page (a
 * MutationObserver's callback runs within the commit that added the field).
 */
function Mounted({ ready, children }: { ready: string; children: ReactNode }) {
  useLayoutEffect(() => {
    if (document.querySelector(ready)) return markMounted();
    const observer = new MutationObserver(() => {
      if (!document.querySelector(ready)) return;
      observer.disconnect();
      markMounted();
    });
    observer.observe(document.body, { childList: true, subtree: true });
    return () => observer.disconnect();
  }, [ready]);
  return <>{children}</>;
}

/**
 * Renders the page's form the same way for every page, marking the start of the render; the
 * first render ends with the first paint showing the field `ready` names.
 */
export function renderBench(form: ReactNode, ready: string): void {
  const container = document.getElementById('root');
  if (!container) throw new Error('The page has no #root element');
  const root = createRoot(container);
  markRenderStart();
  root.render(
    <MantineProvider>
      <Mounted ready={ready}>{form}</Mounted>
    </MantineProvider>,
  );
}
