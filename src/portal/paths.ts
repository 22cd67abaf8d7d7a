import { PROFILE_ROLES } from './session';

/** The signed-in user's home page (dashboard module). */
export const DASHBOARD_HOME_PATH = '/dashboard/home';
export const MY_LIBRARY_PATH = '/dashboard/my-library';
export const MY_TASKS_PATH = '/dashboard/my-tasks';
export const DASHBOARD_ROLES: readonly string[] = PROFILE_ROLES;

/** The public home page. */
export const HOME_PATH = '/home';
