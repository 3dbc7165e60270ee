import { assign, type DoneActorEvent, type ErrorActorEvent, setup } from 'xstate';
import type { EmailSender } from '../schemas/accounts.js';
import { requestIn } from './kit/request.js';
import { problemOf, type ApiProblem } from './support/api-problem.js';
import { placeholder } from './support/placeholder.js';

/** The /verify-sender page's input: the token from its link, or null when the link had none. */
export interface VerifySenderInput {
  token: string | null;
}

/** What the page handles: only the call's result (it starts by itself). */
export type VerifySenderEvent =
  | DoneActorEvent<EmailSender, 'verifySender'>
  | ErrorActorEvent<unknown, 'verifySender'>
  | { type: 'verify.retry' };

/** What the page knows. */
export interface VerifySenderContext {
  token: string | null;
  sender: EmailSender | null;
  problem: ApiProblem | null;
}

const verifySenderSetup = setup({
  types: {
    context: {} as VerifySenderContext,
    events: {} as VerifySenderEvent,
    input: {} as VerifySenderInput,
  },
  actors: {
    /** `POST /api/campaigns/email-sender/verify/` with the token. */
    verifySender: placeholder<EmailSender, string>(),
  },
  guards: {
    hasToken: ({ context }) => context.token !== null && context.token.trim() !== '',
    // A link's own problem (unknown, used, expired) answers the same again; only a lost answer is worth a retry.
    failedToReach: ({ context }) =>
      context.problem !== null &&
      (context.problem.status === null || context.problem.status === 0 || context.problem.status >= 500),
  },
  actions: {
    keepSender: assign((_, sender: EmailSender) => ({ sender, problem: null })),
    keepProblem: assign((_, failure: { error: unknown }) => ({ problem: problemOf(failure.error) })),
  },
});
const request = requestIn(verifySenderSetup);

/**
 * The /verify-sender page: follows a verification link once (`POST …/verify/` with its token) and shows the
 * verified sender or why the link did not work. A link without a token fails without a call.
 */
export const verifySenderMachine = verifySenderSetup.createMachine({
  id: 'verifySender',
  context: ({ input }) => ({ token: input.token, sender: null, problem: null }),
  initial: 'starting',
  states: {
    starting: {
      always: [{ guard: 'hasToken', target: 'verifying' }, { target: 'missingToken' }],
    },
    verifying: {
      tags: ['busy'],
      ...request('verifySender', {
        input: ({ context }) => context.token!.trim(),
        done: { target: 'verified', actions: { type: 'keepSender', params: ({ event }) => event.output } },
        error: {
          target: 'failed',
          actions: { type: 'keepProblem', params: ({ event }) => ({ error: event.error }) },
        },
      }),
    },
    verified: { type: 'final' },
    failed: { on: { 'verify.retry': { guard: 'failedToReach', target: 'verifying' } } },
    missingToken: { type: 'final' },
  },
});
