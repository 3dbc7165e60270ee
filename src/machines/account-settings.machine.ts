import { assign, type DoneActorEvent, emit, type ErrorActorEvent, setup } from 'xstate';
import { AccountSettingsSchema, type AccountSettings } from '../schemas/accounts.js';
import type { Language } from '../schemas/constants.js';
import {
  fieldErrorsOf,
  problemOf,
  withoutField,
  type ApiProblem,
  type FieldErrors,
} from './support/api-problem.js';
import { requestIn } from './kit/request.js';
import { placeholder } from './support/placeholder.js';

/** The text fields of the profile form. */
export type SettingsTextField = 'username' | 'email' | 'language' | 'time_zone';

/** A way the company may reach the user. */
export type CommunicationChannel = keyof AccountSettings['communication'];

/** The profile form as typed: plain text until the schema accepts it. */
export interface SettingsDraft {
  username: string;
  email: string;
  language: string;
  time_zone: string;
  communication: AccountSettings['communication'];
}

/** What the profile form's view sends. */
export type AccountSettingsCommand =
  | { type: 'field.change'; field: SettingsTextField; value: string }
  | { type: 'communication.change'; channel: CommunicationChannel; value: boolean }
  | { type: 'settings.save' }
  | { type: 'settings.reset' }
  | { type: 'settings.retry' }
  | { type: 'notice.dismiss' };

/** Everything the profile form handles: the view's commands and its actors' results. */
export type AccountSettingsEvent =
  | AccountSettingsCommand
  | DoneActorEvent<AccountSettings, 'loadSettings'>
  | ErrorActorEvent<unknown, 'loadSettings'>
  | DoneActorEvent<AccountSettings, 'saveSettings'>
  | ErrorActorEvent<unknown, 'saveSettings'>
  | DoneActorEvent<void, 'applyLanguage'>
  | ErrorActorEvent<unknown, 'applyLanguage'>;

/** Announced to whoever holds the machine after each save: the settings as the server stored them. */
export interface SettingsSavedEmitted {
  type: 'settings.saved';
  settings: AccountSettings;
}

/** What the profile form knows. */
export interface AccountSettingsContext {
  /** The settings as the server last answered them; null until loaded. */
  saved: AccountSettings | null;
  draft: SettingsDraft;
  fieldErrors: FieldErrors;
  problem: ApiProblem | null;
  /** Set after a save succeeded, until the next change. */
  notice: 'saved' | null;
}

/** The draft shown before the settings arrive. */
export const EMPTY_SETTINGS_DRAFT: SettingsDraft = {
  username: '',
  email: '',
  language: 'en',
  time_zone: 'UTC',
  communication: { email: false, sms: false, phone: false },
};

function draftOf(settings: AccountSettings): SettingsDraft {
  return { ...settings, communication: { ...settings.communication } };
}

// The profile form's types, actors, guards and actions.
const accountSettingsSetup = setup({
  types: {
    context: {} as AccountSettingsContext,
    events: {} as AccountSettingsEvent,
    emitted: {} as SettingsSavedEmitted,
  },
  actors: {
    /** `GET /api/accounts/settings/`. */
    loadSettings: placeholder<AccountSettings>(),
    /** `PUT /api/accounts/settings/`, answering the stored settings. */
    saveSettings: placeholder<AccountSettings, AccountSettings>(),
    /** Switches the interface language and remembers it. */
    applyLanguage: placeholder<void, Language>(),
  },
  guards: {
    draftIsValid: ({ context }) => AccountSettingsSchema.safeParse(context.draft).success,
    languageChanged: ({ context }, output: AccountSettings) => context.saved?.language !== output.language,
  },
  actions: {
    keepSettings: assign((_, settings: AccountSettings) => ({
      saved: settings,
      draft: draftOf(settings),
      fieldErrors: {},
      problem: null,
    })),
    announceSaved: emit((_, settings: AccountSettings) => ({ type: 'settings.saved' as const, settings })),
    keepProblem: assign((_, failure: { error: unknown }) => ({ problem: problemOf(failure.error) })),
    keepServerErrors: assign((_, failure: { error: unknown }) => {
      const problem = problemOf(failure.error);
      return { problem, fieldErrors: problem.fields };
    }),
    showValidationErrors: assign(({ context }) => {
      const result = AccountSettingsSchema.safeParse(context.draft);
      return { fieldErrors: result.success ? {} : fieldErrorsOf(result.error), problem: null, notice: null };
    }),
    changeField: assign(({ context }, change: { field: SettingsTextField; value: string }) => ({
      draft: { ...context.draft, [change.field]: change.value },
      fieldErrors: withoutField(context.fieldErrors, change.field),
      notice: null,
    })),
    changeChannel: assign(({ context }, change: { channel: CommunicationChannel; value: boolean }) => ({
      draft: {
        ...context.draft,
        communication: { ...context.draft.communication, [change.channel]: change.value },
      },
      notice: null,
    })),
    resetDraft: assign(({ context }) => ({
      draft: context.saved ? draftOf(context.saved) : EMPTY_SETTINGS_DRAFT,
      fieldErrors: {},
      problem: null,
      notice: null,
    })),
    clearProblem: assign({ problem: null }),
    noticeSaved: assign({ notice: 'saved' as const }),
    dismissNotice: assign({ notice: null }),
  },
});
const request = requestIn(accountSettingsSetup);

