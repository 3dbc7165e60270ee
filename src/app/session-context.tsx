import { createContext, type ReactNode, useContext } from 'react';
import type { Session } from './wiring/session.js';

const SessionContext = createContext<Session | null>(null);

/** Makes the app-wide session and navigation actors available to every screen. */
export function SessionProvider({ session, children }: { session: Session; children: ReactNode }) {
  return <SessionContext.Provider value={session}>{children}</SessionContext.Provider>;
}

function useSession(): Session {
  const session = useContext(SessionContext);
  if (!session)
    throw new Error('useAuthActor and useNavigationActor need the SessionProvider (src/app/App.tsx)');
  return session;
}

/**
 * The auth actor: read the signed-in user with `useSelector(actor, (s) => s.context.user)`, send
 * `impersonation.begin`, `session.verify` (fetch the user again), `language.change` or `session.logout`.
 */
export function useAuthActor(): Session['auth'] {
  return useSession().auth;
}

/** The navigation actor: read `context.path`, send `route.navigate` to go to a page. */
export function useNavigationActor(): Session['navigation'] {
  return useSession().navigation;
}
