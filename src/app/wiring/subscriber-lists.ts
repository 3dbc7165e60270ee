import { fromPromise } from 'xstate';
import {
  subscriberListsMachine,
  type CandidatesQuery,
  type ListRenameRequest,
  type ListsQuery,
  type MembersChangeRequest,
  type MembersQuery,
} from '../../machines/subscriber-lists.machine.js';
import type { Page } from '../../schemas/common.js';
import {
  SubscriberListPageSchema,
  SubscriberListSchema,
  SubscriberPageSchema,
  type Subscriber,
  type SubscriberList,
  type SubscriberListWrite,
} from '../../schemas/subscribers.js';
import { apiRequest } from '../../services/api-client.js';
import { answerOf } from './answer.js';

const LISTS = '/subscriptions/subscribers/list/';

/** /subscriber-list's machine with `/api/subscriptions/subscribers/list/` and the subscriber search. */
export const subscriberListsLogic = subscriberListsMachine.provide({
  actors: {
    listLists: fromPromise<Page<SubscriberList>, ListsQuery>(({ input, signal }) =>
      answerOf(
        apiRequest({ method: 'GET', path: LISTS, query: { ...input }, schema: SubscriberListPageSchema }),
        signal,
      ),
    ),
    createList: fromPromise<SubscriberList, SubscriberListWrite>(({ input, signal }) =>
      answerOf(
        apiRequest({ method: 'POST', path: LISTS, body: input, schema: SubscriberListSchema }),
        signal,
      ),
    ),
    renameList: fromPromise<SubscriberList, ListRenameRequest>(({ input, signal }) =>
      answerOf(
        apiRequest({
          method: 'PUT',
          path: `${LISTS}${input.id}/`,
          body: input.body,
          schema: SubscriberListSchema,
        }),
        signal,
      ),
    ),
    deleteList: fromPromise<unknown, number>(({ input, signal }) =>
      answerOf(apiRequest({ method: 'DELETE', path: `${LISTS}${input}/` }), signal),
    ),
    listMembers: fromPromise<Page<Subscriber>, MembersQuery>(({ input, signal }) =>
      answerOf(
        apiRequest({
          method: 'GET',
          path: `${LISTS}${input.listId}/members/`,
          query: { page: input.page, page_size: input.page_size },
          schema: SubscriberPageSchema,
        }),
        signal,
      ),
    ),
    removeMembers: fromPromise<unknown, MembersChangeRequest>(({ input, signal }) =>
      answerOf(
        apiRequest({
          method: 'POST',
          path: `${LISTS}${input.listId}/members/remove/`,
          body: { subscriber_ids: input.subscriber_ids },
        }),
        signal,
      ),
    ),
    searchCandidates: fromPromise<Page<Subscriber>, CandidatesQuery>(({ input, signal }) =>
      answerOf(
        apiRequest({
          method: 'GET',
          path: '/subscriptions/subscribers/',
          query: { ...input },
          schema: SubscriberPageSchema,
        }),
        signal,
      ),
    ),
    addMembers: fromPromise<unknown, MembersChangeRequest>(({ input, signal }) =>
      answerOf(
        apiRequest({
          method: 'POST',
          path: `${LISTS}${input.listId}/members/`,
          body: { subscriber_ids: input.subscriber_ids },
        }),
        signal,
      ),
    ),
  },
});
