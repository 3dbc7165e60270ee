import { assign, type DoneActorEvent, type ErrorActorEvent, setup } from 'xstate';
import type { SentMail } from '../schemas/sending.js';
import { requestIn } from './kit/request.js';
import { problemOf, type ApiProblem } from './support/api-problem.js';
import { placeholder } from './support/placeholder.js';

/** What the sent-mail screen sends about the message shown. */
export type SentMailMessageCommand =
  { type: 'message.open'; id: number } | { type: 'message.close' } | { type: 'message.retry' };

/** Everything the message machine handles. */
export type SentMailMessageEvent =
  SentMailMessageCommand | DoneActorEvent<SentMail, 'loadMessage'> | ErrorActorEvent<unknown, 'loadMessage'>;

/** What the message machine knows. */
export interface SentMailMessageContext {
  /** The message asked for; null while none is open. */
  id: number | null;
  message: SentMail | null;
  problem: ApiProblem | null;
}

// The message viewer's types, actors and actions.
const sentMailMessageSetup = setup({
  types: { context: {} as SentMailMessageContext, events: {} as SentMailMessageEvent },
  actors: {
    /** `GET /api/campaigns/sent-mail/{id}/`. */
    loadMessage: placeholder<SentMail, number>(),
  },
  actions: {
    choose: assign((_, id: number) => ({ id, message: null, problem: null })),
    keep: assign((_, message: SentMail) => ({ message, problem: null })),
    keepProblem: assign((_, failure: { error: unknown }) => ({ problem: problemOf(failure.error) })),
    clear: assign({ id: null, message: null, problem: null }),
  },
});
const request = requestIn(sentMailMessageSetup);

/**
 * One captured message at a time (`GET /api/campaigns/sent-mail/{id}/`): opening another while one loads or
 * shows asks for that one instead; a failed load can be retried; closing forgets it.
 */
export const sentMailMessageMachine = sentMailMessageSetup.createMachine({
  id: 'sentMailMessage',
  context: { id: null, message: null, problem: null },
  initial: 'closed',
  on: {
    'message.open': { target: '.loading', actions: { type: 'choose', params: ({ event }) => event.id } },
  },
  states: {
    closed: {},
    loading: {
      tags: ['busy'],
      ...request('loadMessage', {
        input: ({ context }) => context.id!,
        on: { 'message.close': { target: 'closed', actions: 'clear' } },
        done: { target: 'showing', actions: { type: 'keep', params: ({ event }) => event.output } },
        error: {
          target: 'failed',
          actions: { type: 'keepProblem', params: ({ event }) => ({ error: event.error }) },
        },
      }),
    },
    showing: { on: { 'message.close': { target: 'closed', actions: 'clear' } } },
    failed: {
      on: {
        'message.retry': { target: 'loading' },
        'message.close': { target: 'closed', actions: 'clear' },
      },
    },
  },
});
