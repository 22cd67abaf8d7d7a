/** The signed-in user's home page (dashboard module). */
export const DASHBOARD_HOME_PATH = '/dashboard/home';
export const MY_LIBRARY_PATH = '/dashboard/my-library';
export const MY_TASKS_PATH = '/dashboard/my-tasks';
export { DASHBOARD_ROLES } from '../core/dashboard/types';

/** The public home page. */
export const HOME_PATH = '/home';

/** The finance officers' payment report (docs/payments.md, "The payment report"). */
export const PAYMENT_REPORT_PAGE_PATH = '/finance/payment-report';
