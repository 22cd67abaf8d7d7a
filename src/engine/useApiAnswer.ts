import {
  useEffect,
  useState,
  type DependencyList,
  type Dispatch,
  type SetStateAction,
} from 'react';
import type { ApiResult } from '../core/api/client';
import { useApiMessage } from './useApiMessage';

/** A panel's answer from the server, its failure worded, and how to ask again. */
export interface ApiAnswer<T> {
  /** Null until the first answer. */
  value: T | null;
  /** What an action answered replaces it, without asking again. */
  setValue: Dispatch<SetStateAction<T | null>>;
  /** The last failure in the reader's words; empty when none. */
  failure: string;
  setFailure: Dispatch<SetStateAction<string>>;
  /** Asks again (after an action whose answer is not the whole value). */
  reload: () => void;
}

/**
 * What `load` answers, asked on mounting and again as `deps` change or on `reload`: the answer
 * kept until the next, a failure said in the reader's language, and an answer arriving after the
 * panel moved on (another document, a newer ask) dropped. The document screen's panels (flags,
 * case notes, payers, delegates, share codes) each load this way.
 */
export function useApiAnswer<T>(
  load: () => Promise<ApiResult<T>>,
  deps: DependencyList,
): ApiAnswer<T> {
  const messageOf = useApiMessage();
  const [value, setValue] = useState<T | null>(null);
  const [failure, setFailure] = useState('');
  const [round, setRound] = useState(0);
  useEffect(() => {
    let current = true;
    void load().then(([error, answer]) => {
      if (!current) return;
      if (error) return setFailure(messageOf(error));
      setValue(() => answer);
      setFailure('');
    });
    return () => {
      current = false;
    };
    // `load` is a new function each render: what it asks for is named by `deps`.
  }, [...deps, round, messageOf]);
  return { value, setValue, failure, setFailure, reload: () => setRound((n) => n + 1) };
}
