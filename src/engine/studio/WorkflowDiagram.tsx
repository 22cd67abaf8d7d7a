import {
  useId,
  useLayoutEffect,
  useMemo,
  useRef,
  useState,
  type CSSProperties,
  type KeyboardEvent,
  type RefObject,
} from 'react';
import { Box, Button, Group, Stack, Table, Text } from '@mantine/core';
import type { WorkflowDefinition } from '../../core/documents/workflow';
import {
  estimateTextWidth,
  layoutWorkflow,
  workflowGraph,
  type LayoutMeasure,
  type PlacedEdge,
  type PlacedNode,
  type Point,
  type WorkflowEdge,
  type WorkflowGraph,
} from './workflowGraph';

/** The diagram's own words, English unless the page gives its translation. */
const DEFAULT_TEXTS = {
  /** Caption of the table of transitions. */
  caption: 'Transitions of the workflow',
  from: 'From',
  action: 'Action',
  to: 'To',
  roles: 'Roles',
  /** Said instead of roles for an action only the server fires. */
  serverOnly: 'Server only',
  /** What the marks of the drawing mean. */
  legend:
    'The dot points at the initial state. A double border marks a final state, a dashed border a state no action leaves. A dashed arrow is fired by the server only.',
  /** Names of the zoom's controls, and of the group holding them. */
  zoom: 'Zoom',
  fit: 'Fit to width',
  zoomIn: 'Zoom in',
  zoomOut: 'Zoom out',
  actualSize: 'Actual size',
  /** The scale shown, `{{percent}}` replaced by the number. */
  zoomLevel: '{{percent}}%',
};

/** The words, and `region`: the name of the scrolling box holding the drawing (the title by default). */
export type WorkflowDiagramTexts = typeof DEFAULT_TEXTS & { region: string };

/** A status's or an action's name as shown. */
type Label = (name: string) => string;

export interface WorkflowDiagramProps {
  workflow: WorkflowDefinition;
  /** The drawing's accessible name (its SVG title), and by default its scrolling box's. */
  title: string;
  stateLabel?: Label;
  actionLabel?: Label;
  texts?: Partial<WorkflowDiagramTexts>;
  /** The status or transition edited beside the drawing, marked in it and in the table. */
  selected?: DiagramSelection;
  /** Makes statuses and transitions choosable: by click, Enter or Space, in the drawing and the table. */
  onSelect?: (selection: DiagramSelection) => void;
}

/** A status, or a transition: the `index`th alternative of event `action` of status `from`. */
export type DiagramSelection =
  | { kind: 'status'; status: string }
  | { kind: 'transition'; from: string; action: string; index: number };

/** Each edge's place among the alternatives of its event (edges are in the machine's order). */
function transitionRefs(edges: readonly WorkflowEdge[]): Map<WorkflowEdge, DiagramSelection> {
  const seen = new Map<string, number>();
  return new Map(
    edges.map((edge): [WorkflowEdge, DiagramSelection] => {
      // A timer's transition is edited with its status (`after`), not as an event's.
      if (edge.timer) return [edge, { kind: 'status', status: edge.from }];
      const key = `${edge.from}\u0000${edge.action}`;
      const index = seen.get(key) ?? 0;
      seen.set(key, index + 1);
      return [edge, { kind: 'transition', from: edge.from, action: edge.action, index }];
    }),
  );
}

const sameSelection = (a: DiagramSelection | undefined, b: DiagramSelection) =>
  a !== undefined && JSON.stringify(a) === JSON.stringify(b);

/** What a chosen part answers to: a click, and Enter or Space when focused. */
function choosable(label: string, pressed: boolean, choose: (() => void) | undefined) {
  if (!choose) return {};
  return {
    role: 'button',
    tabIndex: 0,
    'aria-label': label,
    'aria-pressed': pressed,
    style: { cursor: 'pointer' },
    onClick: choose,
    onKeyDown: (event: KeyboardEvent) => {
      if (event.key !== 'Enter' && event.key !== ' ') return;
      event.preventDefault();
      event.stopPropagation();
      choose();
    },
  };
}

