import { useEffect, useState } from 'react';
import { usePortal } from './context';

type Answer<T> = { value?: T; failed?: true };
const ASKING: Answer<never> = {};

/** A GET's answer: `value` once here, `failed` if it cannot be had; asked again as `path` changes. */
export function useApiGet<T>(backend: string, path: string): Answer<T> {
  const { api } = usePortal();
  const [answer, setAnswer] = useState<Answer<T>>(ASKING);
  useEffect(() => {
    let current = true;
    setAnswer(ASKING);
    void api.get<T>(backend, path).then(([error, value]) => {
      if (current) setAnswer(error ? { failed: true } : { value });
    });
    return () => {
      current = false;
    };
  }, [api, backend, path]);
  return answer;
}
