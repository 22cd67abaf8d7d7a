import type { ApiClient } from '../../../core/api/client';

/**
 * Whether the server lets visitors register: only the options' 404 says no; offline or on an
 * error, registration is offered and says itself what went wrong.
 */
export const SELF_REGISTRATION = 'selfRegistration';

export function selfRegistrationOn(api: ApiClient): Promise<boolean> {
  return api.get<unknown>('connectid', '/registration/options').then(
    ([error]) => error?.status !== 404,
    () => true,
  );
}
