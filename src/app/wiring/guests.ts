import { fromPromise } from 'xstate';
import { guestListMachine, type GuestKey, type GuestListQuery } from '../../machines/guest-list.machine.js';
import type { Page } from '../../schemas/common.js';
import type { CustomerKind } from '../../schemas/customers.js';
import { GuestPageSchema, type Guest } from '../../schemas/guests.js';
import { apiRequest } from '../../services/api-client.js';
import { now } from '../../services/clock.js';
import { downloadCsv } from '../../services/download.js';
import { STORAGE_KEYS, writeText } from '../../services/storage.js';
import { answerOf } from './answer.js';

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
  };
}

/** The guest list of /guest/analytics with `/api/pos/guests/`, its export and local storage. */
export const guestListLogic = guestListMachine.provide({
  actors: {
    listGuests: fromPromise<Page<Guest>, GuestListQuery>(({ input, signal }) =>
      answerOf(
        apiRequest({ method: 'GET', path: '/pos/guests/', query: listQuery(input), schema: GuestPageSchema }),
        signal,
      ),
    ),
    deleteGuest: fromPromise<unknown, GuestKey>(({ input, signal }) =>
      answerOf(
        apiRequest({
          method: 'DELETE',
          path: `/pos/guests/${input.id}/`,
          query: { hashid: input.hashid, pos_id: input.pos_id },
        }),
        signal,
      ),
    ),
    rememberProfileKind: fromPromise<unknown, CustomerKind>(async ({ input }) => rememberProfileKind(input)),
    exportGuests: fromPromise<unknown, GuestListQuery>(({ input, signal }) => {
      // Every page of the filtered list: the export ignores paging.
      const { page: _page, page_size: _size, ...filters } = listQuery(input);
      const day = new Date(now()).toISOString().slice(0, 10);
      return downloadCsv('/pos/guests/export/', `guests-${day}.csv`, signal, filters);
    }),
  },
});
