import { useCallback, useEffect, useLayoutEffect, useRef, useState, type ChangeEvent } from 'react';
import { deferEdit, dropEdit, flushEdits, isPending } from '../pendingEdits';

type TextElement = HTMLInputElement | HTMLTextAreaElement;

export interface LazyText<E extends TextElement> {
  /** For the input: it is uncontrolled, its text set from `text` only when that changes. */
  ref: React.RefObject<E | null>;
  defaultValue: string;
  onChange: (event: ChangeEvent<E>) => void;
  /** Pushes the typed text into the form now (on blur); returns the input's text. */
  flush: () => string;
}

/**
 * An uncontrolled text input whose text reaches the form after the keystroke's paint
 * (pendingEdits.ts). A new `text` from outside shows unless an edit is pending; `accept` may
 * refuse a keystroke.
 */
export function useLazyText<E extends TextElement>(
  text: string,
  commit: (typed: string) => void,
  accept?: (typed: string) => boolean,
): LazyText<E> {
  const ref = useRef<E | null>(null);
  const [defaultValue] = useState(text);
  // The text last pushed by the input or received from the form.
  const known = useRef(text);
  // The input's text as last typed (the element may be gone when an unmount flushes).
  const typed = useRef(text);
  const latest = useRef({ commit, accept });
  latest.current = { commit, accept };

  const push = useCallback(() => {
    known.current = typed.current;
    latest.current.commit(typed.current);
  }, []);

  // Data from outside: shown unless the user's edit is still on its way.
  useLayoutEffect(() => {
    if (text === known.current || isPending(push)) return;
    known.current = text;
    typed.current = text;
    const element = ref.current;
    if (element && element.value !== text) element.value = text;
  }, [text, push]);

  // An edit still pending when the input goes away is not lost.
  useEffect(() => () => void (dropEdit(push) && push()), [push]);

  const onChange = useCallback(
    (event: ChangeEvent<E>) => {
      const element = event.currentTarget;
      const next = element.value;
      if (latest.current.accept && !latest.current.accept(next)) {
        const caret = Math.max(
          0,
          (element.selectionStart ?? next.length) - (next.length - typed.current.length),
        );
        element.value = typed.current;
        element.setSelectionRange(caret, caret);
        return;
      }
      typed.current = next;
      deferEdit(push);
    },
    [push],
  );

  const flush = useCallback(() => {
    if (isPending(push)) flushEdits();
    return typed.current;
  }, [push]);

  return { ref, defaultValue, onChange, flush };
}