/**
 * The signed-in user's own settings (`GET/PUT /api/accounts/settings/`): loads them, edits a draft,
 * checks it with AccountSettingsSchema, saves it and, when the language changed, applies the new
 * language at once through the `applyLanguage` actor. Each save is emitted as `settings.saved` (the
 * screen then has the session fetch the user again).
 */
export const accountSettingsMachine = accountSettingsSetup.createMachine({
  id: 'accountSettings',
  context: {
    saved: null,
    draft: EMPTY_SETTINGS_DRAFT,
    fieldErrors: {},
    problem: null,
    notice: null,
  },
  initial: 'loading',
  states: {
    loading: {
      tags: ['busy'],
      ...request('loadSettings', {
        done: {
          target: 'editing',
          actions: { type: 'keepSettings', params: ({ event }) => event.output },
        },
        error: {
          target: 'failed',
          actions: { type: 'keepProblem', params: ({ event }) => ({ error: event.error }) },
        },
      }),
    },
    failed: {
      on: { 'settings.retry': { target: 'loading', actions: 'clearProblem' } },
    },
    editing: {
      on: {
        'field.change': { actions: { type: 'changeField', params: ({ event }) => event } },
        'communication.change': { actions: { type: 'changeChannel', params: ({ event }) => event } },
        'settings.reset': { actions: 'resetDraft' },
        'settings.save': [
          { guard: 'draftIsValid', target: 'saving', actions: ['clearProblem', 'dismissNotice'] },
          { actions: 'showValidationErrors' },
        ],
        'notice.dismiss': { actions: 'dismissNotice' },
      },
    },
    saving: {
      tags: ['busy'],
      ...request('saveSettings', {
        input: ({ context }) => AccountSettingsSchema.parse(context.draft),
        done: [
          {
            guard: { type: 'languageChanged', params: ({ event }) => event.output },
            target: 'applyingLanguage',
            actions: [
              { type: 'keepSettings', params: ({ event }) => event.output },
              { type: 'announceSaved', params: ({ event }) => event.output },
            ],
          },
          {
            target: 'editing',
            actions: [
              { type: 'keepSettings', params: ({ event }) => event.output },
              { type: 'announceSaved', params: ({ event }) => event.output },
              'noticeSaved',
            ],
          },
        ],
        error: {
          target: 'editing',
          actions: { type: 'keepServerErrors', params: ({ event }) => ({ error: event.error }) },
        },
      }),
    },
    applyingLanguage: {
      tags: ['busy'],
      ...request('applyLanguage', {
        input: ({ context }) => context.saved?.language ?? 'en',
        done: { target: 'editing', actions: 'noticeSaved' },
        // The settings are saved even when the interface could not switch; say both.
        error: {
          target: 'editing',
          actions: ['noticeSaved', { type: 'keepProblem', params: ({ event }) => ({ error: event.error }) }],
        },
      }),
    },
  },
});
