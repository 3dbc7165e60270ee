import { map } from 'rxjs';
import { fromPromise } from 'xstate';
import type { LocationFilter } from '../../machines/file-paging.machine.js';
import { guestsToInviteMachine } from '../../machines/guests-to-invite.machine.js';
import { GuestPageSchema } from '../../schemas/guests.js';
import { SubscriberSchema, type SubscriberCreate } from '../../schemas/subscribers.js';
import { apiRequest } from '../../services/api-client.js';
import { now } from '../../services/clock.js';
import { downloadCsv } from '../../services/download.js';
import { apiCall } from './answer.js';

/** Guests never asked for their email (no subscriber linked), at the selected locations. */
function toInviteQuery(filter: LocationFilter) {
  return {
    is_subscriber: 'false',
    location_id: filter.location_id,
    location_group_id: filter.location_group_id,
  };
}

/** The invite panel's total (`/api/pos/guests/`'s count, one row asked), export and "add as subscriber". */
export const guestsToInviteLogic = guestsToInviteMachine.provide({
  actors: {
    countToInvite: apiCall((filter: LocationFilter) =>
      apiRequest({
        method: 'GET',
        path: '/pos/guests/',
        // Exact every time: the total drops by one as each guest is added.
        query: { ...toInviteQuery(filter), page: 1, page_size: 1, count: 'exact' },
        schema: GuestPageSchema,
      }).pipe(map((page) => page.count)),
    ),
    exportToInvite: fromPromise<unknown, LocationFilter>(({ input, signal }) => {
      const day = new Date(now()).toISOString().slice(0, 10);
      return downloadCsv('/pos/guests/export/', `guests-to-invite-${day}.csv`, signal, toInviteQuery(input));
    }),
    addSubscriber: apiCall((subscriber: SubscriberCreate) =>
      apiRequest({
        method: 'POST',
        path: '/subscriptions/subscribers/',
        body: subscriber,
        schema: SubscriberSchema,
      }),
    ),
  },
});
