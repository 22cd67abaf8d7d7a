import { flushSync } from 'react-dom';

/*
 * Typed text reaches the document only after the keystroke's frame is painted, a frame's edits
 * coalesced: a keystroke costs the input and paint alone. Widgets flush on blur, the form's
 * handle before it reads the document.
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

/** Pushes every pending edit and renders synchronously (flushSync): not while React renders. */
export function flushEdits(): void {
  scheduled = false;
  if (timer !== undefined) clearTimeout(timer);
  timer = undefined;
  if (pending.size === 0) return;
  const commits = [...pending];
  pending.clear();
  flushSync(() => commits.forEach((commit) => commit()));
}
