import { assign, type DoneActorEvent, type ErrorActorEvent, setup, spawnChild, stopChild } from 'xstate';
import { EmailSenderInputSchema, type EmailSender, type EmailSenderInput } from '../schemas/accounts.js';
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

/** The text fields of the sender dialog. */
export type SenderTextField = 'name' | 'email' | 'reply_to';

/** The sender dialog as typed. */
export type SenderForm = Record<SenderTextField, string> & { is_default: boolean };

/** `PUT /api/campaigns/email-sender/{id}/`. */
export interface SenderUpdateRequest {
  id: number;
  sender: EmailSenderInput;
}

/** What the email senders tab's view sends. */
export type EmailSendersCommand =
  | { type: 'list.retry' }
  | { type: 'sender.add' }
  | { type: 'sender.edit'; sender: EmailSender }
  | { type: 'sender.delete'; sender: EmailSender }
  | { type: 'field.change'; field: SenderTextField; value: string }
  | { type: 'default.change'; value: boolean }
  | { type: 'dialog.submit' }
  | { type: 'dialog.close' }
  | { type: 'delete.confirm' }
  | { type: 'notice.dismiss' };

/** Everything the email senders tab handles: the view's commands and the calls' results. */
export type EmailSendersEvent =
  | EmailSendersCommand
  | DoneActorEvent<EmailSender[], 'listSenders'>
  | ErrorActorEvent<unknown, 'listSenders'>
  | DoneActorEvent<EmailSender, 'createSender'>
  | ErrorActorEvent<unknown, 'createSender'>
  | DoneActorEvent<EmailSender, 'updateSender'>
  | ErrorActorEvent<unknown, 'updateSender'>
  | DoneActorEvent<unknown, 'deleteSender'>
  | ErrorActorEvent<unknown, 'deleteSender'>;

/** What the email senders tab knows. */
export interface EmailSendersContext {
  /** The senders; null until loaded. */
  list: EmailSender[] | null;
  /** The sender being edited or deleted. */
  selected: EmailSender | null;
  form: SenderForm;
  fieldErrors: FieldErrors;
  problem: ApiProblem | null;
  notice: 'created' | 'updated' | 'deleted' | null;
}

/** The add dialog's starting values. */
export const NEW_SENDER_FORM: SenderForm = { name: '', email: '', reply_to: '', is_default: false };

function formOf(sender: EmailSender): SenderForm {
  return { name: sender.name, email: sender.email, reply_to: sender.reply_to, is_default: sender.is_default };
}

/**
 * The addresses campaign email is sent from (`/api/campaigns/email-sender/`): the list, an add and
 * an edit dialog (name, address, reply-to, default flag) checked with EmailSenderInputSchema, and a
 * confirmed delete.
 */
