import type { SessionStore } from './keycloak';
import type { Session } from './session';

/** The session store while single sign-on starts: signed out and `pending`, then the real one. */
export function pendingSessionStore(starting: Promise<SessionStore>): SessionStore {
  let started: SessionStore | undefined;
  const listeners = new Set<() => void>();
  const pending: Session = {
    signedIn: false,
    pending: true,
    roles: [],
    token: async () => (await starting).current().token(),
    hasAnyRole: () => false,
    login: (redirectPath) => void starting.then((store) => store.current().login(redirectPath)),
    logout: () => void starting.then((store) => store.current().logout()),
  };
  void starting.then((store) => {
    started = store;
    store.subscribe(() => listeners.forEach((listener) => listener()));
    listeners.forEach((listener) => listener());
  });
  return {
    current: () => started?.current() ?? pending,
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}
