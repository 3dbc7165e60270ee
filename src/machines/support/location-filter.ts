import type { LocationFilter } from '../file-paging.machine.js';
import type { LocationSelection } from '../location-selection.machine.js';

/**
 * The calls' location filters of the app's location choice: one location, one group, or none (every location).
 * Its own small module so the dashboards that read the header's choice do not load the subscriber list's code.
 */
export function locationFilterOf(selection: LocationSelection | undefined): LocationFilter {
  if (selection?.kind === 'location') return { location_id: [selection.id], location_group_id: [] };
  if (selection?.kind === 'group') return { location_id: [], location_group_id: [selection.id] };
  return { location_id: [], location_group_id: [] };
}
