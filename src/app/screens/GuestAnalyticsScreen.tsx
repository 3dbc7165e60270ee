import { Stack } from '@mantine/core';
import { useSelector } from '@xstate/react';
import { useEffect, useRef, useState } from 'react';
import { GuestAnalyticsDashboardView } from '../../views/guest-dashboards/GuestAnalyticsDashboardView.js';
import { GuestAnalyticsView } from '../../views/guests/GuestAnalyticsView.js';
import { roleAtLeast } from '../../schemas/roles.js';
import { useAppActor } from '../actors.js';
import { useDashboardActor } from '../use-dashboard-actor.js';
import { useLocationFilter } from '../location-filter.js';
import { useAuthActor } from '../session-context.js';
import { filePagingLogic } from '../wiring/file-paging.js';
import { guestAnalyticsDashboardLogic } from '../wiring/guest-dashboards.js';
import { guestListLogic } from '../wiring/guests.js';
import { guestsToInviteLogic } from '../wiring/guests-to-invite.js';
import { csvUploadLogic } from '../wiring/subscribers.js';
import { useCanWriteSubscribers, useOpenProfile } from './SubscribersScreen.js';

/**
 * /guest/analytics: new and returning guests, visit frequency and cohorts over the dashboards' range, then the
 * guest list and the guests not yet subscribed, for the selected locations.
 */
export default function GuestAnalyticsScreen() {
  const openProfile = useOpenProfile('guest');
  const auth = useAuthActor();
  const timeZone = useSelector(auth, (state) => state.context.user?.settings.time_zone);
  const { filter, key } = useLocationFilter();
  // The first filter is the actors' input; later changes are sent as events.
  const [initial] = useState(() => ({ filter, key }));
  const listActor = useAppActor(guestListLogic, { input: { filters: initial.filter } });
  const inviteActor = useAppActor(filePagingLogic, { input: { kind: 'guest', filter: initial.filter } });
  const toInviteActor = useAppActor(guestsToInviteLogic, { input: { filter: initial.filter } });
  const uploadActor = useAppActor(csvUploadLogic, { input: { kind: 'guest' } });
  const checksUploadActor = useAppActor(csvUploadLogic, { input: { kind: 'checks' } });
  const canUpload = useCanWriteSubscribers();
  const role = useSelector(auth, (state) => state.context.user?.role);
  const canDelete = roleAtLeast(role, 'admin');
  const dashboard = useDashboardActor(guestAnalyticsDashboardLogic);

  // A finished upload refreshes the list 3 seconds later (the list machine's timer) and the invite count.
  useEffect(() => {
    const refresh = () => {
      listActor.send({ type: 'list.refresh' });
      toInviteActor.send({ type: 'count.refresh' });
    };
    // Checks bring new guests and visits too.
    const subscriptions = [uploadActor, checksUploadActor].map((actor) =>
      actor.on('upload.completed', refresh),
    );
    return () => subscriptions.forEach((subscription) => subscription.unsubscribe());
  }, [listActor, uploadActor, checksUploadActor, toInviteActor]);

  // A guest who became a subscriber leaves the invite rows (read again from the first file, the new
  // subscriber's POS id now dropped) and shows subscribed in the guest list.
  useEffect(() => {
    const subscription = toInviteActor.on('subscriber.added', () => {
      inviteActor.send({ type: 'filter.change', filter: toInviteActor.getSnapshot().context.filter });
      listActor.send({ type: 'list.refresh' });
    });
    return () => subscription.unsubscribe();
  }, [toInviteActor, inviteActor, listActor]);

  // A new choice reloads both from their first page; the key changes only when the choice does.
  const lastKey = useRef(initial.key);
  useEffect(() => {
    if (key === lastKey.current) return;
    lastKey.current = key;
    listActor.send({ type: 'filters.change', filters: filter });
    inviteActor.send({ type: 'filter.change', filter });
    toInviteActor.send({ type: 'filter.change', filter });
  }, [key, filter, listActor, inviteActor, toInviteActor]);

  useEffect(() => {
    const subscription = listActor.on('item.opened', ({ item }) => openProfile(item));
    return () => subscription.unsubscribe();
  }, [listActor, openProfile]);

  return (
    <Stack gap="xl">
      <GuestAnalyticsDashboardView actor={dashboard.actor} {...dashboard.rangeProps} />
      <GuestAnalyticsView
        listActor={listActor}
        inviteActor={inviteActor}
        toInviteActor={toInviteActor}
        uploadActor={uploadActor}
        canUpload={canUpload}
        // Admins and owners send checks, as the API allows (the same least role as deleting a guest).
        checksUploadActor={canDelete ? checksUploadActor : null}
        canAddSubscribers={canUpload}
        canDelete={canDelete}
        timeZone={timeZone}
      />
    </Stack>
  );
}
