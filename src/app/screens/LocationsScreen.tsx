import { useSelector } from '@xstate/react';
import { useAppActor } from '../actors.js';
import { useCallback, useEffect, useState } from 'react';
import type { ActorRefFrom } from 'xstate';
import type { ListNotice } from '../../machines/kit/list-machine.js';
import type { locationGroupsMachine } from '../../machines/location-groups.machine.js';
import {
  isDateRange,
  type DateRange,
  type locationsAdminMachine,
} from '../../machines/locations-admin.machine.js';
import { now } from '../../services/clock.js';
import { LocationsView } from '../../views/locations/LocationsView.js';
import { roleAtLeast } from '../../schemas/roles.js';
import { type LocationSelectionActor, useLocationSelectionActor } from '../location-selection-context.js';
import { useAuthActor } from '../session-context.js';
import {
  locationGroupCreateLogic,
  locationGroupsLogic,
  locationsAdminLogic,
} from '../wiring/locations-admin.js';

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
  const [start] = useState(() => ({ filters: { range: lastDays(30) } }));
  const actor = useAppActor(locationsAdminLogic, { input: start });
  const groupsActor = useAppActor(locationGroupsLogic, { input: start });
  const groupActor = useAppActor(locationGroupCreateLogic);
  const selection = useLocationSelectionActor();
  const range = useSelector(actor, (state) => state.context.filters.range) ?? start.filters.range;

  // A saved group reloads both lists (members and groups change) and the location picker's.
  useEffect(() => {
    const subscription = groupActor.on('group.saved', (event) => {
      groupsActor.send({ type: 'list.refresh', notice: event.created ? 'created' : 'updated' });
      actor.send({ type: 'notice.dismiss' });
      actor.send({ type: 'list.refresh' });
      selection?.send({ type: 'choices.changed' });
    });
    return () => subscription.unsubscribe();
  }, [actor, groupsActor, groupActor, selection]);
  useLocationChanges(actor, groupsActor, selection);

  // Both lists show the same period; a period ending before it starts is not asked for.
  const changeRange = useCallback(
    (next: DateRange) => {
      if (!isDateRange(next)) return;
      for (const list of [actor, groupsActor])
        list.send({ type: 'filters.change', filters: { range: next } });
    },
    [actor, groupsActor],
  );

  return (
    <LocationsView
      actor={actor}
      groupsActor={groupsActor}
      groupActor={groupActor}
      range={range}
      onRangeChange={changeRange}
      canManage={canManage}
      timeZones={TIME_ZONES}
    />
  );
}

/** A change the list announces with a notice (its own dialogs, not a refresh it was told about). */
function changedBy(notice: ListNotice | null): boolean {
  return notice === 'created' || notice === 'updated' || notice === 'deleted';
}

/**
 * After a location changed, the groups list (its members) and the location picker load again; after
 * a group was deleted, the locations list (their groups) and the picker do. The other list's notice
 * goes, so the screen tells only the latest change.
 */
export function useLocationChanges(
  locations: ActorRefFrom<typeof locationsAdminMachine>,
  groups: ActorRefFrom<typeof locationGroupsMachine>,
  selection: LocationSelectionActor | null,
): void {
  useEffect(() => {
    let lastLocationNotice: ListNotice | null = null;
    let lastGroupNotice: ListNotice | null = null;
    const locationChanges = locations.subscribe((snapshot) => {
      const { notice } = snapshot.context;
      if (changedBy(notice) && notice !== lastLocationNotice) {
        // One notice at a time on the screen: the latest change's.
        groups.send({ type: 'notice.dismiss' });
        groups.send({ type: 'list.refresh' });
        selection?.send({ type: 'choices.changed' });
      }
      lastLocationNotice = notice;
    });
    // The group dialog's saves come with their own refresh (the screen's group.saved handler).
    const groupDeletes = groups.subscribe((snapshot) => {
      const { notice } = snapshot.context;
      if (notice === 'deleted' && notice !== lastGroupNotice) {
        locations.send({ type: 'notice.dismiss' });
        locations.send({ type: 'list.refresh' });
        selection?.send({ type: 'choices.changed' });
      }
      lastGroupNotice = notice;
    });
    return () => {
      locationChanges.unsubscribe();
      groupDeletes.unsubscribe();
    };
  }, [locations, groups, selection]);
}
