import { beforeAll, describe, expect, it } from 'vitest';
import type { WorkflowDefinition } from '../../src/core/documents/workflow';
import {
  layoutWorkflow,
  workflowGraph,
  type Box,
  type WorkflowGraph,
  type WorkflowLayout,
} from '../../src/engine/studio/workflowGraph';
import { readProjectJson } from '../support/definitions-dir';

/** The visa workflow's machine as the studio draws it: its statuses, its transitions, their places. */
let visa: WorkflowDefinition;
let graph: WorkflowGraph;
let drawing: WorkflowLayout;

beforeAll(async () => {
  visa = await readProjectJson<WorkflowDefinition>('workflows/visa-application.json');
  graph = workflowGraph(visa);
  drawing = layoutWorkflow(graph);
});

/** Every (from, action, to) of the machine, read straight from the JSON; the timers' last. */
function transitionsInJson(workflow: WorkflowDefinition): string[] {
  const states = Object.entries(workflow.machine.states);
  const actions = states.flatMap(([from, state]) => {
    const on = (state as { on?: Record<string, unknown> }).on ?? {};
    return Object.entries(on).flatMap(([action, value]) =>
      [value]
        .flat()
        .map(
          (t) =>
            `${from} -${action}-> ${typeof t === 'string' ? t : (t as { target: string }).target}`,
        ),
    );
  });
  // A timer's delayed transition is drawn as its action.
  const timers = states.flatMap(([from, state]) =>
    Object.entries((state as { after?: Record<string, { target: string }> }).after ?? {}).map(
      ([timer, t]) => `${from} -${workflow.timers?.[timer]?.action}-> ${t.target}`,
    ),
  );
  return [...actions, ...timers];
}

const overlap = (a: Box, b: Box): boolean =>
  a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;

describe('the visa workflow as a graph', () => {
  it('has its 20 statuses, the initial, final and terminal ones marked', () => {
    expect(graph.nodes.map((n) => n.id)).toEqual(Object.keys(visa.machine.states));
    expect(graph.nodes).toHaveLength(20);
    expect(graph.nodes.filter((n) => n.initial).map((n) => n.id)).toEqual(['NEW']);
    const finals = ['DISPATCHED', 'REJECTED', 'WITHDRAWN', 'DELETED'];
    expect(graph.nodes.filter((n) => n.final).map((n) => n.id)).toEqual(finals);
    expect(graph.nodes.filter((n) => n.terminal).map((n) => n.id)).toEqual(finals);
  });

  it('has every transition, a guarded action once per alternative', () => {
    const edges = graph.edges.map((e) => `${e.from} -${e.action}-> ${e.to}`);
    expect(edges).toEqual(transitionsInJson(visa));
    expect(graph.edges.filter((e) => e.from === 'STORED' && e.action === 'submit')).toEqual([
      {
        from: 'STORED',
        to: 'SUBMITTED',
        action: 'submit',
        roles: ['visa-application-submit'],
        guard: 'amountDue(pointer: /fees/total)',
        system: false,
      },
      {
        from: 'STORED',
        to: 'SUBMITTED FOR VERIFICATION',
        action: 'submit',
        roles: ['visa-application-submit'],
        system: false,
      },
    ]);
  });

  it('gives each transition the full roles of its action, and says which only the server fires', () => {
    for (const edge of graph.edges) {
      const suffixes = visa.actions[edge.action]?.roles ?? [];
      expect(edge.roles, edge.action).toEqual(suffixes.map((s) => `visa-application-${s}`));
      expect(edge.roles.length, edge.action).toBeGreaterThan(0);
    }
    const system = new Set(graph.edges.filter((e) => e.system).map((e) => e.action));
    expect([...system].sort()).toEqual(
      Object.keys(visa.actions)
        .filter((a) => visa.actions[a]?.system)
        .sort(),
    );
    expect(system.has('pay')).toBe(true);
  });
});

