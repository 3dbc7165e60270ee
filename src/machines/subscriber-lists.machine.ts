import { LIMITS } from '../schemas/constants.js';
import {
  SubscriberListWriteSchema,
  type SubscriberList,
  type SubscriberListWrite,
} from '../schemas/subscribers.js';
import { createListMachine, type NoFilters } from './kit/list-machine.js';

/** The create and rename dialog as typed. */
export interface ListNameForm {
  name: string;
}

/** The create dialog's starting values. */
export const NEW_LIST_FORM: ListNameForm = { name: '' };

/**
 * /subscriber-lists: the company's subscriber lists (`/api/subscriptions/subscribers/list/`), 25 to a
 * page, on the list kit: create (the add dialog) and rename (the edit dialog), both `{ name }` checked
 * with SubscriberListWriteSchema, a confirmed delete, and `item.open`, which announces the list whose
 * members the screen shows (list-members.machine.ts). Back from the members, the screen sends
 * `list.refresh` so the member counts are reloaded at once.
 */
export const subscriberListsMachine = createListMachine<
  SubscriberList,
  ListNameForm,
  NoFilters,
  SubscriberListWrite,
  SubscriberListWrite
>({
  id: 'subscriberLists',
  pageSize: LIMITS.defaultPageSize,
  searchable: false,
  filters: {},
  form: {
    empty: NEW_LIST_FORM,
    of: (list) => ({ name: list.name }),
    create: SubscriberListWriteSchema,
    update: SubscriberListWriteSchema,
  },
  openable: true,
  // Counts change while a list's members are shown: the lists reload as soon as the user comes back.
  refreshDelay: 0,
});
