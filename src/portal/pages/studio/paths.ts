export {
  DEFINITIONS_PUBLISH_ROLE,
  STUDIO_PATH,
  STUDIO_ROLES,
} from '../../../core/definitions/studio-roles';

/** The studio's tabs, each its own address (`/studio/<tab>`). */
export const STUDIO_TABS = ['catalogs', 'forms', 'workflows', 'texts', 'versions'] as const;
export type StudioTab = (typeof STUDIO_TABS)[number];
