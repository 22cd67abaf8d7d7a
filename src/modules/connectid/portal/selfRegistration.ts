import type { ApiClient } from '../../../core/api/client';

/**
 * Whether the server lets visitors register (its SELF_REGISTRATION switch): the registration
 * options answer 404 when it is off. Only that 404 says so: offline (the page comes from the
 * worker's cache) or on a server error, registration is offered and says itself what went wrong.
 */
export const SELF_REGISTRATION = 'selfRegistration';

export function selfRegistrationOn(api: ApiClient): Promise<boolean> {
  return api.get<unknown>('connectid', '/registration/options').then(
    ([error]) => error?.status !== 404,
    () => true,
  );
}
