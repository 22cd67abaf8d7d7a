/** A workflow's machine as a graph and its geometry, laid out by dagre. */
import { graphlib, layout, type EdgeLabel, type GraphLabel, type NodeLabel } from '@dagrejs/dagre';
import { machineTransitions, type MachineGuard } from '../../core/definitions/stately';
import { isNode } from '../../core/definitions/json';
import { declaredAction, fullRoles, type WorkflowDefinition } from '../../core/documents/workflow';

export interface WorkflowNode {
  id: string;
  initial: boolean;
  /** XState's `type: 'final'`. */
  final: boolean;
  /** No action leaves it (final or not). */
  terminal: boolean;
}

export interface WorkflowEdge {
  from: string;
  to: string;
  action: string;
  /** Full role names, any one of which allows the action. */
  roles: string[];
  /** The guard, as `name(param: value, ...)`, when the machine names one. */
  guard?: string;
  /** Only the server fires it (a confirmed payment), never a user. */
  system: boolean;
  /** The timer whose delayed transition it is (`after`; docs/workflows.md, "Timers"). */
  timer?: string;
}

export interface WorkflowGraph {
  nodes: WorkflowNode[];
  edges: WorkflowEdge[];
}

export interface Point {
  x: number;
  y: number;
}

export interface Size {
  width: number;
  height: number;
}

/** A box: `x`, `y` are its top left corner. */
export type Box = Point & Size;

/** How big a status's box and an arrow's label are drawn (the labels are the caller's). */
export interface LayoutMeasure {
  node(node: WorkflowNode): Size;
  /** The label of the arrow taking these transitions (same from, same to). */
  label(edges: WorkflowEdge[]): Size;
}

export interface PlacedNode extends WorkflowNode, Box {}

/** One arrow: every transition between the same two statuses, in the machine's order. */
export interface PlacedEdge {
  from: string;
  to: string;
  edges: WorkflowEdge[];
  /** The polyline from the source's border to the target's, the last point at the arrowhead. */
  points: Point[];
  label: Box;
}

export interface WorkflowLayout extends Size {
  nodes: PlacedNode[];
  edges: PlacedEdge[];
  /** The dot marking the initial status, and its arrow. */
  start?: { x: number; y: number; points: Point[] };
}

function guardText(guard: MachineGuard): string {
  if (typeof guard === 'string') return guard;
  const params = Object.entries(guard.params ?? {}).map(
    ([name, value]) => `${name}: ${typeof value === 'string' ? value : JSON.stringify(value)}`,
  );
  return params.length ? `${guard.type}(${params.join(', ')})` : guard.type;
}

/** The statuses and transitions of the workflow's machine, with who may take each. */
export function workflowGraph(workflow: WorkflowDefinition): WorkflowGraph {
  const { machine } = workflow;
  const edges: WorkflowEdge[] = machineTransitions(machine).map(
    ({ from, action, target, guard }) => {
      const declared = declaredAction(workflow, action);
      return {
        from,
        to: target,
        action,
        roles: fullRoles(workflow, declared?.roles ?? []),
        ...(guard !== undefined && { guard: guardText(guard) }),
        system: declared?.system === true,
      };
    },
  );
  // A timer's delayed transition, drawn as its action: the server takes it when it is due.
  for (const [from, state] of Object.entries(machine.states)) {
    const after = isNode(state) && isNode(state.after) ? state.after : {};
    for (const [timer, transition] of Object.entries(after)) {
      if (!isNode(transition) || typeof transition.target !== 'string') continue;
      const action = workflow.timers?.[timer]?.action ?? timer;
      edges.push({
        from,
        to: transition.target,
        action,
        roles: fullRoles(workflow, declaredAction(workflow, action)?.roles ?? []),
        ...(transition.guard !== undefined && {
          guard: guardText(transition.guard as MachineGuard),
        }),
        system: true,
        timer,
      });
    }
  }
  const leaving = new Set(edges.map((edge) => edge.from));
  const nodes = Object.entries(machine.states).map(([id, state]) => ({
    id,
    initial: id === machine.initial,
    final: isNode(state) && state.type === 'final',
    terminal: !leaving.has(id),
  }));
  return { nodes, edges };
}