const ZOOM_STEP = 1.25;
const ZOOM_MIN = 0.1;
const ZOOM_MAX = 4;

/** `fit` (the default) shows the whole width, never above actual size; a number is a zoom. */
type Zoom = 'fit' | number;

/** The box's inner width, followed as the page resizes (0 where nothing lays it out). */
function useWidth(box: RefObject<HTMLDivElement | null>): number {
  const [width, setWidth] = useState(0);
  useLayoutEffect(() => {
    const element = box.current;
    if (!element) return;
    setWidth(element.clientWidth);
    if (typeof ResizeObserver === 'undefined') return;
    const observer = new ResizeObserver(() => setWidth(element.clientWidth));
    observer.observe(element);
    return () => observer.disconnect();
  }, [box]);
  return width;
}

const same = (text: string) => text;

const STATE_FONT = 13;
const LABEL_FONT = 12;
const LINE_HEIGHT = 16;

// Mantine's CSS variables, as styles (var() in SVG attributes is not read everywhere).
const COLOURS = {
  stateFill: 'var(--mantine-color-blue-light)',
  stateStroke: 'var(--mantine-color-blue-outline)',
  text: 'var(--mantine-color-text)',
  arrow: 'var(--mantine-color-dimmed)',
  labelFill: 'var(--mantine-color-body)',
  selected: 'var(--mantine-color-orange-filled)',
};

/** An arrow's label: one line per action, its guard in brackets. */
function labelLines(edges: WorkflowEdge[], actionLabel: Label): string[] {
  return edges.map((e) =>
    e.guard ? `${actionLabel(e.action)} [${e.guard}]` : actionLabel(e.action),
  );
}

function diagramMeasure(stateLabel: Label, actionLabel: Label): LayoutMeasure {
  return {
    node: (node) => ({
      // A final state's inner border takes 4 px on each side.
      width: Math.max(
        96,
        estimateTextWidth(stateLabel(node.id), STATE_FONT) + 28 + (node.final ? 8 : 0),
      ),
      height: 40,
    }),
    label: (edges) => {
      const lines = labelLines(edges, actionLabel);
      const widest = Math.max(...lines.map((line) => estimateTextWidth(line, LABEL_FONT)));
      return { width: widest + 10, height: lines.length * LINE_HEIGHT + 4 };
    },
  };
}

/** A smooth path through the polyline: straight ends, rounded bends. */
function pathOf(points: Point[]): string {
  const [first, ...rest] = points;
  if (!first) return '';
  const last = rest.at(-1);
  const bends = rest.slice(0, -1).map((p, i) => {
    const next = rest[i + 1] ?? p;
    return `Q ${p.x} ${p.y} ${(p.x + next.x) / 2} ${(p.y + next.y) / 2}`;
  });
  return [`M ${first.x} ${first.y}`, ...bends, last ? `L ${last.x} ${last.y}` : ''].join(' ');
}

function rolesText(edge: WorkflowEdge, texts: WorkflowDiagramTexts): string {
  return edge.system ? texts.serverOnly : edge.roles.join(', ');
}

/** The words of the drawing and of the table. */
interface Words {
  actionLabel: Label;
  texts: WorkflowDiagramTexts;
  selected?: DiagramSelection;
  refs: Map<WorkflowEdge, DiagramSelection>;
  onSelect?: (selection: DiagramSelection) => void;
}

interface ArrowProps extends Words {
  arrow: PlacedEdge;
}

/** Who may take each action of the arrow, shown when the pointer rests on it. */
function ArrowTitle({ arrow, actionLabel, texts }: ArrowProps) {
  const lines = labelLines(arrow.edges, actionLabel);
  return (
    <title>{arrow.edges.map((e, i) => `${lines[i]}: ${rolesText(e, texts)}`).join('\n')}</title>
  );
}

