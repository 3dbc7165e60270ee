import {
  assign,
  cancel,
  type DoneActorEvent,
  type ErrorActorEvent,
  raise,
  setup,
  spawnChild,
  stopChild,
} from 'xstate';
import {
  CompanyUserCreateSchema,
  CompanyUserUpdateSchema,
  type CompanyUser,
  type CompanyUserCreate,
  type CompanyUserUpdate,
} from '../schemas/accounts.js';
import type { Page } from '../schemas/common.js';
import { LIMITS } from '../schemas/constants.js';
import {
  fieldErrorsOf,
  problemOf,
  withoutField,
  type ApiProblem,
  type FieldErrors,
} from './support/api-problem.js';
import { placeholder } from './support/placeholder.js';

// Server calls are started with spawnChild on entry and stopped on exit, and the search pause is a delayed
// raise cancelled on exit: what `invoke` and `after` do, in the form @xstate/graph's createTestModel
// accepts (it refuses `invoke` and `after`), as the auth machine does.

/** The text fields of the user dialog (the role is text until the schema accepts it). */
export type UserTextField = 'email' | 'first_name' | 'last_name' | 'username' | 'role' | 'password';

/** The user dialog as typed; create uses email, names, role and password, edit the rest. */
export type UserForm = Record<UserTextField, string> & { is_active: boolean };

/** `GET /api/accounts/user/` filters. */
export interface UserListQuery {
  page: number;
  page_size: number;
  q?: string;
}

/** `PUT /api/accounts/user/{id}/`. */
export interface UserUpdateRequest {
  id: number;
  changes: CompanyUserUpdate;
}

/** What the users tab's view sends. */
export type CompanyUsersCommand =
  | { type: 'list.retry' }
  | { type: 'search.change'; query: string }
  | { type: 'page.change'; page: number }
  | { type: 'user.add' }
  | { type: 'user.edit'; user: CompanyUser }
  | { type: 'user.delete'; user: CompanyUser }
  | { type: 'field.change'; field: UserTextField; value: string }
  | { type: 'active.change'; value: boolean }
  | { type: 'dialog.submit' }
  | { type: 'dialog.close' }
  | { type: 'delete.confirm' }
  | { type: 'notice.dismiss' };

/** Everything the users tab handles: the view's commands, the search pause and the calls' results. */
export type CompanyUsersEvent =
  | CompanyUsersCommand
  /** Raised by the machine itself once typing has paused for `searchDelay`. */
  | { type: 'search.settled' }
  | DoneActorEvent<Page<CompanyUser>, 'listUsers'>
  | ErrorActorEvent<unknown, 'listUsers'>
  | DoneActorEvent<CompanyUser, 'createUser'>
  | ErrorActorEvent<unknown, 'createUser'>
  | DoneActorEvent<CompanyUser, 'updateUser'>
  | ErrorActorEvent<unknown, 'updateUser'>
  | DoneActorEvent<unknown, 'deleteUser'>
  | ErrorActorEvent<unknown, 'deleteUser'>;

/** What the users tab knows. */
export interface CompanyUsersContext {
  page: number;
  pageSize: number;
  /** The search text as typed; the list is searched once typing pauses. */
  query: string;
  /** The page last loaded; kept while the next one loads. */
  list: Page<CompanyUser> | null;
  /** The user being edited or deleted. */
  selected: CompanyUser | null;
  form: UserForm;
  fieldErrors: FieldErrors;
  problem: ApiProblem | null;
  notice: 'created' | 'updated' | 'deleted' | null;
}

/** The create dialog's starting values: a marketer, the least surprising role to hand out. */
export const NEW_USER_FORM: UserForm = {
  email: '',
  first_name: '',
  last_name: '',
  username: '',
  role: 'marketer',
  password: '',
  is_active: true,
};

function formOf(user: CompanyUser): UserForm {
  return {
    email: user.email,
    first_name: user.first_name,
    last_name: user.last_name,
    username: user.username,
    role: user.role,
    password: '',
    is_active: user.is_active,
  };
}

/**
 * The company's users (`/api/accounts/user/`, admins and owners): a paged list searched as one types,
 * a create dialog (role and first password), an edit dialog (names, role, active) and a confirmed
 * delete. Forms are checked with the shared schemas; the server's refusals (the last owner, an owner
 * changed by an admin, a taken email) stay in the dialog.
 */
