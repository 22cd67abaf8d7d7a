import type { PortalRoute } from './routes';

/** Who may read and check definitions in the studio, and who may publish them. */
export const DEFINITIONS_EDIT_ROLE = 'definitions-edit';
export const DEFINITIONS_PUBLISH_ROLE = 'definitions-publish';
export const STUDIO_ROLES: readonly string[] = [DEFINITIONS_EDIT_ROLE, DEFINITIONS_PUBLISH_ROLE];

/** The studio's address: its tabs are `/studio/<tab>`. */
export const STUDIO_PATH = '/studio';

/** The studio's page, for the router and `npm run routes`. */
export function studioRoutes(): PortalRoute[] {
  return [{ path: `${STUDIO_PATH}/:tab?`, roles: [...STUDIO_ROLES], public: false }];
}
