import { useSelector } from '@xstate/react';
import { createContext, type ReactNode, useContext, useEffect, useRef } from 'react';
import type { ActorRefFrom } from 'xstate';
import type { locationSelectionMachine } from '../machines/location-selection.machine.js';
import { useAppActor } from './actors.js';
import { useAuthActor } from './session-context.js';
import { locationSelectionLogic } from './wiring/locations.js';

/** The app-wide location-selection actor. */
export type LocationSelectionActor = ActorRefFrom<typeof locationSelectionMachine>;

const LocationSelectionContext = createContext<LocationSelectionActor | null>(null);

/**
 * Creates the app-wide location selection once (restored from session storage) and provides it to
 * the header's picker and to every screen that filters by location. When the signed-in user signs
 * out or starts acting in another company, the selection returns to every location.
 */
export function LocationSelectionProvider({ children }: { children: ReactNode }) {
  const actor = useAppActor(locationSelectionLogic);
  const auth = useAuthActor();
  const who = useSelector(auth, (state) => {
    const user = state.context.user;
    return user ? `${user.company.id}:${user.id}` : null;
  });
  // The first user after a reload keeps the restored choice; a later change of user drops it.
  const previous = useRef<string | null>(null);
  useEffect(() => {
    if (previous.current !== null && previous.current !== who) actor.send({ type: 'selection.reset' });
    previous.current = who;
  }, [actor, who]);
  return <LocationSelectionContext.Provider value={actor}>{children}</LocationSelectionContext.Provider>;
}

/**
 * The location-selection actor, or null outside the provider. Read the choice with
 * `useSelector(actor, (s) => s.context.selection)` (`{kind: 'all'}` or `{kind, id, name}`); send
 * `choice.select` to set it or `choices.changed` after locations or groups changed.
 */
export function useLocationSelectionActor(): LocationSelectionActor | null {
  return useContext(LocationSelectionContext);
}
