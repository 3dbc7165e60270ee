import { LIMITS } from '../schemas/constants.js';
import type { Subscriber } from '../schemas/subscribers.js';
import { createListMachine, type NoFilters } from './kit/list-machine.js';

/**
 * The add-members picker's candidates: the company's subscribers (`/api/subscriptions/subscribers/?q=`),
 * 8 to a page and searched as one types, on the list kit. It only lists: ticking and adding belong to
 * the members list's add dialog (list-members.machine.ts).
 */
export const memberCandidatesMachine = createListMachine<Subscriber, NoFilters, NoFilters>({
  id: 'memberCandidates',
  pageSize: LIMITS.subscribersPageSize,
  searchable: true,
  filters: {},
  deletable: false,
});
