import type { PortalRoute } from './routes';

/**
 * The developer outbox page (outside production): the messages the portal queued, confirmation
 * codes among them, for the role that may read them. The server's GET /api/outbox checks the
 * same role; the router and `npm run routes` read the page here.
 */
export const DEVELOPER_OUTBOX_PATH = '/dev/outbox';
export const DEVELOPER_OUTBOX_ROLE = 'outbox-read';

export function developerPageRoutes(): PortalRoute[] {
  return [{ path: DEVELOPER_OUTBOX_PATH, roles: [DEVELOPER_OUTBOX_ROLE], public: false }];
}
