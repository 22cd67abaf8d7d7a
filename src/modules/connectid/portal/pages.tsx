import type { ReactNode } from 'react';
import { Navigate } from 'react-router-dom';
import {
  PASSWORD_PATH,
  SECURITY_PATH,
  DATA_PATH,
  PROFILE_EDIT_PATH,
  PROFILE_PATH,
  REGISTER_PATH,
  REGISTRATION_SUCCESS_PATH,
} from '../shared/account-pages';
import { PROFILE_ROLES } from '../../../core/definitions/routes';
import type { DefinitionBundle } from '../../../core/definitions/types';
import type { ModulePage } from '../../../engine/module';
import { lazyPage, NotFoundPage, useModuleSwitch, usePortal } from '../../../portal/module';
import { SELF_REGISTRATION } from './selfRegistration';

/*
 * The user management module's own pages (specification 001): registration in the standalone
 * frame, the signed-in person's profile and password change. Each is fetched when first opened.
 */
const RegisterPage = lazyPage(() => import('./RegisterPage').then((m) => m.RegisterPage));
const RegistrationSuccessPage = lazyPage(() =>
  import('./RegisterPage').then((m) => m.RegistrationSuccessPage),
);
const PasswordPage = lazyPage(() => import('./PasswordPage').then((m) => m.PasswordPage));
const SecurityPage = lazyPage(() => import('./SecurityPage').then((m) => m.SecurityPage));
const MyDataPage = lazyPage(() => import('./MyDataPage').then((m) => m.MyDataPage));

/**
 * /register and /success: for signed-out visitors, and only when the server lets visitors
 * register; otherwise the page does not exist (404). Nothing shows while the server has not said.
 */
function SelfRegistrationOnly({ children }: { children: ReactNode }) {
  const { session } = usePortal();
  const on = useModuleSwitch(SELF_REGISTRATION, !session.signedIn);
  if (session.signedIn) return <Navigate to="/" replace />;
  if (on === undefined) return null;
  return on ? children : <NotFoundPage />;
}

/**
 * The profile pages (/profile, /profile/edit) are the person's own account document, shown by
 * the account workflow's profile screens.
 */
const ownAccount = (to: string) =>
  function OwnAccount() {
    const { session } = usePortal();
    return <Navigate to={to.replace(':id', session.subject ?? '')} replace />;
  };

/** Registration shows the account's own texts. */
const accountDocuments = (bundle: DefinitionBundle) =>
  bundle.workflows.filter((workflow) => workflow.account).map((workflow) => workflow.document);

const registration = { standalone: true, guard: SelfRegistrationOnly, documents: accountDocuments };

export const CONNECTID_PAGES: readonly ModulePage[] = [
  { path: REGISTER_PATH, page: RegisterPage, ...registration },
  { path: REGISTRATION_SUCCESS_PATH, page: RegistrationSuccessPage, ...registration },
  { path: PROFILE_PATH, page: ownAccount('/connectid/accounts/profile/:id'), roles: PROFILE_ROLES },
  {
    path: PROFILE_EDIT_PATH,
    page: ownAccount('/connectid/accounts/profile/edit/:id'),
    roles: PROFILE_ROLES,
  },
  { path: PASSWORD_PATH, page: PasswordPage, roles: PROFILE_ROLES },
  { path: SECURITY_PATH, page: SecurityPage, roles: PROFILE_ROLES },
  { path: DATA_PATH, page: MyDataPage, roles: PROFILE_ROLES },
];