function ArrowLine({ arrow, marker, ...rest }: ArrowProps & { marker: string }) {
  const serverOnly = arrow.edges.every((e) => e.system);
  return (
    <g data-arrow={`${arrow.from} -> ${arrow.to}`}>
      <ArrowTitle arrow={arrow} {...rest} />
      <path
        d={pathOf(arrow.points)}
        markerEnd={`url(#${marker})`}
        strokeWidth={1.5}
        strokeDasharray={serverOnly ? '6 4' : undefined}
        style={{ fill: 'none', stroke: COLOURS.arrow }}
      />
    </g>
  );
}

/** Drawn after every line, so that no line crosses a label. */
function ArrowLabel(props: ArrowProps) {
  const { label } = props.arrow;
  const lines = labelLines(props.arrow.edges, props.actionLabel);
  const middle = label.x + label.width / 2;
  const { refs, selected, onSelect } = props;
  const choices = props.arrow.edges.flatMap((edge) => refs.get(edge) ?? []);
  const chosen = choices.findIndex((choice) => sameSelection(selected, choice));
  // A label of several actions chooses the one after the chosen, so each is reached in turn.
  const next = choices[(chosen + 1) % choices.length];
  const name = lines.join(', ');
  return (
    <g
      data-arrow-label={`${props.arrow.from} -> ${props.arrow.to}`}
      {...choosable(name, chosen >= 0, onSelect && next ? () => onSelect(next) : undefined)}
    >
      <ArrowTitle {...props} />
      <rect
        {...label}
        rx={4}
        strokeWidth={chosen >= 0 ? 2 : 0}
        style={{
          fill: COLOURS.labelFill,
          opacity: 0.92,
          stroke: chosen >= 0 ? COLOURS.selected : 'none',
        }}
      />
      <text
        x={middle}
        y={label.y + 2}
        fontSize={LABEL_FONT}
        textAnchor="middle"
        style={{ fill: COLOURS.text }}
      >
        {lines.map((line, i) => (
          <tspan key={i} x={middle} dy={i === 0 ? LINE_HEIGHT - 4 : LINE_HEIGHT}>
            {line}
          </tspan>
        ))}
      </text>
    </g>
  );
}

function StateBox({
  node,
  label,
  selected,
  onSelect,
}: {
  node: PlacedNode;
  label: string;
  selected: boolean;
  onSelect?: () => void;
}) {
  const dashed = node.terminal && !node.final;
  return (
    <g data-state={node.id} {...choosable(label, selected, onSelect)}>
      <rect
        x={node.x}
        y={node.y}
        width={node.width}
        height={node.height}
        rx={8}
        strokeWidth={selected ? 3.5 : node.initial ? 2.5 : 1.5}
        strokeDasharray={dashed ? '5 3' : undefined}
        style={{
          fill: COLOURS.stateFill,
          stroke: selected ? COLOURS.selected : COLOURS.stateStroke,
        }}
      />
      {node.final && (
        <rect
          x={node.x + 4}
          y={node.y + 4}
          width={node.width - 8}
          height={node.height - 8}
          rx={5}
          strokeWidth={1.5}
          style={{ fill: 'none', stroke: COLOURS.stateStroke }}
        />
      )}
      <text
        x={node.x + node.width / 2}
        y={node.y + node.height / 2}
        fontSize={STATE_FONT}
        textAnchor="middle"
        dominantBaseline="central"
        style={{ fill: COLOURS.text }}
      >
        {label}
      </text>
    </g>
  );
}

