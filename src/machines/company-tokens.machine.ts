import { assign, type DoneActorEvent, type ErrorActorEvent, setup, spawnChild, stopChild } from 'xstate';
import {
  CompanyTokenCreateSchema,
  type CompanyToken,
  type CompanyTokenCreated,
} from '../schemas/accounts.js';
import {
  fieldErrorsOf,
  problemOf,
  withoutField,
  type ApiProblem,
  type FieldErrors,
} from './support/api-problem.js';
import { placeholder } from './support/placeholder.js';

// Server calls are started with spawnChild on entry and stopped on exit: what `invoke` does, in the
// form @xstate/graph's createTestModel accepts (it refuses `invoke`), as the auth machine does.

/** `POST /api/accounts/company-tokens/`. */
export interface TokenCreateRequest {
  name: string;
}

/** What the API tokens tab's view sends. */
export type CompanyTokensCommand =
  | { type: 'list.retry' }
  | { type: 'token.add' }
  | { type: 'field.change'; field: 'name'; value: string }
  | { type: 'dialog.submit' }
  | { type: 'dialog.close' }
  | { type: 'token.revoke'; token: CompanyToken }
  | { type: 'revoke.confirm' }
  | { type: 'notice.dismiss' };

/** Everything the API tokens tab handles: the view's commands and the calls' results. */
export type CompanyTokensEvent =
  | CompanyTokensCommand
  | DoneActorEvent<CompanyToken[], 'listTokens'>
  | ErrorActorEvent<unknown, 'listTokens'>
  | DoneActorEvent<CompanyTokenCreated, 'createToken'>
  | ErrorActorEvent<unknown, 'createToken'>
  | DoneActorEvent<unknown, 'revokeToken'>
  | ErrorActorEvent<unknown, 'revokeToken'>;

/** What the API tokens tab knows. */
export interface CompanyTokensContext {
  /** The tokens, revoked ones included; null until loaded. */
  list: CompanyToken[] | null;
  form: { name: string };
  fieldErrors: FieldErrors;
  problem: ApiProblem | null;
  /** The token just made, with its key: held only while the dialog shows it, then forgotten. */
  created: CompanyTokenCreated | null;
  /** The token being revoked. */
  selected: CompanyToken | null;
  notice: 'created' | 'revoked' | null;
}

/**
 * The company's API tokens (`/api/accounts/company-tokens/`, admins and owners): the list, a
 * create dialog that shows the new key once (it is never shown again), and a confirmed revoke.
 */
