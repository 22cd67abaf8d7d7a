import { PROFILE_ROLES } from '../../core/definitions/routes';
import { defineModule } from '../../engine/module';
import { ApiCredentialsPanel } from './portal/ApiCredentialsPanel';
import { CONNECTID_PAGES } from './portal/pages';
import { accountLanguagePreferences } from './portal/preferences';
import { SELF_REGISTRATION, selfRegistrationOn } from './portal/selfRegistration';
import {
  DATA_PATH,
  PASSWORD_PATH,
  PROFILE_PATH,
  REGISTER_PATH,
  SECURITY_PATH,
} from './shared/account-pages';

/**
 * The connectid (user management) module's browser code: its pages, menu links (specification
 * 001, section 2), the API credentials panel (workflows/account.json) and the profile as where
 * the portal keeps a person's language.
 */
export const connectidPortalModule = defineModule({
  id: 'connectid',
  backends: { connectid: '/connectid' },
  panels: { 'api-credentials': ApiCredentialsPanel },
  pages: CONNECTID_PAGES,
  switches: { [SELF_REGISTRATION]: selfRegistrationOn },
  languagePreferences: accountLanguagePreferences,
  menu: {
    id: 'userManagement',
    label: 'menu.userManagement',
    links: [
      // The profile itself is Manage Account's, beside Sign Out: one entry per page.
      {
        id: 'changePassword',
        label: 'menu.changePassword',
        to: PASSWORD_PATH,
        roles: PROFILE_ROLES,
      },
      {
        id: 'security',
        label: 'menu.security',
        to: SECURITY_PATH,
        roles: PROFILE_ROLES,
      },
      {
        id: 'myData',
        label: 'menu.myData',
        to: DATA_PATH,
        roles: PROFILE_ROLES,
      },
      {
        id: 'register',
        label: 'menu.register',
        to: REGISTER_PATH,
        visitors: true,
        when: SELF_REGISTRATION,
        home: 'register.title',
      },
      {
        id: 'manageAccount',
        label: 'menu.manageAccount',
        to: PROFILE_PATH,
        roles: PROFILE_ROLES,
        place: 'account',
      },
    ],
  },
});
