import { PROFILE_ROLES } from './session';

export {
  PASSWORD_PATH,
  PROFILE_EDIT_PATH,
  PROFILE_PATH,
  REGISTER_PATH,
  REGISTRATION_SUCCESS_PATH,
  USER_MANAGEMENT_MODULE,
} from '../core/definitions/account-pages';

/** The signed-in user's home page (dashboard module). */
export const DASHBOARD_HOME_PATH = '/dashboard/home';
export const MY_LIBRARY_PATH = '/dashboard/my-library';
export const MY_TASKS_PATH = '/dashboard/my-tasks';
export const DASHBOARD_ROLES: readonly string[] = PROFILE_ROLES;

/** Roles of the user's own pages (profile, password). */
export const PROFILE_PAGE_ROLES: readonly string[] = PROFILE_ROLES;

/** The public home page. */
export const HOME_PATH = '/home';
