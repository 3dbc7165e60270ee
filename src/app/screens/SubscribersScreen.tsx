import { useSelector } from '@xstate/react';
import { useEffect, useRef, useState } from 'react';
import { ALL_LOCATIONS } from '../../machines/location-selection.machine.js';
import { SubscribersView } from '../../views/subscribers/SubscribersView.js';
import { roleAtLeast } from '../../schemas/roles.js';
import { useAppActor } from '../actors.js';
import { useLocationSelectionActor } from '../location-selection-context.js';
import { useAuthActor, useNavigationActor } from '../session-context.js';
import { csvUploadLogic, subscribersListLogic } from '../wiring/subscribers.js';

/** True for the roles that may add, update and upload subscribers (marketer and above). */
export function useCanWriteSubscribers(): boolean {
  const auth = useAuthActor();
  const role = useSelector(auth, (state) => state.context.user?.role);
  return roleAtLeast(role, 'marketer');
}

/** /subscribers: the subscribers of the selected location or group, their dialogs, upload and export. */
export default function SubscribersScreen() {
  const auth = useAuthActor();
  const navigation = useNavigationActor();
  const timeZone = useSelector(auth, (state) => state.context.user?.settings.time_zone);
  const canWrite = useCanWriteSubscribers();
  const selectionActor = useLocationSelectionActor();
  const selection = useSelector(
    selectionActor ?? undefined,
    (state) => state?.context.selection ?? ALL_LOCATIONS,
  );
  const [initial] = useState(selection);
  const actor = useAppActor(subscribersListLogic, { input: { selection: initial } });
  const uploadActor = useAppActor(csvUploadLogic, { input: { kind: 'subscriber' } });

  // A new choice of location reloads the list from its first page (the name alone changing does not).
  const key = selection.kind === 'all' ? 'all' : `${selection.kind}:${selection.id}`;
  const lastKey = useRef(key);
  useEffect(() => {
    if (key === lastKey.current) return;
    lastKey.current = key;
    actor.send({ type: 'location.change', selection });
  }, [key, selection, actor]);

  // A finished upload refreshes the list 3 seconds later (the list machine's timer).
  useEffect(() => {
    const subscription = uploadActor.on('upload.completed', () => actor.send({ type: 'upload.completed' }));
    return () => subscription.unsubscribe();
  }, [actor, uploadActor]);

  // Opening a profile goes through the navigation machine (layout reset, access checks).
  useEffect(() => {
    const subscription = actor.on('route.open', (event) =>
      navigation.send({ type: 'route.navigate', path: event.path }),
    );
    return () => subscription.unsubscribe();
  }, [actor, navigation]);

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