export const companyTokensMachine = setup({
  types: {
    context: {} as CompanyTokensContext,
    events: {} as CompanyTokensEvent,
  },
  actors: {
    /** `GET /api/accounts/company-tokens/`. */
    listTokens: placeholder<CompanyToken[]>(),
    /** `POST /api/accounts/company-tokens/`, answering the token with its key. */
    createToken: placeholder<CompanyTokenCreated, TokenCreateRequest>(),
    /** `DELETE /api/accounts/delete-company-token/{id}/`. */
    revokeToken: placeholder<unknown, number>(),
  },
  guards: {
    formIsValid: ({ context }) => CompanyTokenCreateSchema.safeParse(context.form).success,
  },
  actions: {
    keepList: assign((_, list: CompanyToken[]) => ({ list, problem: null })),
    keepProblem: assign((_, failure: { error: unknown }) => ({ problem: problemOf(failure.error) })),
    keepServerErrors: assign((_, failure: { error: unknown }) => {
      const problem = problemOf(failure.error);
      return { problem, fieldErrors: problem.fields };
    }),
    openCreate: assign({ form: { name: '' }, fieldErrors: {}, problem: null, created: null, notice: null }),
    openRevoke: assign((_, token: CompanyToken) => ({ selected: token, problem: null, notice: null })),
    changeField: assign(({ context }, change: { field: 'name'; value: string }) => ({
      form: { ...context.form, [change.field]: change.value },
      fieldErrors: withoutField(context.fieldErrors, change.field),
    })),
    showValidationErrors: assign(({ context }) => {
      const result = CompanyTokenCreateSchema.safeParse(context.form);
      return { fieldErrors: result.success ? {} : fieldErrorsOf(result.error), problem: null };
    }),
    keepCreated: assign((_, created: CompanyTokenCreated) => ({ created, form: { name: '' } })),
    // The key leaves memory as soon as the dialog closes.
    closeDialog: assign({
      form: { name: '' },
      fieldErrors: {},
      problem: null,
      created: null,
      selected: null,
    }),
    clearProblem: assign({ problem: null }),
    noticeCreated: assign({ notice: 'created' as const }),
    noticeRevoked: assign({ notice: 'revoked' as const }),
    dismissNotice: assign({ notice: null }),
  },
}).createMachine({
  id: 'companyTokens',
  context: {
    list: null,
    form: { name: '' },
    fieldErrors: {},
    problem: null,
    created: null,
    selected: null,
    notice: null,
  },
  initial: 'loading',
  states: {
    loading: {
      tags: ['busy'],
      entry: spawnChild('listTokens', { id: 'listTokens' }),
      exit: stopChild('listTokens'),
      on: {
        'xstate.done.actor.listTokens': {
          target: 'browsing',
          actions: { type: 'keepList', params: ({ event }) => event.output },
        },
        'xstate.error.actor.listTokens': {
          target: 'failed',
          actions: { type: 'keepProblem', params: ({ event }) => ({ error: event.error }) },
        },
      },
    },
    failed: {
      on: { 'list.retry': { target: 'loading', actions: 'clearProblem' } },
    },
    browsing: {
      on: {
        'token.add': { target: 'creating', actions: 'openCreate' },
        'token.revoke': {
          target: 'revoking',
          actions: { type: 'openRevoke', params: ({ event }) => event.token },
        },
        'notice.dismiss': { actions: 'dismissNotice' },
      },
    },
    creating: {
      initial: 'open',
      states: {
        open: {
          on: {
            'field.change': { actions: { type: 'changeField', params: ({ event }) => event } },
            'dialog.submit': [
              { guard: 'formIsValid', target: 'saving', actions: 'clearProblem' },
              { actions: 'showValidationErrors' },
            ],
            'dialog.close': { target: '#companyTokens.browsing', actions: 'closeDialog' },
          },
        },
        saving: {
          tags: ['busy'],
          entry: spawnChild('createToken', {
            id: 'createToken',
            input: ({ context }) => CompanyTokenCreateSchema.parse(context.form),
          }),
          exit: stopChild('createToken'),
          on: {
            'xstate.done.actor.createToken': {
              target: 'revealed',
              actions: [{ type: 'keepCreated', params: ({ event }) => event.output }, 'noticeCreated'],
            },
            'xstate.error.actor.createToken': {
              target: 'open',
              actions: { type: 'keepServerErrors', params: ({ event }) => ({ error: event.error }) },
            },
          },
        },
        // The key is on screen with a copy button and the warning that it will not be shown again.
        revealed: {
          on: { 'dialog.close': { target: '#companyTokens.loading', actions: 'closeDialog' } },
        },
      },
    },
    revoking: {
      initial: 'confirming',
      states: {
        confirming: {
          on: {
            'revoke.confirm': { target: 'removing', actions: 'clearProblem' },
            'dialog.close': { target: '#companyTokens.browsing', actions: 'closeDialog' },
          },
        },
        removing: {
          tags: ['busy'],
          entry: spawnChild('revokeToken', {
            id: 'revokeToken',
            input: ({ context }) => context.selected?.id ?? 0,
          }),
          exit: stopChild('revokeToken'),
          on: {
            'xstate.done.actor.revokeToken': {
              target: '#companyTokens.loading',
              actions: ['closeDialog', 'noticeRevoked'],
            },
            'xstate.error.actor.revokeToken': {
              target: 'confirming',
              actions: { type: 'keepProblem', params: ({ event }) => ({ error: event.error }) },
            },
          },
        },
      },
    },
  },
});
