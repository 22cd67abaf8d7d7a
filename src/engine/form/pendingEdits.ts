import { flushSync } from 'react-dom';

/**
 * Text typed into the engine's text-like widgets (text, textarea, e-mail, phone, money) is
 * shown by the input at once, but reaches RJSF and the document (and so validation, the dirty
 * flag and the parent's `onChange`) only once the keystroke's frame has been painted: a
 * keystroke costs the browser's input and paint, not the form's change processing. The edits
 * of a frame are coalesced; their errors show in the next frame.
 *
 * Nothing reads the document before the pending edits reach it: the widgets flush on blur
 * (which comes before any click on a button), and the form's handle flushes in `validateAll()`,
 * `goToSection()`, `flush()` and `currentValue()`.
 */
type Commit = () => void;

const pending = new Set<Commit>();
let scheduled = false;
let timer: ReturnType<typeof setTimeout> | undefined;

/** After the next frame is painted: the frame's rAF callback, then a task posted from it. */
function afterPaint(run: () => void): void {
  requestAnimationFrame(() => {
    const channel = new MessageChannel();
    channel.port1.onmessage = () => {
      channel.port1.close();
      run();
    };
    channel.port2.postMessage(null);
  });
}

/** Queues `commit` (a widget's push of its text into the form) for after the next paint. */
export function deferEdit(commit: Commit): void {
  pending.add(commit);
  if (scheduled) return;
  scheduled = true;
  const browser =
    typeof requestAnimationFrame === 'function' && typeof MessageChannel === 'function';
  if (browser) afterPaint(flushEdits);
  // Frames are not produced in a hidden tab (or without requestAnimationFrame): a timer then.
  timer = setTimeout(flushEdits, browser ? 100 : 0);
}

/** Whether `commit` is queued. */
export function isPending(commit: Commit): boolean {
  return pending.has(commit);
}

/** Removes `commit` from the queue; true when it was queued. */
export function dropEdit(commit: Commit): boolean {
  return pending.delete(commit);
}

/**
 * Pushes every pending edit into its form now and renders the result synchronously, so that
 * the document (and the parent's state) holds them when this returns. Not to be called while
 * React renders.
 */
export function flushEdits(): void {
  scheduled = false;
  if (timer !== undefined) clearTimeout(timer);
  timer = undefined;
  if (pending.size === 0) return;
  const commits = [...pending];
  pending.clear();
  flushSync(() => commits.forEach((commit) => commit()));
}
