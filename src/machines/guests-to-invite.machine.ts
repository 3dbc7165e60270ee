import { assign, type DoneActorEvent, type ErrorActorEvent, setup } from 'xstate';
import type { LocationFilter } from './file-paging.machine.js';
import { requestIn } from './kit/request.js';
import { problemOf, type ApiProblem } from './support/api-problem.js';
import { placeholder } from './support/placeholder.js';

/** What the panel's buttons send, and what the screen sends after an upload or a new location selection. */
export type GuestsToInviteCommand =
  | { type: 'export.start' }
  | { type: 'count.retry' }
  | { type: 'count.refresh' }
  | { type: 'filter.change'; filter: LocationFilter };

/** Everything the machine handles. */
export type GuestsToInviteEvent =
  | GuestsToInviteCommand
  | DoneActorEvent<number, 'countToInvite'>
  | ErrorActorEvent<unknown, 'countToInvite'>
  | DoneActorEvent<unknown, 'exportToInvite'>
  | ErrorActorEvent<unknown, 'exportToInvite'>;

/** What the machine knows. */
export interface GuestsToInviteContext {
  filter: LocationFilter;
  /** Every guest to invite for the filter (the server's count), null until it answered. */
  total: number | null;
  /** The last export's outcome, for the panel's message. */
  notice: 'exported' | 'exportFailed' | null;
  problem: ApiProblem | null;
}

// The invite panel's types, actors and actions.
const inviteSetup = setup({
  types: {
    context: {} as GuestsToInviteContext,
    events: {} as GuestsToInviteEvent,
    input: {} as { filter: LocationFilter },
  },
  actors: {
    /** How many guests of the filter were never asked for their email (no subscriber linked). */
    countToInvite: placeholder<number, LocationFilter>(),
    /** Downloads every guest to invite of the filter as CSV. */
    exportToInvite: placeholder<unknown, LocationFilter>(),
  },
  actions: {
    keepTotal: assign((_, total: number) => ({ total, problem: null })),
    keepProblem: assign((_, error: unknown) => ({ problem: problemOf(error) })),
    clearNotice: assign({ notice: null }),
    // While counting again the badge says so rather than showing a total that may be stale.
    forgetTotal: assign({ total: null, notice: null }),
    markExported: assign({ notice: 'exported' as const }),
    markExportFailed: assign({ notice: 'exportFailed' as const }),
  },
});
const request = requestIn(inviteSetup);

/**
 * The totals and actions of "guests to invite" (issue 11): the server counts every guest of the selected
 * locations with no subscriber linked — the true total, not the rows read so far — and exports them all
 * as CSV. A new location selection or a finished upload (`count.refresh`) counts again.
 */
export const guestsToInviteMachine = inviteSetup.createMachine({
  id: 'guestsToInvite',
  context: ({ input }) => ({ filter: input.filter, total: null, notice: null, problem: null }),
  initial: 'counting',
  on: {
    'filter.change': {
      target: '.counting',
      reenter: true,
      actions: assign(({ event }) => ({ filter: event.filter, total: null, notice: null })),
    },
  },
  states: {
    counting: {
      tags: ['busy'],
      ...request('countToInvite', {
        input: ({ context }) => context.filter,
        done: { target: 'ready', actions: { type: 'keepTotal', params: ({ event }) => event.output } },
        error: {
          target: 'failed',
          actions: { type: 'keepProblem', params: ({ event }: { event: { error: unknown } }) => event.error },
        },
      }),
    },
    ready: {
      on: {
        'export.start': { target: 'exporting', actions: 'clearNotice' },
        // A finished upload may have added guests: count again for the same filter.
        'count.refresh': { target: 'counting', actions: 'forgetTotal' },
      },
    },
    exporting: {
      tags: ['busy'],
      ...request('exportToInvite', {
        input: ({ context }) => context.filter,
        done: { target: 'ready', actions: 'markExported' },
        error: { target: 'ready', actions: 'markExportFailed' },
      }),
    },
    failed: {
      on: { 'count.retry': 'counting' },
    },
  },
});
