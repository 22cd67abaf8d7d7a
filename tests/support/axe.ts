import fs from 'node:fs/promises';
import { createRequire } from 'node:module';
import type { Page } from 'playwright-core';

const require = createRequire(import.meta.url);

/** axe-core's source, read once. */
let axeSource: Promise<string> | undefined;
const readAxe = () => fs.readFile(require.resolve('axe-core/axe.min.js'), 'utf8');

/** The WCAG 2.0 and 2.1 A and AA rules. */
export const WCAG_21_AA = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'] as const;
/** The same, and the rules WCAG 2.2 added at AA (target size, focus not obscured...). */
export const WCAG_22_AA = [...WCAG_21_AA, 'wcag22aa'] as const;

/** One rule axe-core found broken, with the elements breaking it. */
export interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  targets: string[];
}

/**
 * Runs axe-core in the page with the WCAG 2.0 and 2.1 A and AA rules and returns what it found.
 * axe is evaluated through the DevTools protocol, which the page's Content-Security-Policy does
 * not apply to, so the portal's strict policy stays as it is for the test.
 */
export async function axeViolations(
  page: Page,
  tags: readonly string[] = WCAG_21_AA,
): Promise<AxeViolation[]> {
  // Read once per run, evaluated once per document: a single-page app keeps its window (and
  // axe in it) from one screen to the next.
  await finishedTransitions(page);
  const loaded = await page.evaluate(() => 'axe' in window);
  if (!loaded) await page.evaluate(await (axeSource ??= readAxe()));
  return page.evaluate(
    async (values) => {
      const axe = (window as unknown as { axe: AxeApi }).axe;
      const result = await axe.run(document, {
        runOnly: { type: 'tag', values },
      });
      return result.violations.map((v) => ({
        id: v.id,
        impact: v.impact ?? null,
        help: v.help,
        targets: v.nodes.map((n) => n.target.join(' ')),
      }));
    },
    [...tags],
  );
}

/**
 * Waits until no finite transition or animation runs (an endless one, a loader's, never ends):
 * a popover or dialog fading in or out is drawn at part opacity, and axe would measure its
 * colours half way, failing the contrast rule on a loaded machine only.
 */
async function finishedTransitions(page: Page): Promise<void> {
  await page.evaluate(async () => {
    const running = () =>
      document
        .getAnimations()
        .filter(
          (a) => a.playState === 'running' && a.effect?.getComputedTiming().endTime !== Infinity,
        );
    for (let now = running(); now.length > 0; now = running())
      await Promise.all(now.map((a) => a.finished.catch(() => a)));
  });
}

interface AxeApi {
  run(
    context: Document,
    options: { runOnly: { type: 'tag'; values: string[] } },
  ): Promise<{
    violations: Array<{
      id: string;
      impact?: string | null;
      help: string;
      nodes: Array<{ target: string[] }>;
    }>;
  }>;
}
