import { PROFILE_ROLES, type PortalRoute } from '../../../core/definitions/routes';
import { isModuleEnabled, type ModuleDefinition } from '../../../core/definitions/types';

/**
 * The user management module's own pages (specification 001, section 2): profile, password
 * change, self-registration. No workflow's screens: the router, menu and `npm run routes` read
 * them here.
 */
export const USER_MANAGEMENT_MODULE = 'connectid';

/** The user's own profile (the account workflow's profile screen), the menu's Profile. */
export const PROFILE_PATH = '/connectid/profile';
export const PROFILE_EDIT_PATH = '/connectid/profile/edit';
/** The password change page, the menu's Change password. */
export const PASSWORD_PATH = '/connectid/profile/password';
/** Where the person is signed in, their second factors and recovery codes (docs/identity.md). */
export const SECURITY_PATH = '/connectid/profile/security';
/** The person's own data: the archive to download, and the request to close the account. */
export const DATA_PATH = '/connectid/profile/data';
/** Self-registration and the page it ends on: signed-out visitors, when it is switched on. */
export const REGISTER_PATH = '/register';
export const REGISTRATION_SUCCESS_PATH = '/success';

/** A route that exists only when the server's self-registration switch is on. */
export interface AccountPageRoute extends PortalRoute {
  /** Present on the registration pages: the server config that switches them on. */
  when?: 'selfRegistration';
}

/**
 * The user management module's own pages (none when the module is off); the registration pages
 * only when `selfRegistration` is on (the server's SELF_REGISTRATION).
 */
export function accountPageRoutes(
  definitions: { modules: ModuleDefinition[] },
  selfRegistration: boolean,
): AccountPageRoute[] {
  if (!isModuleEnabled(definitions, USER_MANAGEMENT_MODULE)) return [];
  const own = [PROFILE_PATH, PROFILE_EDIT_PATH, PASSWORD_PATH, SECURITY_PATH, DATA_PATH].map(
    (path) => ({
      path,
      roles: [...PROFILE_ROLES],
      public: false,
    }),
  );
  const registration = selfRegistration
    ? [REGISTER_PATH, REGISTRATION_SUCCESS_PATH].map((path) => ({
        path,
        roles: [],
        public: true,
        when: 'selfRegistration' as const,
      }))
    : [];
  return [...own, ...registration];
}