/** A rough width of a text, without a canvas (the layout runs before drawing, and in tests). */
export function estimateTextWidth(text: string, fontSize: number): number {
  let ems = 0;
  for (const ch of text) {
    if (/[A-Z0-9MWmw@%]/.test(ch)) ems += 0.68;
    else if (/[\sijlt.,:;!'|()[\]/-]/.test(ch)) ems += 0.3;
    else ems += 0.56;
  }
  return Math.ceil(ems * fontSize);
}

const defaultMeasure: LayoutMeasure = {
  node: (node) => ({ width: Math.max(96, estimateTextWidth(node.id, 13) + 24), height: 40 }),
  label: (edges) => ({
    width: Math.max(...edges.map((e) => estimateTextWidth(e.action, 12))) + 8,
    height: edges.length * 16 + 4,
  }),
};

/** The key of the dot marking the initial status: not a valid status name, so never one. */
const START = '#start';
const SEPARATOR = '\u0000';

/** Transitions between the same two statuses, in the machine's order. */
function arrowsOf(edges: WorkflowEdge[]): WorkflowEdge[][] {
  const groups = new Map<string, WorkflowEdge[]>();
  for (const edge of edges) {
    const key = `${edge.from}${SEPARATOR}${edge.to}`;
    groups.set(key, [...(groups.get(key) ?? []), edge]);
  }
  return [...groups.values()];
}

type DagreGraph = graphlib.Graph<GraphLabel, NodeLabel, EdgeLabel>;

/** Between a status's right side and the label of its loop. */
const LOOP_GAP = 24;

/** A status's box and, when actions lead back to it, its loop's label beside it. */
interface Footprint {
  box: Size;
  loop?: { edges: WorkflowEdge[]; label: Size };
}

function footprints(graph: WorkflowGraph, arrows: WorkflowEdge[][], measure: LayoutMeasure) {
  const loops = new Map<string, WorkflowEdge[]>();
  for (const arrow of arrows) {
    const first = arrow[0];
    if (first && first.from === first.to) loops.set(first.from, arrow);
  }
  return new Map(
    graph.nodes.map((node): [string, Footprint] => {
      const edges = loops.get(node.id);
      const box = measure.node(node);
      return [node.id, edges ? { box, loop: { edges, label: measure.label(edges) } } : { box }];
    }),
  );
}

/** The graph dagre lays out; a self-loop is given room beside its status, not a dagre edge. */
function dagreGraph(
  graph: WorkflowGraph,
  arrows: WorkflowEdge[][],
  sizes: Map<string, Footprint>,
  measure: LayoutMeasure,
): DagreGraph {
  const g: DagreGraph = new graphlib.Graph({ multigraph: true });
  g.setGraph({ rankdir: 'TB', nodesep: 28, ranksep: 44, edgesep: 14, marginx: 16, marginy: 16 });
  for (const [id, { box, loop }] of sizes) {
    // The loop's room mirrored on the left keeps the box where dagre aims the lines.
    const width = loop ? box.width + 2 * (LOOP_GAP + loop.label.width) : box.width;
    g.setNode(id, { width, height: Math.max(box.height, loop?.label.height ?? 0) });
  }
  arrows.forEach((edges, index) => {
    const first = edges[0];
    if (first && first.from !== first.to)
      g.setEdge(first.from, first.to, { ...measure.label(edges), labelpos: 'c' }, `${index}`);
  });
  const initial = graph.nodes.find((node) => node.initial);
  if (initial) {
    g.setNode(START, { width: 12, height: 12 });
    g.setEdge(START, initial.id, {}, START);
  }
  return g;
}

function centred(at: { x?: number; y?: number }, size: Size): Box {
  return { x: (at.x ?? 0) - size.width / 2, y: (at.y ?? 0) - size.height / 2, ...size };
}

const centre = (box: Box): Point => ({ x: box.x + box.width / 2, y: box.y + box.height / 2 });

/** Where the line from the box's centre towards `point` leaves the box. */
function borderPoint(box: Box, point: Point): Point {
  const c = centre(box);
  const dx = point.x - c.x;
  const dy = point.y - c.y;
  if (dx === 0 && dy === 0) return c;
  const w = box.width / 2;
  const h = box.height / 2;
  // Through the top or bottom side when the line is steeper than the box's diagonal.
  if (Math.abs(dy) * w > Math.abs(dx) * h) {
    const sy = dy < 0 ? -h : h;
    return { x: c.x + (sy * dx) / dy, y: c.y + sy };
  }
  const sx = dx < 0 ? -w : w;
  return { x: c.x + sx, y: c.y + (sx * dy) / dx };
}

/** dagre's line, its ends moved from the room onto the boxes drawn. */
function lineBetween(points: Point[], from: Box, to: Box): Point[] {
  const inner = points.slice(1, -1);
  const first = inner[0] ?? centre(to);
  const last = inner.at(-1) ?? centre(from);
  return [borderPoint(from, first), ...inner, borderPoint(to, last)];
}

/** A loop from the status's right side out to its label and back. */
function loopPoints(node: Box, label: Box): Point[] {
  const right = node.x + node.width;
  const middle = node.y + node.height / 2;
  const out = label.x - 4;
  const rise = Math.min(node.height / 2 - 4, 12);
  return [
    { x: right, y: middle - rise },
    { x: out, y: middle - rise - 6 },
    { x: out, y: middle + rise + 6 },
    { x: right, y: middle + rise },
  ];
}

/** The status's box and its loop's label, from the room dagre placed. */
function placeNode(node: WorkflowNode, room: NodeLabel, footprint: Footprint) {
  const left = (room.x ?? 0) - footprint.box.width / 2;
  const y = room.y ?? 0;
  const box = { x: left, y: y - footprint.box.height / 2, ...footprint.box };
  const loop = footprint.loop && {
    ...footprint.loop,
    label: centred(
      { x: left + box.width + LOOP_GAP + footprint.loop.label.width / 2, y },
      footprint.loop.label,
    ),
  };
  return { node: { ...node, ...box }, loop };
}

/** Positions of the statuses, arrows and labels of the graph, for an SVG of `width` x `height`. */
export function layoutWorkflow(
  graph: WorkflowGraph,
  measure?: Partial<LayoutMeasure>,
): WorkflowLayout {
  const sizes: LayoutMeasure = { ...defaultMeasure, ...measure };
  const arrows = arrowsOf(graph.edges);
  const rooms = footprints(graph, arrows, sizes);
  const g = dagreGraph(graph, arrows, rooms, sizes);
  layout(g);
  const placed = graph.nodes.flatMap((node) => {
    const footprint = rooms.get(node.id);
    return footprint ? [placeNode(node, g.node(node.id), footprint)] : [];
  });
  const nodes = placed.map((p) => p.node);
  const byId = new Map(nodes.map((node) => [node.id, node]));
  const loops = new Map(placed.flatMap((p) => (p.loop ? [[p.node.id, p.loop]] : [])));
  const edges = arrows.flatMap((group, index): PlacedEdge[] => {
    const first = group[0];
    const from = first && byId.get(first.from);
    const to = first && byId.get(first.to);
    if (!first || !from || !to) return [];
    const loop = first.from === first.to ? loops.get(first.from) : undefined;
    const arrow = { from: from.id, to: to.id, edges: group };
    if (loop) return [{ ...arrow, points: loopPoints(from, loop.label), label: loop.label }];
    const line = g.edge(first.from, first.to, `${index}`);
    const label = centred(line, { width: line.width ?? 0, height: line.height ?? 0 });
    return [{ ...arrow, points: lineBetween(line.points ?? [], from, to), label }];
  });
  const { width = 0, height = 0 } = g.graph();
  return { width, height, nodes, edges, ...startOf(g, graph, byId) };
}

/** The dot before the initial status and its arrow. */
function startOf(g: DagreGraph, graph: WorkflowGraph, byId: Map<string, Box>) {
  const initial = graph.nodes.find((node) => node.initial);
  const target = initial && byId.get(initial.id);
  if (!initial || !target) return {};
  const dot = g.node(START);
  const at = { x: dot.x ?? 0, y: dot.y ?? 0 };
  const line = g.edge(START, initial.id, START);
  const points = lineBetween(line.points ?? [], centred(at, dot), target);
  return { start: { ...at, points } };
}
