import { assign, cancel, type DoneActorEvent, emit, type ErrorActorEvent, raise, setup } from 'xstate';
import type { HijackCandidate, HijackStarted } from '../schemas/accounts.js';
import { requestIn } from './kit/request.js';
import { problemOf, type ApiProblem } from './support/api-problem.js';
import { placeholder } from './support/placeholder.js';

// The search pause is a delayed raise cancelled on exit: what `after` does, in the form @xstate/graph's
// createTestModel accepts (it refuses `after`).

/** What the impersonation page's view sends. */
export type HijackCommand =
  | { type: 'search.change'; query: string }
  | { type: 'search.retry' }
  | { type: 'user.actAs'; user: HijackCandidate }
  | { type: 'impersonation.confirm' }
  | { type: 'dialog.close' };

/** Everything the impersonation page handles: the view's commands, the search pause and the calls' results. */
export type HijackEvent =
  | HijackCommand
  /** Raised by the machine itself once typing has paused for `searchDelay`. */
  | { type: 'search.settled' }
  | DoneActorEvent<HijackCandidate[], 'searchUsers'>
  | ErrorActorEvent<unknown, 'searchUsers'>
  | DoneActorEvent<HijackStarted, 'startImpersonation'>
  | ErrorActorEvent<unknown, 'startImpersonation'>;

/**
 * What the machine announces to whoever holds it: the server issued a token acting as the chosen user,
 * which the session must switch to (the screen hands it to the auth actor as `impersonation.begin`).
 */
export interface ImpersonationStartedEmitted {
  type: 'impersonation.started';
  tokenData: HijackStarted;
}

/** What the impersonation page knows. */
export interface HijackContext {
  /** The search text as typed; the server is asked once typing pauses. */
  query: string;
  /** The users last found; kept while the next search runs. */
  results: HijackCandidate[] | null;
  /** The user staff chose to act as. */
  target: HijackCandidate | null;
  problem: ApiProblem | null;
}

// The impersonation page's types, actors, delays and actions.
const hijackSetup = setup({
  types: {
    context: {} as HijackContext,
    events: {} as HijackEvent,
    emitted: {} as ImpersonationStartedEmitted,
  },
  actors: {
    /** `GET /api/accounts/hijack/users/?q=`; a blank query lists the first users. */
    searchUsers: placeholder<HijackCandidate[], string>(),
    /** `POST /api/accounts/hijack/` with `{user_id}`. */
    startImpersonation: placeholder<HijackStarted, number>(),
  },
  delays: {
    /** How long typing pauses before the server is asked. */
    searchDelay: 300,
  },
  actions: {
    keepQuery: assign((_, query: string) => ({ query })),
    keepResults: assign((_, results: HijackCandidate[]) => ({ results, problem: null })),
    keepProblem: assign((_, failure: { error: unknown }) => ({ problem: problemOf(failure.error) })),
    clearProblem: assign({ problem: null }),
    chooseTarget: assign((_, user: HijackCandidate) => ({ target: user, problem: null })),
    forgetTarget: assign({ target: null, problem: null }),
    announce: emit((_, tokenData: HijackStarted) => ({ type: 'impersonation.started' as const, tokenData })),
  },
});
const request = requestIn(hijackSetup);

/**
 * Support impersonation (`/hijack`, platform staff only): searches users across companies as one
 * types (after a pause, a machine delay), asks for confirmation, then starts acting as the chosen user
 * (`POST /api/accounts/hijack/`) and emits `impersonation.started` with the token the server issued.
 */
export const hijackMachine = hijackSetup.createMachine({
  id: 'hijack',
  context: { query: '', results: null, target: null, problem: null },
  initial: 'browsing',
  states: {
    browsing: {
      initial: 'searching',
      on: {
        // Typing restarts the wait (and drops a search under way).
        'search.change': {
          target: '.debouncing',
          reenter: true,
          actions: { type: 'keepQuery', params: ({ event }) => event.query },
        },
      },
      states: {
        debouncing: {
          entry: raise({ type: 'search.settled' }, { delay: 'searchDelay', id: 'searchPause' }),
          exit: cancel('searchPause'),
          on: { 'search.settled': 'searching' },
        },
        searching: {
          tags: ['busy'],
          ...request('searchUsers', {
            input: ({ context }) => context.query.trim(),
            done: {
              target: 'ready',
              actions: { type: 'keepResults', params: ({ event }) => event.output },
            },
            error: {
              target: 'failed',
              actions: { type: 'keepProblem', params: ({ event }) => ({ error: event.error }) },
            },
          }),
        },
        failed: {
          on: { 'search.retry': { target: 'searching', actions: 'clearProblem' } },
        },
        ready: {
          on: {
            'user.actAs': {
              target: '#hijack.confirming',
              actions: { type: 'chooseTarget', params: ({ event }) => event.user },
            },
          },
        },
      },
    },
    // A dialog names the user and company and says that every change is audited with both names.
    confirming: {
      on: {
        'impersonation.confirm': { target: 'starting', actions: 'clearProblem' },
        'dialog.close': { target: '#hijack.browsing.ready', actions: 'forgetTarget' },
      },
    },
    starting: {
      tags: ['busy'],
      ...request('startImpersonation', {
        input: ({ context }) => context.target?.id ?? 0,
        done: {
          target: 'started',
          actions: { type: 'announce', params: ({ event }) => event.output },
        },
        error: {
          target: 'confirming',
          actions: { type: 'keepProblem', params: ({ event }) => ({ error: event.error }) },
        },
      }),
    },
    // The session now acts as the target; the app shows the banner and leaves this page.
    started: { type: 'final' },
  },
});
