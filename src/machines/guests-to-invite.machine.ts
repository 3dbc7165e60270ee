import { assign, type DoneActorEvent, emit, type ErrorActorEvent, raise, setup } from 'xstate';
import { SubscriberCreateSchema, type Subscriber, type SubscriberCreate } from '../schemas/subscribers.js';
import type { LocationFilter } from './file-paging.machine.js';
import { requestIn } from './kit/request.js';
import type { GuestFileRow } from './support/csv-rows.js';
import {
  fieldErrorsOf,
  problemOf,
  withoutField,
  type ApiProblem,
  type FieldErrors,
} from './support/api-problem.js';
import { placeholder } from './support/placeholder.js';

/** The "add as subscriber" dialog of a guest to invite: the guest's names and POS id, the email typed. */
export interface InviteForm {
  email: string;
  first_name: string;
  last_name: string;
  /** The guest's POS id: fixed, so the server links the new subscriber to this guest. */
  pos_id: string;
  subscribed: boolean;
}

/** The fields the marketer may change (the POS id is the guest's own). */
export type InviteField = Exclude<keyof InviteForm, 'pos_id'>;

/** One field of the dialog changed. */
export type InviteFieldChange = {
  [Field in InviteField]: { type: 'field.change'; field: Field; value: InviteForm[Field] };
}[InviteField];

/** What the panel's buttons and dialog send, and what the screen sends after an upload or a new location selection. */
export type GuestsToInviteCommand =
  | { type: 'export.start' }
  | { type: 'count.retry' }
  | { type: 'count.refresh' }
  | { type: 'filter.change'; filter: LocationFilter }
  | { type: 'subscriber.add'; guest: GuestFileRow }
  | InviteFieldChange
  | { type: 'dialog.submit' }
  | { type: 'dialog.close' };

/** Everything the machine handles. */
export type GuestsToInviteEvent =
  | GuestsToInviteCommand
  | DoneActorEvent<number, 'countToInvite'>
  | ErrorActorEvent<unknown, 'countToInvite'>
  | DoneActorEvent<unknown, 'exportToInvite'>
  | ErrorActorEvent<unknown, 'exportToInvite'>
  | DoneActorEvent<Subscriber, 'addSubscriber'>
  | ErrorActorEvent<unknown, 'addSubscriber'>;

/** Announced when a guest became a subscriber: the screen reloads the rows that listed the guest. */
export interface SubscriberAddedEmitted {
  type: 'subscriber.added';
  subscriber: Subscriber;
}

/** What the machine knows. */
export interface GuestsToInviteContext {
  filter: LocationFilter;
  /** Every guest to invite for the filter (the server's count), null until it answered. */
  total: number | null;
  /** The last export's outcome, for the panel's message. */
  notice: 'exported' | 'exportFailed' | null;
  /** Why the count failed. */
  problem: ApiProblem | null;
  /** A recount was asked for during an export: it follows the export. */
  recountDue: boolean;
  /** The guest the dialog adds, null while it is closed. */
  guest: GuestFileRow | null;
  form: InviteForm;
  fieldErrors: FieldErrors;
  /** Why the last add failed (field errors are also in `fieldErrors`). */
  addProblem: ApiProblem | null;
  /** The name (or email) of the guest last added, for "… is now a subscriber". */
  added: string | null;
}

/** The closed dialog's form. */
export const EMPTY_INVITE_FORM: InviteForm = {
  email: '',
  first_name: '',
  last_name: '',
  pos_id: '',
  subscribed: true,
};

/** A guest's dialog: the first word of the POS name as first name, the rest as last name. */
export function inviteFormOf(guest: GuestFileRow): InviteForm {
  const [first = '', ...rest] = guest.customer_name.trim().split(/\s+/);
  return { ...EMPTY_INVITE_FORM, first_name: first, last_name: rest.join(' '), pos_id: guest.pos_id };
}

/** How the notice names a new subscriber: their name, or their email when they have none. */
function nameOf(form: InviteForm): string {
  return `${form.first_name} ${form.last_name}`.trim() || form.email.trim();
}

