import { AccountSettingsSchema, type AccountSettings } from '../schemas/accounts.js';
import { fieldErrorsOf, withoutField } from './support/api-problem.js';
import { createSettingsFormMachine } from './support/settings-form.js';

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

/** The profile form's fields as the view changes them: the texts, and the channels all at once. */
export type SettingsFields = SettingsDraft;

/** The draft shown before the settings arrive. */
export const EMPTY_SETTINGS_DRAFT: SettingsDraft = {
  username: '',
  email: '',
  language: 'en',
  time_zone: 'UTC',
  communication: { email: false, sms: false, phone: false },
};

/** The profile form's own command names, which its views, tests and recorded event logs use. */
export const PROFILE_COMMANDS = {
  submit: 'settings.save',
  retry: 'settings.retry',
  reset: 'settings.reset',
} as const;

function draftOf(settings: AccountSettings | null): SettingsDraft {
  return settings ? { ...settings, communication: { ...settings.communication } } : EMPTY_SETTINGS_DRAFT;
}

/**
 * The signed-in user's own settings (`GET/PUT /api/accounts/settings/`), a settings form: loads them
 * (`settings.retry` after a failure), edits a draft (`settings.reset` goes back to the saved one), checks it with
 * AccountSettingsSchema (each problem named on its field), saves it (`settings.save`) and, when the language
 * changed, applies the new language at once (`applying`). Each save is announced as `form.saved` with the stored
 * settings (the screen then has the session fetch the user again). The calls `load`, `save` and `apply` are the
 * wiring's.
 */
export const accountSettingsMachine = createSettingsFormMachine<
  SettingsDraft,
  AccountSettings | null,
  SettingsFields,
  AccountSettings,
  AccountSettings,
  AccountSettings
>({
  id: 'accountSettings',
  commands: PROFILE_COMMANDS,
  nothingSaved: null,
  draftOf,
  loadedOf: (answer) => answer,
  savedOf: (answer) => answer,
  change: ({ draft, fieldErrors }, change) => ({
    draft: { ...draft, [change.field]: change.value },
    fieldErrors: withoutField(fieldErrors, change.field),
  }),
  errorsOf: (draft) => {
    const result = AccountSettingsSchema.safeParse(draft);
    return result.success ? {} : fieldErrorsOf(result.error);
  },
  inputOf: (draft) => AccountSettingsSchema.parse(draft),
  appliesAfterSave: (before, after) => before?.language !== after?.language,
});
