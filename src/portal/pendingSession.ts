import type { SessionStore } from './keycloak';
import { listeners } from './listeners';
import { signedOutSession, type Session } from './session';

/** The session store while single sign-on starts: signed out and `pending`, then the real one. */
export function pendingSessionStore(starting: Promise<SessionStore>): SessionStore {
  let started: SessionStore | undefined;
  const changes = listeners();
  const pending: Session = {
    ...signedOutSession(
      (redirectPath) => void starting.then((store) => store.current().login(redirectPath)),
    ),
    pending: true,
    token: async () => (await starting).current().token(),
    logout: () => void starting.then((store) => store.current().logout()),
  };
  void starting.then((store) => {
    started = store;
    store.subscribe(changes.notify);
    changes.notify();
  });
  return { current: () => started?.current() ?? pending, subscribe: changes.subscribe };
}
