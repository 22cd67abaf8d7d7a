/** How long a field that is not yet on screen is waited for. */
const FIELD_WAIT_MS = 1_500;

/** Focuses the field RJSF rendered for a JSON pointer, or the nearest group holding it. */
export function focusField(pointer: string): void {
  const ids = pointer
    .replace(/^\//, '')
    .split('/')
    .filter(Boolean)
    .reduce<string[]>((all, part) => [...all, `${all.at(-1) ?? 'root'}.${part}`], []);
  const started = performance.now();
  const attempt = () => {
    // Later fields render after the section's first paint: the field is awaited a while.
    const patient = performance.now() - started < FIELD_WAIT_MS;
    const element = (patient ? [ids.at(-1) ?? 'root'] : ids.slice().reverse())
      .map((id) => findFocusable(id))
      .find((found): found is HTMLElement => found !== null);
    if (element) {
      element.focus();
      element.scrollIntoView?.({ block: 'center' });
      return;
    }
    // The section opens on the next render: try again on the next frames.
    if (patient || performance.now() - started < FIELD_WAIT_MS * 2) requestAnimationFrame(attempt);
  };
  attempt();
}

const FIELDS = 'input, select, textarea, button';

function findFocusable(id: string): HTMLElement | null {
  const exact = document.getElementById(id);
  if (exact?.matches(FIELDS)) return exact;
  return (
    exact?.querySelector<HTMLElement>(FIELDS) ??
    document.querySelector<HTMLElement>(`[id^="${CSS.escape(id)}-"]:is(${FIELDS})`)
  );
}
