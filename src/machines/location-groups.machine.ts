import type { LocationGroup } from '../schemas/locations.js';
import { createListMachine, type NoFilters } from './kit/list-machine.js';
import type { LocationsFilters } from './locations-admin.machine.js';

/**
 * The location groups list of the Locations screens, on the list kit: every group with its revenue
 * and checks in the period (the `range` filter) and a confirmed delete. Groups are created and
 * changed in their own dialog (location-group-create.machine.ts), which the screen answers with
 * `list.refresh` and a notice.
 */
export const locationGroupsMachine = createListMachine<LocationGroup, NoFilters, LocationsFilters>({
  id: 'locationGroups',
  pageSize: null,
  searchable: false,
  filters: { range: null },
  // The group dialog saved, or a location joined or left groups: load again.
  refreshDelay: 0,
});
