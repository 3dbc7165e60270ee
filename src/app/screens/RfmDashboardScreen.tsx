import { useSelector } from '@xstate/react';
import { useCallback, useEffect, useRef, useState } from 'react';
import type { Guest } from '../../schemas/guests.js';
import { profilePath } from '../../machines/guest-list.machine.js';
import { roleAtLeast } from '../../schemas/roles.js';
import { RfmDashboardView } from '../../views/rfm/RfmDashboardView.js';
import { useAppActor } from '../actors.js';
import { useAuthActor, useNavigationActor } from '../session-context.js';
import { rfmDashboardLogic } from '../wiring/rfm-dashboard.js';
import { useLocationFilter } from '../location-filter.js';
import { rememberProfileKind } from '../wiring/guests.js';

/**
 * /rfm-dashboard: the RFM grid and cells of the header's picked locations; a cell's guest opens their profile and
 * a cell saved as a segment opens the segment list on it.
 */
export default function RfmDashboardScreen() {
  const auth = useAuthActor();
  const role = useSelector(auth, (state) => state.context.user?.role);
  const timeZone = useSelector(auth, (state) => state.context.user?.settings.time_zone);
  const navigation = useNavigationActor();
  // The guest's profile, as the guest list opens it (the profile kind stored for the profile screen).
  const openProfile = useCallback(
    (guest: Guest) => {
      try {
        rememberProfileKind('guest');
      } catch {
        // Without storage the profile screen falls back to the path's kind, which is the same.
      }
      navigation.send({ type: 'route.navigate', path: profilePath('guest', guest) });
    },
    [navigation],
  );
  const { filter, key } = useLocationFilter();
  // The first filter is the actor's input; later choices are sent as events.
  const [initial] = useState(() => ({ filter, key }));
  const actor = useAppActor(rfmDashboardLogic, { input: { filter: initial.filter } });

  const lastKey = useRef(initial.key);
  useEffect(() => {
    if (key === lastKey.current) return;
    lastKey.current = key;
    actor.send({ type: 'filter.change', filter });
  }, [key, filter, actor]);

  useEffect(() => {
    const subscriptions = [
      actor.on('guest.opened', ({ guest }) => openProfile(guest)),
      actor.on('segment.saved', ({ id }) =>
        navigation.send({ type: 'route.navigate', path: `/segments?segment=${id}` }),
      ),
    ];
    return () => subscriptions.forEach((subscription) => subscription.unsubscribe());
  }, [actor, openProfile, navigation]);

  return <RfmDashboardView actor={actor} canSave={roleAtLeast(role, 'marketer')} timeZone={timeZone} />;
}
