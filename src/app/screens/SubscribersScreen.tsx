import { useSelector } from '@xstate/react';
import { useCallback, useEffect, useRef, useState } from 'react';
import type { CustomerKind } from '../../schemas/customers.js';
import { profilePath } from '../../machines/guest-list.machine.js';
import { ALL_LOCATIONS } from '../../machines/location-selection.machine.js';
import { locationFilterOf } from '../../machines/subscribers-list.machine.js';
import { SubscribersView } from '../../views/subscribers/SubscribersView.js';
import { roleAtLeast } from '../../schemas/roles.js';
import { useAppActor } from '../actors.js';
import { useLocationSelectionActor } from '../location-selection-context.js';
import { useAuthActor, useNavigationActor } from '../session-context.js';
import { rememberProfileKind } from '../wiring/guests.js';
import { csvUploadLogic, subscribersListLogic } from '../wiring/subscribers.js';

/** True for the roles that may add, update and upload subscribers (marketer and above). */
export function useCanWriteSubscribers(): boolean {
  const auth = useAuthActor();
  const role = useSelector(auth, (state) => state.context.user?.role);
  return roleAtLeast(role, 'marketer');
}

/**
 * Opens a subscriber's or guest's profile: stores which kind the profile screen loads, then asks the
 * navigation machine (layout reset, access checks) to go there.
 */
export function useOpenProfile(kind: CustomerKind) {
  const navigation = useNavigationActor();
  return useCallback(
    (person: { id: number; hashid: string; pos_id: string | null }) => {
      try {
        rememberProfileKind(kind);
      } catch {
        // Without storage the profile screen falls back to the path's kind, which is the same.
      }
      navigation.send({ type: 'route.navigate', path: profilePath(kind, person) });
    },
    [kind, navigation],
  );
}

/** /subscribers: the subscribers of the selected location or group, their dialogs, upload and export. */
export default function SubscribersScreen() {
  const auth = useAuthActor();
  const timeZone = useSelector(auth, (state) => state.context.user?.settings.time_zone);
  const canWrite = useCanWriteSubscribers();
  const openProfile = useOpenProfile('subscriber');
  const selectionActor = useLocationSelectionActor();
  const selection = useSelector(
    selectionActor ?? undefined,
    (state) => state?.context.selection ?? ALL_LOCATIONS,
  );
  const [initial] = useState(selection);
  const actor = useAppActor(subscribersListLogic, { input: { filters: locationFilterOf(initial) } });
  const uploadActor = useAppActor(csvUploadLogic, { input: { kind: 'subscriber' } });

  // A new choice of location reloads the list from its first page (the name alone changing does not).
  const key = selection.kind === 'all' ? 'all' : `${selection.kind}:${selection.id}`;
  const lastKey = useRef(key);
  useEffect(() => {
    if (key === lastKey.current) return;
    lastKey.current = key;
    actor.send({ type: 'filters.change', filters: locationFilterOf(selection) });
  }, [key, selection, actor]);

  // A finished upload refreshes the list 3 seconds later (the list machine's timer).
  useEffect(() => {
    const subscription = uploadActor.on('upload.completed', () =>
      actor.send({ type: 'list.refresh', notice: 'uploaded' }),
    );
    return () => subscription.unsubscribe();
  }, [actor, uploadActor]);

  useEffect(() => {
    const subscription = actor.on('item.opened', ({ item }) => openProfile(item));
    return () => subscription.unsubscribe();
  }, [actor, openProfile]);

  return (
    <SubscribersView
      actor={actor}
      uploadActor={uploadActor}
      selectionName={selection.kind === 'all' ? null : selection.name}
      canWrite={canWrite}
      timeZone={timeZone}
    />
  );
}
