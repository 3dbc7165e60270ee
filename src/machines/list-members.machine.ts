import { LIMITS } from '../schemas/constants.js';
import { ListMembersChangeSchema, type ListMembersChange, type Subscriber } from '../schemas/subscribers.js';
import { createListMachine } from './kit/list-machine.js';

/** Which list's members are shown: the list id is the members list's one filter. */
export interface ListMembersFilters {
  listId: number;
}

/** The add-members picker as ticked: the subscribers chosen, in the order they were ticked. */
export interface MembersPickForm {
  subscriber_ids: number[];
}

/** The picker's starting values: nobody chosen. */
export const NO_PICKS: MembersPickForm = { subscriber_ids: [] };

/**
 * One subscriber list's members (`…/list/{id}/members/`), 8 to a page, on the list kit. Its delete is
 * "take off the list" (`…/members/remove/`, confirmed; the subscriber stays subscribed) and its add
 * dialog is the picker: the ticked subscribers (`field.change` of `subscriber_ids`, at least one,
 * checked with ListMembersChangeSchema) are added with `createItem` (`POST …/members/`). The picker's
 * searched, paged candidates are their own list (member-candidates.machine.ts).
 */
export const listMembersMachine = createListMachine<
  Subscriber,
  MembersPickForm,
  ListMembersFilters,
  ListMembersChange,
  never,
  // Adding answers nothing worth keeping: the page reloads.
  unknown
>({
  id: 'listMembers',
  pageSize: LIMITS.subscribersPageSize,
  searchable: false,
  // The screen starts the machine with the opened list's id as its input.
  filters: { listId: 0 },
  form: { empty: NO_PICKS, of: () => NO_PICKS, create: ListMembersChangeSchema },
});
