import { useAppActor } from '../actors.js';
import { useState } from 'react';
import { LocationsSetupView } from '../../views/locations/LocationsSetupView.js';
import { useLocationSelectionActor } from '../location-selection-context.js';
import { locationsAdminLogic } from '../wiring/locations-admin.js';
import { lastDays, TIME_ZONES, useCanManageLocations, useLocationChanges } from './LocationsScreen.js';

// "Has POS checks" reads the ROI since this date: any check ever recorded counts.
const ALL_TIME_FROM = '2000-01-01';

/** /locations-setup: what each location still lacks (address, zip, coordinates, group, checks). */
export default function LocationsSetupScreen() {
  const canManage = useCanManageLocations();
  const [range] = useState(() => ({ from_date: ALL_TIME_FROM, to_date: lastDays(1).to_date }));
  const actor = useAppActor(locationsAdminLogic, { input: { range } });
  useLocationChanges(actor, useLocationSelectionActor());
  return <LocationsSetupView actor={actor} canManage={canManage} timeZones={TIME_ZONES} />;
}
