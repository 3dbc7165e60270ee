import { assign, type DoneActorEvent, type ErrorActorEvent, setup } from 'xstate';
import type { EmailSender } from '../schemas/accounts.js';
import type { CapturedEmail, VerificationSent } from '../schemas/sender-verification.js';
import { requestIn } from './kit/request.js';
import { problemOf, type ApiProblem } from './support/api-problem.js';
import { placeholder } from './support/placeholder.js';

/** What the senders tab sends about verification. */
export type SenderVerificationCommand =
  | { type: 'verification.send'; sender: EmailSender }
  | { type: 'message.open' }
  | { type: 'message.close' }
  | { type: 'notice.dismiss' };

/** Everything the machine handles: the view's commands and the call's result. */
export type SenderVerificationEvent =
  | SenderVerificationCommand
  | DoneActorEvent<VerificationSent, 'sendVerification'>
  | ErrorActorEvent<unknown, 'sendVerification'>;

/** What the machine knows: the sender last asked about and what became of its email. */
export interface SenderVerificationContext {
  sender: EmailSender | null;
  /** `sent` to a mail server, or `captured` in the app (then `captured` holds the message). */
  delivery: VerificationSent['delivery'] | null;
  captured: CapturedEmail | null;
  problem: ApiProblem | null;
}

const senderVerificationSetup = setup({
  types: { context: {} as SenderVerificationContext, events: {} as SenderVerificationEvent },
  actors: {
    /** `POST /api/campaigns/email-sender/{id}/verification/`. */
    sendVerification: placeholder<VerificationSent, number>(),
  },
  guards: {
    hasCapturedMessage: ({ context }) => context.captured !== null,
  },
  actions: {
    startSending: assign((_, sender: EmailSender) => ({
      sender,
      delivery: null,
      captured: null,
      problem: null,
    })),
    keepDelivery: assign((_, sent: VerificationSent) => ({
      delivery: sent.delivery,
      captured: sent.message,
    })),
    keepProblem: assign((_, failure: { error: unknown }) => ({ problem: problemOf(failure.error) })),
    dismissNotice: assign({ delivery: null, captured: null, problem: null }),
  },
});
const request = requestIn(senderVerificationSetup);

/**
 * Sending a sender its verification email from the senders tab. With no mail server the email is kept in the
 * app: the notice says so and `message.open` shows it (subject, recipient, text with the link).
 */
export const senderVerificationMachine = senderVerificationSetup.createMachine({
  id: 'senderVerification',
  context: { sender: null, delivery: null, captured: null, problem: null },
  initial: 'idle',
  states: {
    idle: {
      on: {
        'verification.send': {
          target: 'sending',
          actions: { type: 'startSending', params: ({ event }) => event.sender },
        },
        'message.open': { guard: 'hasCapturedMessage', target: 'reading' },
        'notice.dismiss': { actions: 'dismissNotice' },
      },
    },
    sending: {
      tags: ['busy'],
      ...request('sendVerification', {
        input: ({ context }) => context.sender!.id,
        done: { target: 'idle', actions: { type: 'keepDelivery', params: ({ event }) => event.output } },
        error: {
          target: 'idle',
          actions: { type: 'keepProblem', params: ({ event }) => ({ error: event.error }) },
        },
      }),
    },
    reading: {
      on: { 'message.close': { target: 'idle' } },
    },
  },
});
