import { editablePhone } from '../format/phone.js';
import { LIMITS } from '../schemas/constants.js';
import {
  SubscriberCreateSchema,
  SubscriberProfileUpdateSchema,
  type Subscriber,
  type SubscriberCreate,
  type SubscriberProfileUpdate,
} from '../schemas/subscribers.js';
import type { LocationFilter } from './file-paging.machine.js';
import { createListMachine, type ListQuery, type ListSorting } from './kit/list-machine.js';

/** The subscriber dialog as typed. */
export interface SubscriberForm {
  email: string;
  first_name: string;
  last_name: string;
  phone: string;
  zip: string;
  birthday: string;
  pos_id: string;
  subscribed: boolean;
}

/** `GET /api/subscriptions/subscribers/` (and its export) filters: the page, search text and locations. */
export type SubscriberListQuery = ListQuery<LocationFilter>;

/** The columns the list orders by (newest first, as the Created column reads), by the API's names. */
export const SUBSCRIBER_SORTING: ListSorting = {
  columns: ['created_at', 'email', 'name'],
  initial: '-created_at',
  descendingFirst: ['created_at'],
};

/** The add dialog's starting values: subscribed, nothing typed. */
export const NEW_SUBSCRIBER_FORM: SubscriberForm = {
  email: '',
  first_name: '',
  last_name: '',
  phone: '',
  zip: '',
  birthday: '',
  pos_id: '',
  subscribed: true,
};

export { locationFilterOf } from './support/location-filter.js';

/**
 * /subscribers on the list kit: the subscribers of the selected location or group (`filters.change`),
 * 8 to a page, searched once typing pauses; an add and an update dialog checked with the shared schemas
 * (the server's field errors, such as a taken email, show next to the field; a new subscriber's source
 * is the one selected location; the update leaves the POS id alone, the schema drops it); the list
 * reloads at once and 3 seconds after an add or an update, and 3 seconds after a finished CSV upload
 * (`list.refresh` with the `uploaded` notice); `item.open` emits `item.opened` for the screen to open the profile; the
 * export downloads a CSV of the current filters. Subscribers are not deleted from this list.
 */
export const subscribersListMachine = createListMachine<
  Subscriber,
  SubscriberForm,
  LocationFilter,
  SubscriberCreate,
  SubscriberProfileUpdate
>({
  id: 'subscribersList',
  pageSize: LIMITS.subscribersPageSize,
  searchable: true,
  sortable: SUBSCRIBER_SORTING,
  filters: { location_id: [], location_group_id: [] },
  form: {
    empty: NEW_SUBSCRIBER_FORM,
    of: (subscriber) => ({
      email: subscriber.email,
      first_name: subscriber.first_name,
      last_name: subscriber.last_name,
      // The stored E.164 as the spec's phone rule accepts it again.
      phone: editablePhone(subscriber.phone),
      zip: subscriber.zip,
      birthday: subscriber.birthday ?? '',
      pos_id: subscriber.pos_id ?? '',
      subscribed: subscriber.subscribed,
    }),
    create: SubscriberCreateSchema,
    update: SubscriberProfileUpdateSchema,
    createInput: (form, filters) => ({
      ...form,
      source_location_id: filters.location_id.length === 1 ? filters.location_id[0] : null,
    }),
  },
  // Spec §2: a list is refreshed 3 seconds after an add, an update or a CSV upload.
  refreshDelay: 3000,
  deletable: false,
  openable: true,
  exportable: true,
});