function TransitionTable({
  graph,
  stateLabel,
  actionLabel,
  texts,
  refs,
  selected,
  onSelect,
}: Words & { graph: WorkflowGraph; stateLabel: Label }) {
  // A guard is long, with parameters unbroken: it wraps anywhere rather than widen a phone's page.
  const wrap: CSSProperties = { overflowWrap: 'anywhere' };
  return (
    <Table captionSide="top" striped>
      <Table.Caption>{texts.caption}</Table.Caption>
      <Table.Thead>
        <Table.Tr>
          {[texts.from, texts.action, texts.to, texts.roles].map((heading, i) => (
            <Table.Th key={i} scope="col">
              {heading}
            </Table.Th>
          ))}
        </Table.Tr>
      </Table.Thead>
      <Table.Tbody>
        {graph.edges.map((edge, i) => {
          const ref = refs.get(edge);
          const chosen = ref !== undefined && sameSelection(selected, ref);
          return (
            <Table.Tr
              key={i}
              data-transition={`${edge.from} -> ${edge.action} -> ${edge.to}`}
              aria-selected={onSelect ? chosen : undefined}
              bg={chosen ? 'var(--mantine-color-orange-light)' : undefined}
            >
              <Table.Td>{stateLabel(edge.from)}</Table.Td>
              <Table.Td>
                {onSelect && ref ? (
                  <Button
                    variant={chosen ? 'light' : 'subtle'}
                    size="compact-sm"
                    aria-pressed={chosen}
                    aria-label={`${actionLabel(edge.action)}: ${stateLabel(edge.from)} → ${stateLabel(edge.to)}`}
                    onClick={() => onSelect(ref)}
                    styles={{ label: { whiteSpace: 'normal', textAlign: 'left' } }}
                    h="auto"
                  >
                    {actionLabel(edge.action)}
                  </Button>
                ) : (
                  actionLabel(edge.action)
                )}
                {edge.guard && (
                  <Text size="xs" style={wrap}>
                    [{edge.guard}]
                  </Text>
                )}
              </Table.Td>
              <Table.Td>{stateLabel(edge.to)}</Table.Td>
              <Table.Td>{rolesText(edge, texts)}</Table.Td>
            </Table.Tr>
          );
        })}
      </Table.Tbody>
    </Table>
  );
}

/** The zoom's buttons: fit to the width, out, in, actual size; and the scale, said as it changes. */
function ZoomControls(props: {
  zoom: Zoom;
  scale: number;
  texts: WorkflowDiagramTexts;
  onZoom: (zoom: Zoom) => void;
}) {
  const { zoom, scale, texts } = props;
  return (
    <Group gap="xs" role="group" aria-label={texts.zoom} wrap="wrap">
      {[
        { label: texts.fit, key: 'F', to: 'fit' as Zoom, pressed: zoom === 'fit' },
        { label: texts.zoomOut, key: '-', to: zoomedOut(scale), disabled: scale <= ZOOM_MIN },
        { label: texts.zoomIn, key: '+', to: zoomedIn(scale), disabled: scale >= ZOOM_MAX },
        { label: texts.actualSize, key: '0', to: 1, pressed: zoom === 1 },
      ].map(({ label, key, to, pressed, disabled }) => (
        <Button
          key={key}
          size="xs"
          variant={pressed ? 'filled' : 'default'}
          aria-pressed={pressed}
          aria-keyshortcuts={key}
          disabled={disabled}
          onClick={() => props.onZoom(to)}
        >
          {label}
        </Button>
      ))}
      <Text size="sm" role="status" aria-live="polite">
        {texts.zoomLevel.replace('{{percent}}', String(Math.round(scale * 100)))}
      </Text>
    </Group>
  );
}

const zoomedIn = (scale: number) => Math.min(ZOOM_MAX, Math.round(scale * ZOOM_STEP * 100) / 100);
const zoomedOut = (scale: number) =>
  Math.max(ZOOM_MIN, Math.round((scale / ZOOM_STEP) * 100) / 100);
const ZOOM_KEYS: Record<string, (scale: number) => Zoom> = {
  '+': zoomedIn,
  '=': zoomedIn,
  '-': zoomedOut,
  '0': () => 1,
  f: () => 'fit',
  F: () => 'fit',
};