export const emailSendersMachine = setup({
  types: {
    context: {} as EmailSendersContext,
    events: {} as EmailSendersEvent,
  },
  actors: {
    /** `GET /api/campaigns/email-sender/`. */
    listSenders: placeholder<EmailSender[]>(),
    /** `POST /api/campaigns/email-sender/`. */
    createSender: placeholder<EmailSender, EmailSenderInput>(),
    /** `PUT /api/campaigns/email-sender/{id}/`. */
    updateSender: placeholder<EmailSender, SenderUpdateRequest>(),
    /** `DELETE /api/campaigns/email-sender/{id}/`. */
    deleteSender: placeholder<unknown, number>(),
  },
  guards: {
    formIsValid: ({ context }) => EmailSenderInputSchema.safeParse(context.form).success,
  },
  actions: {
    keepList: assign((_, list: EmailSender[]) => ({ list, problem: null })),
    keepProblem: assign((_, failure: { error: unknown }) => ({ problem: problemOf(failure.error) })),
    keepServerErrors: assign((_, failure: { error: unknown }) => {
      const problem = problemOf(failure.error);
      return { problem, fieldErrors: problem.fields };
    }),
    openCreate: assign({
      selected: null,
      form: NEW_SENDER_FORM,
      fieldErrors: {},
      problem: null,
      notice: null,
    }),
    openSender: assign((_, sender: EmailSender) => ({
      selected: sender,
      form: formOf(sender),
      fieldErrors: {},
      problem: null,
      notice: null,
    })),
    closeDialog: assign({ selected: null, form: NEW_SENDER_FORM, fieldErrors: {}, problem: null }),
    changeField: assign(({ context }, change: { field: SenderTextField; value: string }) => ({
      form: { ...context.form, [change.field]: change.value },
      fieldErrors: withoutField(context.fieldErrors, change.field),
    })),
    changeDefault: assign(({ context }, value: boolean) => ({
      form: { ...context.form, is_default: value },
    })),
    showValidationErrors: assign(({ context }) => {
      const result = EmailSenderInputSchema.safeParse(context.form);
      return { fieldErrors: result.success ? {} : fieldErrorsOf(result.error), problem: null };
    }),
    clearProblem: assign({ problem: null }),
    noticeCreated: assign({ notice: 'created' as const }),
    noticeUpdated: assign({ notice: 'updated' as const }),
    noticeDeleted: assign({ notice: 'deleted' as const }),
    dismissNotice: assign({ notice: null }),
  },
}).createMachine({
  id: 'emailSenders',
  context: {
    list: null,
    selected: null,
    form: NEW_SENDER_FORM,
    fieldErrors: {},
    problem: null,
    notice: null,
  },
  initial: 'loading',
  states: {
    loading: {
      tags: ['busy'],
      entry: spawnChild('listSenders', { id: 'listSenders' }),
      exit: stopChild('listSenders'),
      on: {
        'xstate.done.actor.listSenders': {
          target: 'browsing',
          actions: { type: 'keepList', params: ({ event }) => event.output },
        },
        'xstate.error.actor.listSenders': {
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
        'sender.add': { target: 'creating', actions: 'openCreate' },
        'sender.edit': {
          target: 'editing',
          actions: { type: 'openSender', params: ({ event }) => event.sender },
        },
        'sender.delete': {
          target: 'deleting',
          actions: { type: 'openSender', params: ({ event }) => event.sender },
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
            'default.change': { actions: { type: 'changeDefault', params: ({ event }) => event.value } },
            'dialog.submit': [
              { guard: 'formIsValid', target: 'saving', actions: 'clearProblem' },
              { actions: 'showValidationErrors' },
            ],
            'dialog.close': { target: '#emailSenders.browsing', actions: 'closeDialog' },
          },
        },
        saving: {
          tags: ['busy'],
          entry: spawnChild('createSender', {
            id: 'createSender',
            input: ({ context }) => EmailSenderInputSchema.parse(context.form),
          }),
          exit: stopChild('createSender'),
          on: {
            'xstate.done.actor.createSender': {
              target: '#emailSenders.loading',
              actions: ['closeDialog', 'noticeCreated'],
            },
            'xstate.error.actor.createSender': {
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
            'default.change': { actions: { type: 'changeDefault', params: ({ event }) => event.value } },
            'dialog.submit': [
              { guard: 'formIsValid', target: 'saving', actions: 'clearProblem' },
              { actions: 'showValidationErrors' },
            ],
            'dialog.close': { target: '#emailSenders.browsing', actions: 'closeDialog' },
          },
        },
        saving: {
          tags: ['busy'],
          entry: spawnChild('updateSender', {
            id: 'updateSender',
            input: ({ context }) => ({
              id: context.selected?.id ?? 0,
              sender: EmailSenderInputSchema.parse(context.form),
            }),
          }),
          exit: stopChild('updateSender'),
          on: {
            'xstate.done.actor.updateSender': {
              target: '#emailSenders.loading',
              actions: ['closeDialog', 'noticeUpdated'],
            },
            'xstate.error.actor.updateSender': {
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
            'dialog.close': { target: '#emailSenders.browsing', actions: 'closeDialog' },
          },
        },
        removing: {
          tags: ['busy'],
          entry: spawnChild('deleteSender', {
            id: 'deleteSender',
            input: ({ context }) => context.selected?.id ?? 0,
          }),
          exit: stopChild('deleteSender'),
          on: {
            'xstate.done.actor.deleteSender': {
              target: '#emailSenders.loading',
              actions: ['closeDialog', 'noticeDeleted'],
            },
            'xstate.error.actor.deleteSender': {
              target: 'confirming',
              actions: { type: 'keepProblem', params: ({ event }) => ({ error: event.error }) },
            },
          },
        },
      },
    },
  },
});
