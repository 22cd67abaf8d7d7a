import { defineModule } from '../../engine/module';
import { ApiCredentialsPanel } from './portal/ApiCredentialsPanel';
import { CONNECTID_PAGES } from './portal/pages';

/**
 * The connectid (user management) module's browser code: its own pages (registration, profile,
 * password change) and the API credentials panel that the account workflow's API credentials
 * screen names (`panels`, workflows/account.json).
 */
export const connectidPortalModule = defineModule({
  id: 'connectid',
  panels: { 'api-credentials': ApiCredentialsPanel },
  pages: CONNECTID_PAGES,
});
