// The studio's diagram of a workflow's machine as its reader meets it: every state drawn, the
// drawing named and scrollable from the keyboard, every transition said again in a table.
import fs from 'node:fs/promises';
import path from 'node:path';
import axe from 'axe-core';
import { fireEvent, render, screen, within } from '@testing-library/react';
import { MantineProvider } from '@mantine/core';
import { beforeAll, describe, expect, it } from 'vitest';
import type { WorkflowDefinition } from '../../src/core/documents/workflow';
import { WorkflowDiagram } from '../../src/engine/studio/WorkflowDiagram';

const root = path.resolve(import.meta.dirname, '../..');
const readJson = async <T,>(file: string): Promise<T> =>
  JSON.parse(await fs.readFile(path.join(root, file), 'utf8')) as T;

let visa: WorkflowDefinition;
let statuses: Record<string, string>;
let actions: Record<string, string>;

beforeAll(async () => {
  visa = await readJson<WorkflowDefinition>('workflows/visa-application.json');
  const en = await readJson<{ statuses: Record<string, string>; actions: Record<string, string> }>(
    'translations/en.json',
  );
  statuses = en.statuses;
  actions = en.actions;
});

const stateLabel = (status: string) => statuses[status] ?? status;
// Two actions may share a button's text (store and update are both "Save"): the diagram is for
// analysts, who read the action's name beside it.
const actionLabel = (action: string) => `${actions[action] ?? action} (${action})`;

function renderVisa() {
  return render(
    <MantineProvider>
      <WorkflowDiagram
        workflow={visa}
        title="Visa application workflow"
        stateLabel={stateLabel}
        actionLabel={actionLabel}
        texts={{ caption: 'Every transition of the visa application' }}
      />
    </MantineProvider>,
  );
}

/** Every (from, action, to) of the machine, read straight from the JSON. */
function transitionsInJson(): Array<{ from: string; action: string; to: string }> {
  const states = Object.entries(visa.machine.states);
  const actions = states.flatMap(([from, state]) =>
    Object.entries((state as { on?: Record<string, unknown> }).on ?? {}).flatMap(
      ([action, value]) =>
        [value].flat().map((t) => ({
          from,
          action,
          to: typeof t === 'string' ? t : (t as { target: string }).target,
        })),
    ),
  );
  // A timer's delayed transition (`after`) is listed last, as its action.
  const timers = states.flatMap(([from, state]) =>
    Object.entries((state as { after?: Record<string, { target: string }> }).after ?? {}).map(
      ([timer, t]) => ({ from, action: visa.timers![timer]!.action, to: t.target }),
    ),
  );
  return [...actions, ...timers];
}