export const companyUsersMachine = setup({
  types: {
    context: {} as CompanyUsersContext,
    events: {} as CompanyUsersEvent,
  },
  actors: {
    /** `GET /api/accounts/user/`. */
    listUsers: placeholder<Page<CompanyUser>, UserListQuery>(),
    /** `POST /api/accounts/user/`. */
    createUser: placeholder<CompanyUser, CompanyUserCreate>(),
    /** `PUT /api/accounts/user/{id}/`. */
    updateUser: placeholder<CompanyUser, UserUpdateRequest>(),
    /** `DELETE /api/accounts/user/{id}/`. */
    deleteUser: placeholder<unknown, number>(),
  },
  delays: {
    /** How long typing pauses before the list is searched. */
    searchDelay: 300,
  },
  guards: {
    newUserIsValid: ({ context }) => CompanyUserCreateSchema.safeParse(context.form).success,
    changesAreValid: ({ context }) => CompanyUserUpdateSchema.safeParse(context.form).success,
  },
  actions: {
    keepList: assign((_, list: Page<CompanyUser>) => ({ list, problem: null })),
    keepProblem: assign((_, failure: { error: unknown }) => ({ problem: problemOf(failure.error) })),
    keepServerErrors: assign((_, failure: { error: unknown }) => {
      const problem = problemOf(failure.error);
      return { problem, fieldErrors: problem.fields };
    }),
    keepQuery: assign((_, query: string) => ({ query })),
    firstPage: assign({ page: 1 }),
    goToPage: assign((_, page: number) => ({ page: Math.max(1, Math.floor(page)), notice: null })),
    openCreate: assign({
      selected: null,
      form: NEW_USER_FORM,
      fieldErrors: {},
      problem: null,
      notice: null,
    }),
    openUser: assign((_, user: CompanyUser) => ({
      selected: user,
      form: formOf(user),
      fieldErrors: {},
      problem: null,
      notice: null,
    })),
    closeDialog: assign({ selected: null, form: NEW_USER_FORM, fieldErrors: {}, problem: null }),
    changeField: assign(({ context }, change: { field: UserTextField; value: string }) => ({
      form: { ...context.form, [change.field]: change.value },
      fieldErrors: withoutField(context.fieldErrors, change.field),
    })),
    changeActive: assign(({ context }, value: boolean) => ({
      form: { ...context.form, is_active: value },
      fieldErrors: withoutField(context.fieldErrors, 'is_active'),
    })),
    showCreateErrors: assign(({ context }) => {
      const result = CompanyUserCreateSchema.safeParse(context.form);
      return { fieldErrors: result.success ? {} : fieldErrorsOf(result.error), problem: null };
    }),
    showUpdateErrors: assign(({ context }) => {
      const result = CompanyUserUpdateSchema.safeParse(context.form);
      return { fieldErrors: result.success ? {} : fieldErrorsOf(result.error), problem: null };
    }),
    clearProblem: assign({ problem: null }),
    noticeCreated: assign({ notice: 'created' as const }),
    noticeUpdated: assign({ notice: 'updated' as const }),
    noticeDeleted: assign({ notice: 'deleted' as const }),
    // Deleting the only row of a later page would leave an empty page: show the one before.
    stepBackFromEmptyPage: assign(({ context }) => ({
      page: context.page > 1 && context.list?.results.length === 1 ? context.page - 1 : context.page,
    })),
    dismissNotice: assign({ notice: null }),
  },
}).createMachine({
  id: 'companyUsers',
  context: {
    page: 1,
    pageSize: LIMITS.defaultPageSize,
    query: '',
    list: null,
    selected: null,
    form: NEW_USER_FORM,
    fieldErrors: {},
    problem: null,
    notice: null,
  },
  initial: 'listing',
  states: {
    listing: {
      initial: 'loading',
      on: {
        // Typing restarts the wait (and drops a load under way): the list is searched once typing pauses.
        'search.change': {
          target: '.debouncing',
          reenter: true,
          actions: { type: 'keepQuery', params: ({ event }) => event.query },
        },
      },
      states: {
        loading: {
          tags: ['busy'],
          entry: spawnChild('listUsers', {
            id: 'listUsers',
            input: ({ context }) => ({
              page: context.page,
              page_size: context.pageSize,
              ...(context.query.trim() ? { q: context.query.trim() } : {}),
            }),
          }),
          exit: stopChild('listUsers'),
          on: {
            'xstate.done.actor.listUsers': {
              target: 'browsing',
              actions: { type: 'keepList', params: ({ event }) => event.output },
            },
            'xstate.error.actor.listUsers': {
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
            'page.change': {
              target: 'loading',
              actions: { type: 'goToPage', params: ({ event }) => event.page },
            },
            'user.add': { target: '#companyUsers.creating', actions: 'openCreate' },
            'user.edit': {
              target: '#companyUsers.editing',
              actions: { type: 'openUser', params: ({ event }) => event.user },
            },
            'user.delete': {
              target: '#companyUsers.deleting',
              actions: { type: 'openUser', params: ({ event }) => event.user },
            },
            'notice.dismiss': { actions: 'dismissNotice' },
          },
        },
        debouncing: {
          entry: raise({ type: 'search.settled' }, { delay: 'searchDelay', id: 'searchPause' }),
          exit: cancel('searchPause'),
          on: { 'search.settled': { target: 'loading', actions: 'firstPage' } },
        },
      },
    },
    creating: {
      initial: 'open',
      states: {
        open: {
          on: {
            'field.change': { actions: { type: 'changeField', params: ({ event }) => event } },
            'dialog.submit': [
              { guard: 'newUserIsValid', target: 'saving', actions: 'clearProblem' },
              { actions: 'showCreateErrors' },
            ],
            'dialog.close': { target: '#companyUsers.listing.browsing', actions: 'closeDialog' },
          },
        },
        saving: {
          tags: ['busy'],
          entry: spawnChild('createUser', {
            id: 'createUser',
            input: ({ context }) => CompanyUserCreateSchema.parse(context.form),
          }),
          exit: stopChild('createUser'),
          on: {
            'xstate.done.actor.createUser': {
              target: '#companyUsers.listing.loading',
              actions: ['closeDialog', 'noticeCreated'],
            },
            'xstate.error.actor.createUser': {
              target: 'open',
              actions: { type: 'keepServerErrors', params: ({ event }) => ({ error: event.error }) },
            },
          },
        },
      },
    },
    editing: {
      initial: 'open',
      states: {
        open: {
          on: {
            'field.change': { actions: { type: 'changeField', params: ({ event }) => event } },
            'active.change': { actions: { type: 'changeActive', params: ({ event }) => event.value } },
            'dialog.submit': [
              { guard: 'changesAreValid', target: 'saving', actions: 'clearProblem' },
              { actions: 'showUpdateErrors' },
            ],
            'dialog.close': { target: '#companyUsers.listing.browsing', actions: 'closeDialog' },
          },
        },
        saving: {
          tags: ['busy'],
          entry: spawnChild('updateUser', {
            id: 'updateUser',
            input: ({ context }) => ({
              id: context.selected?.id ?? 0,
              changes: CompanyUserUpdateSchema.parse(context.form),
            }),
          }),
          exit: stopChild('updateUser'),
          on: {
            'xstate.done.actor.updateUser': {
              target: '#companyUsers.listing.loading',
              actions: ['closeDialog', 'noticeUpdated'],
            },
            'xstate.error.actor.updateUser': {
              target: 'open',
              actions: { type: 'keepServerErrors', params: ({ event }) => ({ error: event.error }) },
            },
          },
        },
      },
    },
    deleting: {
      initial: 'confirming',
      states: {
        confirming: {
          on: {
            'delete.confirm': { target: 'removing', actions: 'clearProblem' },
            'dialog.close': { target: '#companyUsers.listing.browsing', actions: 'closeDialog' },
          },
        },
        removing: {
          tags: ['busy'],
          entry: spawnChild('deleteUser', {
            id: 'deleteUser',
            input: ({ context }) => context.selected?.id ?? 0,
          }),
          exit: stopChild('deleteUser'),
          on: {
            'xstate.done.actor.deleteUser': {
              target: '#companyUsers.listing.loading',
              actions: ['stepBackFromEmptyPage', 'closeDialog', 'noticeDeleted'],
            },
            'xstate.error.actor.deleteUser': {
              target: 'confirming',
              actions: { type: 'keepProblem', params: ({ event }) => ({ error: event.error }) },
            },
          },
        },
      },
    },
  },
});
