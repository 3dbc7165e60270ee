import type { ListQuery, NoFilters, UpdateRequest } from '../../machines/kit/list-machine.js';
import { listMembersMachine, type ListMembersFilters } from '../../machines/list-members.machine.js';
import { memberCandidatesMachine } from '../../machines/member-candidates.machine.js';
import { subscriberListsMachine } from '../../machines/subscriber-lists.machine.js';
import {
  SubscriberListPageSchema,
  SubscriberListSchema,
  SubscriberPageSchema,
  type ListMembersChange,
  type Subscriber,
  type SubscriberList,
  type SubscriberListWrite,
} from '../../schemas/subscribers.js';
import { apiRequest } from '../../services/api-client.js';
import { apiCall } from './answer.js';

const LISTS = '/subscriptions/subscribers/list/';

/** /subscriber-lists' machine with `/api/subscriptions/subscribers/list/`. */
export const subscriberListsLogic = subscriberListsMachine.provide({
  actors: {
    loadList: apiCall((query: ListQuery<NoFilters>) =>
      apiRequest({ method: 'GET', path: LISTS, query: { ...query }, schema: SubscriberListPageSchema }),
    ),
    createItem: apiCall((list: SubscriberListWrite) =>
      apiRequest({ method: 'POST', path: LISTS, body: list, schema: SubscriberListSchema }),
    ),
    updateItem: apiCall(({ item, changes }: UpdateRequest<SubscriberList, SubscriberListWrite>) =>
      apiRequest({ method: 'PUT', path: `${LISTS}${item.id}/`, body: changes, schema: SubscriberListSchema }),
    ),
    deleteItem: apiCall((list: SubscriberList) =>
      apiRequest({ method: 'DELETE', path: `${LISTS}${list.id}/` }),
    ),
  },
});

/**
 * One list's members machine with `…/list/{id}/members/`: the page call reads the list from the
 * machine's filter; adding and taking off, whose calls get only the picks or the member, use `listId`.
 */
export function listMembersLogic(listId: number) {
  const members = `${LISTS}${listId}/members/`;
  return listMembersMachine.provide({
    actors: {
      loadList: apiCall(({ listId: list, page, page_size }: ListQuery<ListMembersFilters>) =>
        apiRequest({
          method: 'GET',
          path: `${LISTS}${list}/members/`,
          query: { page, page_size },
          schema: SubscriberPageSchema,
        }),
      ),
      createItem: apiCall((picks: ListMembersChange) =>
        apiRequest({ method: 'POST', path: members, body: picks }),
      ),
      deleteItem: apiCall((member: Subscriber) =>
        apiRequest({ method: 'POST', path: `${members}remove/`, body: { subscriber_ids: [member.id] } }),
      ),
    },
  });
}

/** The add-members picker's machine with the subscriber search (`/api/subscriptions/subscribers/?q=`). */
export const memberCandidatesLogic = memberCandidatesMachine.provide({
  actors: {
    loadList: apiCall((query: ListQuery<NoFilters>) =>
      apiRequest({
        method: 'GET',
        path: '/subscriptions/subscribers/',
        query: { ...query },
        schema: SubscriberPageSchema,
      }),
    ),
  },
});
