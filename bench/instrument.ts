/**
 * In-page instrumentation, identical for both pages (docs/performance.md):
 * - first render: from `markRenderStart()` (just before `root.render`) to the first frame after
 *   the form's commit;
 * - keystroke to paint: from the keydown (capture listener on window, the first script to see
 *   the event) to the first frame after it.
 * "After the next frame" is a requestAnimationFrame callback followed by a MessageChannel task:
 * that task runs once the frame whose rAF ran has been rendered (style, layout, paint).
 */
export interface KeystrokeSample {
  /** keydown seen (ms since navigation start). */
  start: number;
  /** The next frame's rAF callback began: every event handler and React render are done. */
  frame: number;
  /** The task after that frame: the frame has been painted. */
  painted: number;
}

export interface BenchState {
  renderStart?: number;
  firstPaint?: number;
  keystrokes: KeystrokeSample[];
  error?: string;
}

declare global {
  interface Window {
    __bench: BenchState;
  }
}

const state: BenchState = { keystrokes: [] };
window.__bench = state;

window.addEventListener('error', (event) => {
  state.error = String(event.message);
});
window.addEventListener('unhandledrejection', (event) => {
  state.error = String(event.reason);
});

function afterNextPaint(done: (frame: number, painted: number) => void): void {
  requestAnimationFrame(() => {
    const frame = performance.now();
    const channel = new MessageChannel();
    channel.port1.onmessage = () => {
      channel.port1.close();
      done(frame, performance.now());
    };
    channel.port2.postMessage(null);
  });
}

window.addEventListener(
  'keydown',
  () => {
    const start = performance.now();
    afterNextPaint((frame, painted) => state.keystrokes.push({ start, frame, painted }));
  },
  { capture: true },
);

export function markRenderStart(): void {
  state.renderStart = performance.now();
}

/** Called from a layout effect of the page's root: the form is in the DOM. */
export function markMounted(): void {
  if (state.firstPaint !== undefined) return;
  afterNextPaint((_frame, painted) => {
    state.firstPaint = painted;
  });
}