describe('the layout', () => {
  it('places every status, inside the drawing, no two overlapping', () => {
    expect(drawing.nodes.map((n) => n.id)).toEqual(graph.nodes.map((n) => n.id));
    for (const node of drawing.nodes) {
      for (const value of [node.x, node.y, node.width, node.height])
        expect(Number.isFinite(value)).toBe(true);
      expect(node.x).toBeGreaterThanOrEqual(0);
      expect(node.y).toBeGreaterThanOrEqual(0);
      expect(node.x + node.width).toBeLessThanOrEqual(drawing.width);
      expect(node.y + node.height).toBeLessThanOrEqual(drawing.height);
    }
    drawing.nodes.forEach((a, i) =>
      drawing.nodes
        .slice(i + 1)
        .forEach((b) => expect(overlap(a, b), `${a.id} / ${b.id}`).toBe(false)),
    );
  });

  it('draws one arrow per pair of statuses, carrying all their transitions, labels clear of the statuses', () => {
    const carried = drawing.edges.flatMap((arrow) => arrow.edges);
    expect(carried).toHaveLength(graph.edges.length);
    expect(new Set(carried)).toEqual(new Set(graph.edges));
    for (const arrow of drawing.edges) {
      expect(arrow.edges.every((e) => e.from === arrow.from && e.to === arrow.to)).toBe(true);
      expect(arrow.points.length).toBeGreaterThanOrEqual(2);
      for (const node of drawing.nodes)
        expect(overlap(arrow.label, node), `${arrow.from} -> ${arrow.to} / ${node.id}`).toBe(false);
    }
  });

  it('ends each arrow on the border of the statuses it joins', () => {
    const byId = new Map(drawing.nodes.map((n) => [n.id, n]));
    const onBorder = (box: Box, p: { x: number; y: number }) =>
      ([box.x, box.x + box.width].some((x) => Math.abs(p.x - x) < 0.5) &&
        p.y >= box.y - 0.5 &&
        p.y <= box.y + box.height + 0.5) ||
      ([box.y, box.y + box.height].some((y) => Math.abs(p.y - y) < 0.5) &&
        p.x >= box.x - 0.5 &&
        p.x <= box.x + box.width + 0.5);
    for (const arrow of drawing.edges) {
      const from = byId.get(arrow.from);
      const to = byId.get(arrow.to);
      const first = arrow.points[0];
      const last = arrow.points.at(-1);
      expect(from && to && first && last).toBeTruthy();
      if (!from || !to || !first || !last) continue;
      expect(onBorder(from, first), `${arrow.from} -> ${arrow.to} starts on ${arrow.from}`).toBe(
        true,
      );
      expect(onBorder(to, last), `${arrow.from} -> ${arrow.to} ends on ${arrow.to}`).toBe(true);
    }
  });

  it('draws a loop for the actions that keep a status, beside it', () => {
    const stored = drawing.nodes.find((n) => n.id === 'STORED');
    const loop = drawing.edges.find((e) => e.from === 'STORED' && e.to === 'STORED');
    expect(loop?.edges.map((e) => e.action)).toEqual(['update', 'change-owner']);
    expect(stored && loop).toBeTruthy();
    if (!stored || !loop) return;
    const right = stored.x + stored.width;
    expect(loop.points[0]?.x).toBe(right);
    expect(loop.points.at(-1)?.x).toBe(right);
    expect(loop.label.x).toBeGreaterThan(right);
    expect(
      Math.abs(loop.label.y + loop.label.height / 2 - (stored.y + stored.height / 2)),
    ).toBeLessThan(1);
  });

  it('lays out every workflow with no two statuses overlapping', async () => {
    const files = [
      'access-role',
      'account',
      'inbox-message',
      'payment-invoice',
      'sponsor-application',
    ];
    for (const file of files) {
      const workflow = await readProjectJson<WorkflowDefinition>(`workflows/${file}.json`);
      const { nodes } = layoutWorkflow(workflowGraph(workflow));
      expect(nodes, file).toHaveLength(Object.keys(workflow.machine.states).length);
      nodes.forEach((a, i) =>
        nodes
          .slice(i + 1)
          .forEach((b) => expect(overlap(a, b), `${file}: ${a.id} / ${b.id}`).toBe(false)),
      );
    }
  });

  it('marks the initial status with a dot above it, and sizes by the measure given', () => {
    const start = drawing.start;
    const initial = drawing.nodes.find((n) => n.initial);
    expect(start && initial && start.y < initial.y).toBe(true);
    const wide = layoutWorkflow(graph, { node: () => ({ width: 300, height: 50 }) });
    expect(wide.nodes.every((n) => n.width === 300 && n.height === 50)).toBe(true);
    expect(wide.width).toBeGreaterThan(drawing.width);
  });
});
