import type { CustomerKind } from '../schemas/customers.js';
import type { Guest } from '../schemas/guests.js';
import { LIMITS } from '../schemas/constants.js';
import type { LocationFilter } from './file-paging.machine.js';
import { createListMachine, type ListQuery, type NoFilters } from './kit/list-machine.js';

/** `GET /api/pos/guests/` and `GET /api/pos/guests/export/` filters: the page, the search text, the locations. */
export type GuestListQuery = ListQuery<LocationFilter>;

/** The path of a guest's or subscriber's profile; an empty POS id is written '-' (a path needs a segment). */
export function profilePath(kind: CustomerKind, key: { id: number; hashid: string; pos_id: string | null }) {
  const posId = key.pos_id ? encodeURIComponent(key.pos_id) : '-';
  return `/${kind}/profile/${posId}/${encodeURIComponent(key.hashid)}/${key.id}`;
}

/**
 * The guest list of /guest/analytics (spec sections 2 and 7), on the list kit: 10 guests a page,
 * searched once typing pauses, filtered by the app's location selection (`filters.change`); `item.open`
 * emits `item.opened` (the screen stores the profile kind and navigates); a guest is deleted after a
 * confirmation (the API needs the guest's hashid and POS id, so `deleteItem` gets the whole guest); the
 * export downloads the filtered list as CSV; a finished upload (`list.refresh`) reloads the page 3
 * seconds later (spec section 4).
 */
export const guestListMachine = createListMachine<Guest, NoFilters, LocationFilter>({
  id: 'guestList',
  pageSize: LIMITS.guestsPageSize,
  searchable: true,
  filters: { location_id: [], location_group_id: [] },
  refreshDelay: 3000,
  openable: true,
  exportable: true,
});
