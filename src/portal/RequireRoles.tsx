import type { ReactNode } from 'react';
import { Navigate } from 'react-router-dom';
import { usePortal } from './context';

/**
 * The browser's access rule (specification 000, section 2): signed out goes to sign-in (the
 * 401 page until single sign-on arrives), signed in without any of the roles goes to /403.
 * A convenience only: the server checks the same roles on every call.
 */
export function RequireRoles({
  roles,
  children,
}: {
  roles: readonly string[];
  children: ReactNode;
}) {
  const { session } = usePortal();
  if (!session.signedIn) return <Navigate to="/401" replace />;
  if (!session.hasAnyRole(roles)) return <Navigate to="/403" replace />;
  return <>{children}</>;
}