/** A workflow's machine drawn as states and arrows, with the same transitions in a table for assistive technology. */
export function WorkflowDiagram({
  workflow,
  title,
  stateLabel = same,
  actionLabel = same,
  texts: given,
  selected,
  onSelect,
}: WorkflowDiagramProps) {
  const texts = { ...DEFAULT_TEXTS, region: title, ...given };
  // useId's characters are not all valid in url(#...): keep letters, digits, - and _.
  const id = useId().replace(/[^\w-]/g, '');
  const titleId = `${id}-title`;
  const marker = `${id}-arrowhead`;
  const graph = useMemo(() => workflowGraph(workflow), [workflow]);
  const refs = useMemo(() => transitionRefs(graph.edges), [graph]);
  const words = { actionLabel, texts, refs, selected, onSelect };
  const drawing = useMemo(
    () => layoutWorkflow(graph, diagramMeasure(stateLabel, actionLabel)),
    [graph, stateLabel, actionLabel],
  );
  const { start } = drawing;
  const box = useRef<HTMLDivElement>(null);
  const boxWidth = useWidth(box);
  const [zoom, setZoom] = useState<Zoom>('fit');
  const scale =
    zoom === 'fit'
      ? boxWidth > 0
        ? Math.min(1, Math.max(ZOOM_MIN, boxWidth / drawing.width))
        : 1
      : zoom;
  // Zoomed, the middle of the view stays; at first, the initial state is shown.
  const shown = useRef<number | undefined>(undefined);
  useLayoutEffect(() => {
    const element = box.current;
    const before = shown.current;
    shown.current = scale;
    if (!element || before === scale) return;
    const half = element.clientWidth / 2;
    element.scrollLeft =
      before === undefined
        ? Math.max(0, (start?.x ?? 0) * scale - half)
        : Math.max(0, ((element.scrollLeft + half) * scale) / before - half);
  }, [scale, start]);
  const onKeyDown = (event: KeyboardEvent) => {
    const next = Object.hasOwn(ZOOM_KEYS, event.key) ? ZOOM_KEYS[event.key] : undefined;
    if (event.altKey || event.ctrlKey || event.metaKey || !next) return;
    event.preventDefault();
    setZoom(next(scale));
  };
  return (
    <Stack gap="sm">
      <ZoomControls zoom={zoom} scale={scale} texts={texts} onZoom={setZoom} />
      <Box
        ref={box}
        role="region"
        aria-label={texts.region}
        tabIndex={0}
        onKeyDown={onKeyDown}
        data-scale={scale}
        style={{ overflow: 'auto', maxWidth: '100%' }}
      >
        <svg
          // Choosable parts are buttons, which an image's children cannot be.
          role={onSelect ? 'group' : 'img'}
          aria-labelledby={titleId}
          width={drawing.width * scale}
          height={drawing.height * scale}
          viewBox={`0 0 ${drawing.width} ${drawing.height}`}
          style={{ display: 'block', fontFamily: 'var(--mantine-font-family)' }}
        >
          <title id={titleId}>{title}</title>
          <defs>
            <marker
              id={marker}
              viewBox="0 0 10 10"
              refX={9}
              refY={5}
              markerWidth={9}
              markerHeight={9}
              markerUnits="userSpaceOnUse"
              orient="auto"
            >
              <path d="M 0 0 L 10 5 L 0 10 z" style={{ fill: COLOURS.arrow }} />
            </marker>
          </defs>
          {start && (
            <g data-start="">
              <circle cx={start.x} cy={start.y} r={6} style={{ fill: COLOURS.text }} />
              <path
                d={pathOf(start.points)}
                markerEnd={`url(#${marker})`}
                strokeWidth={1.5}
                style={{ fill: 'none', stroke: COLOURS.arrow }}
              />
            </g>
          )}
          {drawing.edges.map((arrow) => (
            <ArrowLine
              key={`${arrow.from} -> ${arrow.to}`}
              arrow={arrow}
              marker={marker}
              {...words}
            />
          ))}
          {drawing.edges.map((arrow) => (
            <ArrowLabel key={`${arrow.from} -> ${arrow.to}`} arrow={arrow} {...words} />
          ))}
          {drawing.nodes.map((node) => (
            <StateBox
              key={node.id}
              node={node}
              label={stateLabel(node.id)}
              selected={sameSelection(selected, { kind: 'status', status: node.id })}
              onSelect={onSelect && (() => onSelect({ kind: 'status', status: node.id }))}
            />
          ))}
        </svg>
      </Box>
      <Text size="sm">{texts.legend}</Text>
      <TransitionTable graph={graph} stateLabel={stateLabel} {...words} />
    </Stack>
  );
}