describe('the diagram of a workflow', () => {
  it('draws every state, the initial one and the final ones marked', () => {
    const { container } = renderVisa();
    const drawn = [...container.querySelectorAll('[data-state]')].map((g) =>
      g.getAttribute('data-state'),
    );
    expect(drawn).toEqual(Object.keys(visa.machine.states));
    expect(drawn).toHaveLength(20);
    for (const status of Object.keys(visa.machine.states)) {
      const state = container.querySelector(`[data-state="${status}"]`);
      expect(state?.textContent).toBe(stateLabel(status));
      // A final state has a double border: two rectangles.
      const final = (visa.machine.states[status] as { type?: string }).type === 'final';
      expect(state?.querySelectorAll('rect')).toHaveLength(final ? 2 : 1);
    }
    expect(container.querySelector('[data-start] circle')).not.toBeNull();
  });

  it('is one named image, in a box the keyboard can reach and scroll', () => {
    renderVisa();
    const region = screen.getByRole('region', { name: 'Visa application workflow' });
    expect(region.tabIndex).toBe(0);
    const image = within(region).getByRole('img', { name: 'Visa application workflow' });
    expect(image.tagName.toLowerCase()).toBe('svg');
  });

  it('opens fitted to its box, and zooms out, in, to its actual size and back, by button or key', () => {
    // jsdom lays nothing out: the box is given the width of a laptop's studio.
    const clientWidth = Object.getOwnPropertyDescriptor(HTMLElement.prototype, 'clientWidth');
    Object.defineProperty(HTMLElement.prototype, 'clientWidth', {
      configurable: true,
      get(this: HTMLElement) {
        return this.getAttribute('role') === 'region' ? 800 : 0;
      },
    });
    try {
      renderVisa();
      const region = screen.getByRole('region', { name: 'Visa application workflow' });
      const image = within(region).getByRole('img');
      const width = () => Number(image.getAttribute('width'));
      const viewBox = image.getAttribute('viewBox')!.split(' ').map(Number);
      const drawn = viewBox[2]!;
      // Wider than the box (the visa's machine is some 3,000 px): shown whole, fitted.
      expect(drawn).toBeGreaterThan(800);
      expect(width()).toBeCloseTo(800, 0);
      const zoom = screen.getByRole('group', { name: 'Zoom' });
      const fit = within(zoom).getByRole('button', { name: 'Fit to width' });
      expect(fit.getAttribute('aria-pressed')).toBe('true');
      const percent = () => within(zoom).getByRole('status').textContent;
      expect(percent()).toBe(`${Math.round((800 / drawn) * 100)}%`);
      fireEvent.click(within(zoom).getByRole('button', { name: 'Zoom in' }));
      expect(width()).toBeGreaterThan(800);
      expect(fit.getAttribute('aria-pressed')).toBe('false');
      fireEvent.click(within(zoom).getByRole('button', { name: 'Zoom out' }));
      fireEvent.click(within(zoom).getByRole('button', { name: 'Zoom out' }));
      expect(width()).toBeLessThan(800);
      fireEvent.click(within(zoom).getByRole('button', { name: 'Actual size' }));
      expect(width()).toBe(drawn);
      expect(percent()).toBe('100%');
      // The same from the keyboard, in the focused box.
      fireEvent.keyDown(region, { key: 'f' });
      expect(width()).toBeCloseTo(800, 0);
      fireEvent.keyDown(region, { key: '+' });
      expect(width()).toBeGreaterThan(800);
      fireEvent.keyDown(region, { key: '-' });
      fireEvent.keyDown(region, { key: '-' });
      expect(width()).toBeLessThan(800);
      fireEvent.keyDown(region, { key: '0' });
      expect(width()).toBe(drawn);
    } finally {
      if (clientWidth) Object.defineProperty(HTMLElement.prototype, 'clientWidth', clientWidth);
    }
  });

  it('labels each arrow with its actions, and tells their roles on hover', () => {
    const { container } = renderVisa();
    const loop = container.querySelector('[data-arrow="STORED -> STORED"]');
    const roles = (action: string) =>
      (visa.actions[action]?.roles ?? []).map((role) => `visa-application-${role}`).join(', ');
    expect(loop?.querySelector('title')?.textContent).toBe(
      ['update', 'change-owner'].map((a) => `${actionLabel(a)}: ${roles(a)}`).join('\n'),
    );
    expect(container.querySelector('svg')?.textContent).toContain(
      'Submit (submit) [amountDue(pointer: /fees/total)]',
    );
  });

  it('lists every transition in a captioned table, from, action, to and roles', () => {
    renderVisa();
    const table = screen.getByRole('table', { name: 'Every transition of the visa application' });
    const [head, ...rows] = within(table).getAllByRole('row');
    expect(
      within(head!)
        .getAllByRole('columnheader')
        .map((h) => h.textContent),
    ).toEqual(['From', 'Action', 'To', 'Roles']);
    const expected = transitionsInJson();
    expect(rows).toHaveLength(expected.length);
    rows.forEach((row, i) => {
      const { from, action, to } = expected[i]!;
      const cells = within(row)
        .getAllByRole('cell')
        .map((c) => c.textContent);
      expect(cells[0]).toBe(stateLabel(from));
      expect(cells[1]).toContain(actionLabel(action));
      expect(cells[2]).toBe(stateLabel(to));
      const declared = visa.actions[action]!;
      expect(cells[3]).toBe(
        declared.system
          ? 'Server only'
          : declared.roles.map((role) => `visa-application-${role}`).join(', '),
      );
    });
    expect(within(table).getByText('[previousStatusIs(status: STORED)]')).toBeTruthy();
  });

  it('breaks no WCAG 2.2 A or AA rule axe can check without a browser', async () => {
    const { container } = renderVisa();
    const results = await axe.run(container, {
      runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa'] },
      // Contrast needs a browser's rendering (jsdom has no canvas): the e2e tests check it.
      rules: { 'color-contrast': { enabled: false } },
    });
    expect(
      results.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target).join(' ')}`),
    ).toEqual([]);
  });
});
