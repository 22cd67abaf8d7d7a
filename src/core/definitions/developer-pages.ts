import type { PortalRoute } from './routes';

/** The developer outbox page (outside production), read by the router and `npm run routes`. */
export const DEVELOPER_OUTBOX_PATH = '/dev/outbox';
export const DEVELOPER_OUTBOX_ROLE = 'outbox-read';

export function developerPageRoutes(): PortalRoute[] {
  return [{ path: DEVELOPER_OUTBOX_PATH, roles: [DEVELOPER_OUTBOX_ROLE], public: false }];
}
