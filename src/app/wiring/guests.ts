import { fromPromise } from 'xstate';
import { guestListMachine, type GuestListQuery } from '../../machines/guest-list.machine.js';
import type { CustomerKind } from '../../schemas/customers.js';
import { GuestPageSchema, type Guest } from '../../schemas/guests.js';
import { apiRequest } from '../../services/api-client.js';
import { now } from '../../services/clock.js';
import { downloadCsv } from '../../services/download.js';
import { STORAGE_KEYS, writeText } from '../../services/storage.js';
import { apiCall } from './answer.js';

/** Stores which profile kind the profile screen loads (spec section 4), in local storage. */
export function rememberProfileKind(kind: CustomerKind): void {
  writeText('local', STORAGE_KEYS.profileKind, kind);
}

/** The list filters as the API's query (repeated location filters, search text when there is some). */
function listQuery(input: GuestListQuery) {
  return {
    page: input.page,
    page_size: input.page_size,
    q: input.q,
    location_id: input.location_id,
    location_group_id: input.location_group_id,
    cursor: input.cursor,
  };
}

/** The guest list of /guest/analytics with `/api/pos/guests/` and its export. */
export const guestListLogic = guestListMachine.provide({
  actors: {
    loadList: apiCall((query: GuestListQuery) =>
      apiRequest({ method: 'GET', path: '/pos/guests/', query: listQuery(query), schema: GuestPageSchema }),
    ),
    // The API names a guest by id, hashid and POS id together.
    deleteItem: apiCall((guest: Guest) =>
      apiRequest({
        method: 'DELETE',
        path: `/pos/guests/${guest.id}/`,
        query: { hashid: guest.hashid, pos_id: guest.pos_id },
      }),
    ),
    exportList: fromPromise<unknown, GuestListQuery>(({ input, signal }) => {
      // Every page of the filtered list: the export ignores paging.
      const { page: _page, page_size: _size, ...filters } = listQuery(input);
      const day = new Date(now()).toISOString().slice(0, 10);
      return downloadCsv('/pos/guests/export/', `guests-${day}.csv`, signal, filters);
    }),
  },
});
