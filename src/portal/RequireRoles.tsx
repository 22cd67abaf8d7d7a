import { useEffect, type ReactNode } from 'react';
import { Navigate, useLocation } from 'react-router-dom';
import { usePortal } from './context';
import { PageLoading } from './lazyPage';

/**
 * The browser's access rule (specification 000, section 2): signed out, to sign-in; without the
 * roles, /403; a spinner while single sign-on starts. The server checks the same roles.
 */
export function RequireRoles({
  roles,
  children,
}: {
  roles: readonly string[];
  children: ReactNode;
}) {
  const { session } = usePortal();
  if (session.pending) return <PageLoading />;
  if (!session.signedIn) return <SignInRedirect />;
  if (!session.hasAnyRole(roles)) return <Navigate to="/403" replace />;
  return <>{children}</>;
}

/** Sends the browser to sign in, back to the current page afterwards; shows a spinner meanwhile. */
function SignInRedirect() {
  const { session } = usePortal();
  const { pathname, search } = useLocation();
  useEffect(() => {
    session.login(`${pathname}${search}`);
  }, [session, pathname, search]);
  return <PageLoading label="menu.signingIn" />;
}
