import { useEffect, useState } from 'react';
import type { ApiClient } from '../core/api/client';
import { usePortal } from './context';

/**
 * Whether the server lets visitors register (its SELF_REGISTRATION switch). The registration
 * options answer 404 when it is off, so that one call says it; asked once per API client (the
 * menu and the register page share the answer) and only when `wanted` (signed out: nobody
 * signed in registers).
 */
const answers = new WeakMap<ApiClient, Promise<boolean>>();

export function selfRegistrationOn(api: ApiClient): Promise<boolean> {
  let answer = answers.get(api);
  if (!answer) {
    // Only the server's 404 says it is off: offline (the page comes from the worker's cache)
    // or on a server error, the page is offered and says itself what went wrong.
    answer = api.get<unknown>('connectid', '/registration/options').then(
      ([error]) => error?.status !== 404,
      () => true,
    );
    answers.set(api, answer);
  }
  return answer;
}

/**
 * `undefined` while the server has not answered (or when not `wanted`, or while single sign-on
 * is still starting: a person about to be found signed in never needs the answer).
 */
export function useSelfRegistration(wanted: boolean): boolean | undefined {
  const { api, session } = usePortal();
  const [on, setOn] = useState<boolean | undefined>(undefined);
  const asked = wanted && !session.pending;
  useEffect(() => {
    if (!asked) return;
    let current = true;
    void selfRegistrationOn(api).then((value) => {
      if (current) setOn(value);
    });
    return () => {
      current = false;
    };
  }, [api, asked]);
  return asked ? on : undefined;
}
