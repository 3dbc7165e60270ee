import { assign, type DoneActorEvent, emit, type ErrorActorEvent, setup } from 'xstate';
import { PasswordChangeSchema, type PasswordChange, type TokenResponse } from '../schemas/accounts.js';
import {
  fieldErrorsOf,
  problemOf,
  withoutField,
  type ApiProblem,
  type FieldErrors,
} from './support/api-problem.js';
import { requestIn } from './kit/request.js';
import { placeholder } from './support/placeholder.js';

/** The fields of the password form. */
export type PasswordField = 'current_password' | 'new_password' | 'confirm_password';

/** The password form as typed. */
export type PasswordDraft = Record<PasswordField, string>;

/** What the password form's view sends. */
export type PasswordChangeCommand =
  | { type: 'field.change'; field: PasswordField; value: string }
  | { type: 'password.submit' }
  | { type: 'notice.dismiss' };

/** Everything the password form handles: the view's commands and the call's result. */
export type PasswordChangeEvent =
  | PasswordChangeCommand
  | DoneActorEvent<TokenResponse, 'changePassword'>
  | ErrorActorEvent<unknown, 'changePassword'>;

/**
 * What the machine announces to whoever holds it: the server revoked the old token and answered this
 * one, which the session must use from now on (the screen hands it to the auth actor).
 */
export interface PasswordChangedEmitted {
  type: 'password.changed';
  tokenData: TokenResponse;
}

/** What the password form knows. */
export interface PasswordChangeContext {
  draft: PasswordDraft;
  fieldErrors: FieldErrors;
  problem: ApiProblem | null;
  notice: 'changed' | null;
}

/** The empty password form. */
export const EMPTY_PASSWORD_DRAFT: PasswordDraft = {
  current_password: '',
  new_password: '',
  confirm_password: '',
};

// The password form's types, actors and actions.
const passwordChangeSetup = setup({
  types: {
    context: {} as PasswordChangeContext,
    events: {} as PasswordChangeEvent,
    emitted: {} as PasswordChangedEmitted,
  },
  actors: {
    /** `PUT /api/accounts/password/`, answering the new token. */
    changePassword: placeholder<TokenResponse, PasswordChange>(),
  },
  guards: {
    draftIsValid: ({ context }) => PasswordChangeSchema.safeParse(context.draft).success,
  },
  actions: {
    changeField: assign(({ context }, change: { field: PasswordField; value: string }) => ({
      draft: { ...context.draft, [change.field]: change.value },
      // A new password may settle the confirmation's mismatch too, so both messages go.
      fieldErrors: withoutField(
        withoutField(context.fieldErrors, change.field),
        change.field === 'new_password' ? 'confirm_password' : change.field,
      ),
      notice: null,
    })),
    showValidationErrors: assign(({ context }) => {
      const result = PasswordChangeSchema.safeParse(context.draft);
      return { fieldErrors: result.success ? {} : fieldErrorsOf(result.error), problem: null, notice: null };
    }),
    startSubmit: assign({ fieldErrors: {}, problem: null, notice: null }),
    finish: assign({
      draft: EMPTY_PASSWORD_DRAFT,
      fieldErrors: {},
      problem: null,
      notice: 'changed' as const,
    }),
    announceToken: emit((_, tokenData: TokenResponse) => ({ type: 'password.changed' as const, tokenData })),
    keepServerErrors: assign((_, failure: { error: unknown }) => {
      const problem = problemOf(failure.error);
      return { problem, fieldErrors: problem.fields };
    }),
    dismissNotice: assign({ notice: null }),
  },
});
const request = requestIn(passwordChangeSetup);

/**
 * Changing one's own password (`PUT /api/accounts/password/`): the form is checked with
 * PasswordChangeSchema (spec section 5: at least 8 characters, confirmation equal), then sent; the
 * fresh token the server answers is emitted as `password.changed`.
 */
export const passwordChangeMachine = passwordChangeSetup.createMachine({
  id: 'passwordChange',
  context: { draft: EMPTY_PASSWORD_DRAFT, fieldErrors: {}, problem: null, notice: null },
  initial: 'editing',
  states: {
    editing: {
      on: {
        'field.change': { actions: { type: 'changeField', params: ({ event }) => event } },
        'password.submit': [
          { guard: 'draftIsValid', target: 'submitting', actions: 'startSubmit' },
          { actions: 'showValidationErrors' },
        ],
        'notice.dismiss': { actions: 'dismissNotice' },
      },
    },
    submitting: {
      tags: ['busy'],
      ...request('changePassword', {
        input: ({ context }) => PasswordChangeSchema.parse(context.draft),
        done: {
          target: 'editing',
          actions: ['finish', { type: 'announceToken', params: ({ event }) => event.output }],
        },
        error: {
          target: 'editing',
          actions: { type: 'keepServerErrors', params: ({ event }) => ({ error: event.error }) },
        },
      }),
    },
  },
});
