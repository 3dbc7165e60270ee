import { PasswordChangeSchema, type PasswordChange, type TokenResponse } from '../schemas/accounts.js';
import { fieldErrorsOf } from './support/api-problem.js';
import { createSettingsFormMachine, settledErrors } from './support/settings-form.js';

/** The fields of the password form. */
export type PasswordField = 'current_password' | 'new_password' | 'confirm_password';

/** The password form as typed. */
export type PasswordDraft = Record<PasswordField, string>;

/** The password form's fields as the view changes them. */
export type PasswordFields = PasswordDraft;

/** The empty password form. */
export const EMPTY_PASSWORD_DRAFT: PasswordDraft = {
  current_password: '',
  new_password: '',
  confirm_password: '',
};

/** The password form's own command names, which replayed event logs and the replay tests use. */
export const PASSWORD_COMMANDS = { submit: 'password.submit' } as const;

/**
 * Changing one's own password (`PUT /api/accounts/password/`), a settings form that loads nothing: the form is
 * checked with PasswordChangeSchema (spec section 5: at least 8 characters, confirmation equal, each problem
 * named on its field), then sent (`password.submit`); after the change it is empty again and says saved. The
 * server revoked the old token and answered a fresh one, which the machine announces as `form.saved` (the screen
 * hands it to the session). The call `save` is the wiring's.
 */
export const passwordChangeMachine = createSettingsFormMachine<
  PasswordDraft,
  null,
  PasswordFields,
  never,
  PasswordChange,
  TokenResponse
>({
  id: 'passwordChange',
  loads: false,
  commands: PASSWORD_COMMANDS,
  nothingSaved: null,
  // Nothing is kept after a change: the form empties.
  draftOf: () => EMPTY_PASSWORD_DRAFT,
  loadedOf: () => null,
  savedOf: () => null,
  change: ({ draft, fieldErrors }, change) => ({
    draft: { ...draft, [change.field]: change.value },
    // A new password may settle the confirmation's mismatch too, so both messages go.
    fieldErrors: settledErrors(
      fieldErrors,
      change.field === 'new_password' ? [change.field, 'confirm_password'] : [change.field],
    ),
  }),
  errorsOf: (draft) => {
    const result = PasswordChangeSchema.safeParse(draft);
    return result.success ? {} : fieldErrorsOf(result.error);
  },
  inputOf: (draft) => PasswordChangeSchema.parse(draft),
});