// The invite panel's types, actors and actions.
const inviteSetup = setup({
  types: {
    context: {} as GuestsToInviteContext,
    events: {} as GuestsToInviteEvent,
    input: {} as { filter: LocationFilter },
    emitted: {} as SubscriberAddedEmitted,
  },
  actors: {
    /** How many guests of the filter were never asked for their email (no subscriber linked). */
    countToInvite: placeholder<number, LocationFilter>(),
    /** Downloads every guest to invite of the filter as CSV. */
    exportToInvite: placeholder<unknown, LocationFilter>(),
    /** `POST /api/subscriptions/subscribers/`: the server links the new subscriber to the guest by POS id. */
    addSubscriber: placeholder<Subscriber, SubscriberCreate>(),
  },
  guards: {
    recountDue: ({ context }) => context.recountDue,
    formIsValid: ({ context }) => SubscriberCreateSchema.safeParse(context.form).success,
  },
  actions: {
    keepTotal: assign((_, total: number) => ({ total, problem: null })),
    keepProblem: assign((_, error: unknown) => ({ problem: problemOf(error) })),
    clearNotice: assign({ notice: null }),
    // While counting again the badge says so rather than showing a total that may be stale.
    forgetTotal: assign({ total: null, notice: null, recountDue: false }),
    keepRecountDue: assign({ recountDue: true }),
    clearRecount: assign({ total: null, recountDue: false }),
    changeFilter: assign((_, filter: LocationFilter) => ({
      filter,
      total: null,
      notice: null,
      added: null,
      recountDue: false,
    })),
    markExported: assign({ notice: 'exported' as const }),
    markExportFailed: assign({ notice: 'exportFailed' as const }),
    openDialog: assign((_, guest: GuestFileRow) => ({
      guest,
      form: inviteFormOf(guest),
      fieldErrors: {},
      addProblem: null,
      added: null,
    })),
    changeField: assign(({ context }, change: InviteFieldChange) => ({
      form: { ...context.form, [change.field]: change.value },
      fieldErrors: withoutField(context.fieldErrors, change.field),
    })),
    showValidationErrors: assign(({ context }) => {
      const result = SubscriberCreateSchema.safeParse(context.form);
      return { fieldErrors: result.success ? {} : fieldErrorsOf(result.error), addProblem: null };
    }),
    startSaving: assign({ fieldErrors: {}, addProblem: null }),
    keepAddProblem: assign((_, error: unknown) => {
      const addProblem = problemOf(error);
      return { addProblem, fieldErrors: addProblem.fields };
    }),
    closeDialog: assign({ guest: null, form: EMPTY_INVITE_FORM, fieldErrors: {}, addProblem: null }),
    markAdded: assign(({ context }) => ({ added: nameOf(context.form) })),
    announceAdded: emit((_, subscriber: Subscriber) => ({ type: 'subscriber.added' as const, subscriber })),
    // The new subscriber is no longer a guest to invite: the total counts again.
    recount: raise({ type: 'count.refresh' }),
  },
});
const request = requestIn(inviteSetup);

/**
 * The totals and actions of "guests to invite" (issue 11), two regions side by side. `total`: the server
 * counts every guest of the selected locations with no subscriber linked — the true total, not the rows
 * read so far — and exports them all as CSV; a new location selection or a finished upload
 * (`count.refresh`) counts again. `adding`: a guest becomes a subscriber from a dialog with the guest's
 * names and POS id and the email the marketer types, checked with SubscriberCreateSchema before the call;
 * once added, the total counts again and `subscriber.added` is emitted.
 */
export const guestsToInviteMachine = inviteSetup.createMachine({
  id: 'guestsToInvite',
  context: ({ input }) => ({
    filter: input.filter,
    total: null,
    notice: null,
    problem: null,
    recountDue: false,
    guest: null,
    form: EMPTY_INVITE_FORM,
    fieldErrors: {},
    addProblem: null,
    added: null,
  }),
  type: 'parallel',
  states: {
    total: {
      initial: 'counting',
      // Re-entering from the region would also restart the dialog beside it (the transition's domain is
      // the parallel root), so counting restarts itself below.
      on: {
        'filter.change': {
          target: '.counting',
          actions: { type: 'changeFilter', params: ({ event }) => event.filter },
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
              actions: {
                type: 'keepProblem',
                params: ({ event }: { event: { error: unknown } }) => event.error,
              },
            },
            // The count under way may be for the old filter or predate the change: ask again.
            on: {
              'filter.change': {
                target: 'counting',
                reenter: true,
                actions: { type: 'changeFilter', params: ({ event }) => event.filter },
              },
              'count.refresh': { target: 'counting', reenter: true, actions: 'forgetTotal' },
            },
          }),
        },
        ready: {
          on: {
            'export.start': { target: 'exporting', actions: 'clearNotice' },
            // A finished upload may have added guests, an added subscriber removed one: count again.
            'count.refresh': { target: 'counting', actions: 'forgetTotal' },
          },
        },
        exporting: {
          tags: ['busy'],
          ...request('exportToInvite', {
            input: ({ context }) => context.filter,
            // A recount asked for meanwhile (a guest added) follows, keeping the export's notice.
            done: [
              { guard: 'recountDue', target: 'counting', actions: ['markExported', 'clearRecount'] },
              { target: 'ready', actions: 'markExported' },
            ],
            error: [
              { guard: 'recountDue', target: 'counting', actions: ['markExportFailed', 'clearRecount'] },
              { target: 'ready', actions: 'markExportFailed' },
            ],
            on: { 'count.refresh': { actions: 'keepRecountDue' } },
          }),
        },
        failed: {
          on: { 'count.retry': 'counting', 'count.refresh': 'counting' },
        },
      },
    },
    adding: {
      initial: 'closed',
      states: {
        closed: {
          on: {
            'subscriber.add': {
              target: 'open',
              actions: { type: 'openDialog', params: ({ event }) => event.guest },
            },
          },
        },
        open: {
          on: {
            'field.change': { actions: { type: 'changeField', params: ({ event }) => event } },
            'dialog.submit': [
              { guard: 'formIsValid', target: 'saving', actions: 'startSaving' },
              { actions: 'showValidationErrors' },
            ],
            'dialog.close': { target: 'closed', actions: 'closeDialog' },
          },
        },
        saving: {
          tags: ['saving'],
          ...request('addSubscriber', {
            input: ({ context }) => SubscriberCreateSchema.parse(context.form),
            done: {
              target: 'closed',
              actions: [
                'markAdded',
                'closeDialog',
                { type: 'announceAdded', params: ({ event }) => event.output },
                'recount',
              ],
            },
            error: {
              target: 'open',
              actions: {
                type: 'keepAddProblem',
                params: ({ event }: { event: { error: unknown } }) => event.error,
              },
            },
          }),
        },
      },
    },
  },
});
