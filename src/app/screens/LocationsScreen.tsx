import { useSelector } from '@xstate/react';
import { useAppActor } from '../actors.js';
import { useEffect, useState } from 'react';
import type { ActorRefFrom } from 'xstate';
import type {
  DateRange,
  LocationsNotice,
  locationsAdminMachine,
} from '../../machines/locations-admin.machine.js';
import { now } from '../../services/clock.js';
import { LocationsView } from '../../views/locations/LocationsView.js';
import { roleAtLeast } from '../../schemas/roles.js';
import { type LocationSelectionActor, useLocationSelectionActor } from '../location-selection-context.js';
import { useAuthActor } from '../session-context.js';
import { locationGroupCreateLogic, locationsAdminLogic } from '../wiring/locations-admin.js';

/** Every time zone the runtime knows, for the location dialog. */
export const TIME_ZONES: readonly string[] = Intl.supportedValuesOf('timeZone');

const DAY_MS = 24 * 60 * 60 * 1000;

/** The last `days` days up to today (UTC), both ends included. */
export function lastDays(days: number, at: number = now()): DateRange {
  return {
    from_date: new Date(at - (days - 1) * DAY_MS).toISOString().slice(0, 10),
    to_date: new Date(at).toISOString().slice(0, 10),
  };
}

/** True for the roles that may change locations and groups (the server refuses the others). */
export function useCanManageLocations(): boolean {
  const auth = useAuthActor();
  const role = useSelector(auth, (state) => state.context.user?.role);
  return roleAtLeast(role, 'admin');
}

/** /locations: locations with their groups and ROI for the last 30 days by default, and groups. */
export default function LocationsScreen() {
  const canManage = useCanManageLocations();
  const [range] = useState(() => lastDays(30));
  const actor = useAppActor(locationsAdminLogic, { input: { range } });
  const groupActor = useAppActor(locationGroupCreateLogic);
  const selection = useLocationSelectionActor();

  // A saved group reloads this screen's lists and the location picker's.
  useEffect(() => {
    const subscription = groupActor.on('group.saved', (event) => {
      actor.send({ type: 'groups.changed', created: event.created });
      selection?.send({ type: 'choices.changed' });
    });
    return () => subscription.unsubscribe();
  }, [actor, groupActor, selection]);
  useLocationChanges(actor, selection);

  return <LocationsView actor={actor} groupActor={groupActor} canManage={canManage} timeZones={TIME_ZONES} />;
}

/** Tells the location picker to load its lists again after a location or group changed here. */
export function useLocationChanges(
  actor: ActorRefFrom<typeof locationsAdminMachine>,
  selection: LocationSelectionActor | null,
): void {
  useEffect(() => {
    let last: LocationsNotice | null = null;
    const subscription = actor.subscribe((snapshot) => {
      const { notice } = snapshot.context;
      if (notice && notice !== last) selection?.send({ type: 'choices.changed' });
      last = notice;
    });
    return () => subscription.unsubscribe();
  }, [actor, selection]);
}
