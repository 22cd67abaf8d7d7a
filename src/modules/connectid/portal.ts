import { defineModule } from '../../engine/module';
import { ApiCredentialsPanel } from './portal/ApiCredentialsPanel';

/**
 * The connectid (user management) module's browser code: the API credentials panel that the
 * account workflow's API credentials screen names (`panels`, workflows/account.json).
 */
export const connectidPortalModule = defineModule({
  id: 'connectid',
  panels: { 'api-credentials': ApiCredentialsPanel },
});
