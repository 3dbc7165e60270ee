import { useSelector } from '@xstate/react';
import { useEffect, useRef, useState } from 'react';
import type { LocationFilter } from '../../machines/file-paging.machine.js';
import type { LocationSelection } from '../../machines/location-selection.machine.js';
import { GuestAnalyticsView } from '../../views/guests/GuestAnalyticsView.js';
import { roleAtLeast } from '../../schemas/roles.js';
import { useAppActor } from '../actors.js';
import { useLocationSelectionActor } from '../location-selection-context.js';
import { useAuthActor, useNavigationActor } from '../session-context.js';
import { filePagingLogic } from '../wiring/file-paging.js';
import { guestListLogic } from '../wiring/guests.js';
import { csvUploadLogic } from '../wiring/subscribers.js';
import { useCanWriteSubscribers } from './SubscribersScreen.js';

/** The app's location selection as the API's repeated filters. */
export function filterOf(selection: LocationSelection | undefined): LocationFilter {
  if (selection?.kind === 'location') return { location_id: [selection.id], location_group_id: [] };
  if (selection?.kind === 'group') return { location_id: [], location_group_id: [selection.id] };
  return { location_id: [], location_group_id: [] };
}

/** The selected location or group as filters, and a key that changes only when the choice does. */
export function useLocationFilter(): { filter: LocationFilter; key: string } {
  const selectionActor = useLocationSelectionActor();
  const key = useSelector(selectionActor ?? undefined, (state) => {
    const selection = state?.context.selection;
    return selection && selection.kind !== 'all' ? `${selection.kind}:${selection.id}` : 'all';
  });
  const [kind, id] = (key ?? 'all').split(':');
  const filter = filterOf(
    kind === 'location' || kind === 'group' ? { kind, id: Number(id), name: '' } : { kind: 'all' },
  );
  return { filter, key: key ?? 'all' };
}

/** /guest/analytics: the guest list and the guests not yet subscribed, for the selected locations. */
export default function GuestAnalyticsScreen() {
  const navigation = useNavigationActor();
  const auth = useAuthActor();
  const timeZone = useSelector(auth, (state) => state.context.user?.settings.time_zone);
  const { filter, key } = useLocationFilter();
  // The first filter is the actors' input; later changes are sent as events.
  const [initial] = useState(() => ({ filter, key }));
  const listActor = useAppActor(guestListLogic, { input: { filter: initial.filter } });
  const inviteActor = useAppActor(filePagingLogic, { input: { kind: 'guest', filter: initial.filter } });
  const uploadActor = useAppActor(csvUploadLogic, { input: { kind: 'guest' } });
  const canUpload = useCanWriteSubscribers();
  const role = useSelector(auth, (state) => state.context.user?.role);
  const canDelete = roleAtLeast(role, 'admin');

  // A finished upload refreshes the list 3 seconds later (the list machine's timer).
  useEffect(() => {
    const subscription = uploadActor.on('upload.completed', () =>
      listActor.send({ type: 'upload.completed' }),
    );
    return () => subscription.unsubscribe();
  }, [listActor, uploadActor]);

  // A new choice reloads both from their first page; the key changes only when the choice does.
  const lastKey = useRef(initial.key);
  useEffect(() => {
    if (key === lastKey.current) return;
    lastKey.current = key;
    listActor.send({ type: 'filter.change', filter });
    inviteActor.send({ type: 'filter.change', filter });
  }, [key, filter, listActor, inviteActor]);

  useEffect(() => {
    const subscription = listActor.on('route.open', (event) =>
      navigation.send({ type: 'route.navigate', path: event.path }),
    );
    return () => subscription.unsubscribe();
  }, [listActor, navigation]);

  return (
    <GuestAnalyticsView
      listActor={listActor}
      inviteActor={inviteActor}
      uploadActor={uploadActor}
      canUpload={canUpload}
      canDelete={canDelete}
      timeZone={timeZone}
    />
  );
}
