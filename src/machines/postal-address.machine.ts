import { assign, type DoneActorEvent, type ErrorActorEvent, setup } from 'xstate';
import { PostalAddressSchema, type PostalAddress } from '../schemas/sending.js';
import { requestIn } from './kit/request.js';
import { fieldErrorsOf, problemOf, type ApiProblem, type FieldErrors } from './support/api-problem.js';
import { placeholder } from './support/placeholder.js';

/** What the postal address form sends. */
export type PostalAddressCommand =
  | { type: 'field.change'; value: string }
  | { type: 'address.submit' }
  | { type: 'load.retry' }
  | { type: 'notice.dismiss' };

/** Everything the postal address form handles. */
export type PostalAddressEvent =
  | PostalAddressCommand
  | DoneActorEvent<PostalAddress, 'loadAddress'>
  | ErrorActorEvent<unknown, 'loadAddress'>
  | DoneActorEvent<PostalAddress, 'saveAddress'>
  | ErrorActorEvent<unknown, 'saveAddress'>;

/** What the postal address form knows. */
export interface PostalAddressContext {
  /** The address as typed. */
  draft: string;
  /** The address as saved ('' until set: sending is refused until then). */
  saved: string;
  fieldErrors: FieldErrors;
  problem: ApiProblem | null;
  notice: 'saved' | null;
}

// The postal address form's types, actors and actions.
const postalAddressSetup = setup({
  types: { context: {} as PostalAddressContext, events: {} as PostalAddressEvent },
  actors: {
    /** `GET /api/accounts/postal-address/`. */
    loadAddress: placeholder<PostalAddress, void>(),
    /** `PUT /api/accounts/postal-address/`. */
    saveAddress: placeholder<PostalAddress, PostalAddress>(),
  },
  guards: {
    draftIsValid: ({ context }) => PostalAddressSchema.safeParse({ postal_address: context.draft }).success,
  },
  actions: {
    changeDraft: assign((_, value: string) => ({ draft: value, fieldErrors: {}, notice: null })),
    keepLoaded: assign((_, answer: PostalAddress) => ({
      draft: answer.postal_address,
      saved: answer.postal_address,
      problem: null,
    })),
    keepSaved: assign((_, answer: PostalAddress) => ({
      draft: answer.postal_address,
      saved: answer.postal_address,
      fieldErrors: {},
      problem: null,
      notice: 'saved' as const,
    })),
    showValidationErrors: assign(({ context }) => {
      const result = PostalAddressSchema.safeParse({ postal_address: context.draft });
      return { fieldErrors: result.success ? {} : fieldErrorsOf(result.error), notice: null };
    }),
    startSave: assign({ fieldErrors: {}, problem: null, notice: null }),
    keepProblem: assign((_, failure: { error: unknown }) => {
      const problem = problemOf(failure.error);
      return { problem, fieldErrors: problem.fields };
    }),
    dismissNotice: assign({ notice: null }),
  },
});
const request = requestIn(postalAddressSetup);

/**
 * The company's postal address (`/api/accounts/postal-address/`), which every marketing email's footer shows
 * and without which nothing is sent: loaded, edited, checked with PostalAddressSchema (not blank, at most 500
 * characters) and saved by an admin.
 */
export const postalAddressMachine = postalAddressSetup.createMachine({
  id: 'postalAddress',
  context: { draft: '', saved: '', fieldErrors: {}, problem: null, notice: null },
  initial: 'loading',
  states: {
    loading: {
      tags: ['busy'],
      ...request('loadAddress', {
        input: () => undefined,
        done: { target: 'editing', actions: { type: 'keepLoaded', params: ({ event }) => event.output } },
        error: {
          target: 'failed',
          actions: { type: 'keepProblem', params: ({ event }) => ({ error: event.error }) },
        },
      }),
    },
    failed: { on: { 'load.retry': 'loading' } },
    editing: {
      on: {
        'field.change': { actions: { type: 'changeDraft', params: ({ event }) => event.value } },
        'address.submit': [
          { guard: 'draftIsValid', target: 'saving', actions: 'startSave' },
          { actions: 'showValidationErrors' },
        ],
        'notice.dismiss': { actions: 'dismissNotice' },
      },
    },
    saving: {
      tags: ['busy'],
      ...request('saveAddress', {
        input: ({ context }) => PostalAddressSchema.parse({ postal_address: context.draft }),
        done: { target: 'editing', actions: { type: 'keepSaved', params: ({ event }) => event.output } },
        error: {
          target: 'editing',
          actions: { type: 'keepProblem', params: ({ event }) => ({ error: event.error }) },
        },
      }),
    },
  },
});
