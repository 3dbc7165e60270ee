import { useSelector } from '@xstate/react';
import { useAppActor } from '../actors.js';
import { useState } from 'react';
import { LocationsSetupView } from '../../views/locations/LocationsSetupView.js';
import { useLocationSelectionActor } from '../location-selection-context.js';
import { locationGroupsLogic, locationsAdminLogic } from '../wiring/locations-admin.js';
import { lastDays, TIME_ZONES, useCanManageLocations, useLocationChanges } from './LocationsScreen.js';

// "Has POS checks" reads the ROI since this date: any check ever recorded counts.
const ALL_TIME_FROM = '2000-01-01';

// One empty list, so the view's props stay the same between renders.
const NO_GROUPS: readonly never[] = [];

// The groups list here only names the groups a location can join: it asks for no revenue.
const GROUPS_WITHOUT_REVENUE = { filters: { range: null } };

/** /locations-setup: what each location still lacks (address, zip, coordinates, group, checks). */
export default function LocationsSetupScreen() {
  const canManage = useCanManageLocations();
  const [start] = useState(() => ({
    filters: { range: { from_date: ALL_TIME_FROM, to_date: lastDays(1).to_date } },
  }));
  const actor = useAppActor(locationsAdminLogic, { input: start });
  const groupsActor = useAppActor(locationGroupsLogic, { input: GROUPS_WITHOUT_REVENUE });
  const groups = useSelector(groupsActor, (state) => state.context.items) ?? NO_GROUPS;
  useLocationChanges(actor, groupsActor, useLocationSelectionActor());
  return <LocationsSetupView actor={actor} groups={groups} canManage={canManage} timeZones={TIME_ZONES} />;
}
