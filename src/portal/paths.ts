import { PROFILE_ROLES } from './session';

/** The signed-in user's home page (dashboard module). */
export const DASHBOARD_HOME_PATH = '/dashboard/home';
export const MY_LIBRARY_PATH = '/dashboard/my-library';
export const MY_TASKS_PATH = '/dashboard/my-tasks';
export const DASHBOARD_ROLES: readonly string[] = PROFILE_ROLES;

/** The user's own profile page (user management module), the menu's "Manage Account". */
export const PROFILE_PATH = '/connectid/profile';
export const PROFILE_PAGE_ROLES: readonly string[] = PROFILE_ROLES;

/** The public home page. */
export const HOME_PATH = '/home';
