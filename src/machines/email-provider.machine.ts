import type { EmailProvider } from '../schemas/accounts.js';
import { EmailProviderInputSchema, type EmailProviderInput } from '../schemas/sending.js';
import { fieldErrorsOf, withoutField, type FieldErrors } from './support/api-problem.js';
import { createSettingsFormMachine } from './support/settings-form.js';

/** The providers the form offers, and `none` (mail goes through the installation). */
export const PROVIDER_CHOICES = ['none', 'sendgrid', 'mailgun', 'ses', 'postmark'] as const;

/** A choice of the form; `smtp` only when the API set one up (the form can remove it, not edit it). */
export type ProviderChoice = (typeof PROVIDER_CHOICES)[number] | 'smtp';

/** The form's fields as typed. The key is write-only: never loaded, sent only when typed. */
export interface ProviderDraft {
  provider: ProviderChoice;
  api_key: string;
  /** Mailgun's SMTP login and region. */
  smtp_login: string;
  mailgun_region: '' | 'us' | 'eu';
  /** Amazon SES's region and SMTP user name. */
  region: string;
  smtp_username: string;
}

/** A typed field of the form. */
export type ProviderField = Exclude<keyof ProviderDraft, 'provider'>;

/** The form's fields as the view changes them: the provider chosen, and the typed ones. */
export type ProviderFields = { provider: ProviderChoice } & Record<ProviderField, string>;

/** The API's name of a form field, as its errors are keyed (`api_key`, `settings.region` …). */
export function fieldErrorKey(field: ProviderField): string {
  if (field === 'api_key') return 'api_key';
  return `settings.${field === 'mailgun_region' ? 'region' : field}`;
}

const text = (value: unknown) => (typeof value === 'string' ? value : '');

/** The form's fields for a saved provider (or none), the key left blank. */
export function draftOf(saved: EmailProvider | null): ProviderDraft {
  const settings = saved?.settings ?? {};
  const region = text(settings.region);
  return {
    provider: (saved?.provider as ProviderChoice | undefined) ?? 'none',
    api_key: '',
    smtp_login: text(settings.smtp_login),
    mailgun_region: saved?.provider === 'mailgun' && (region === 'us' || region === 'eu') ? region : '',
    region: saved?.provider === 'ses' ? region : '',
    smtp_username: text(settings.smtp_username),
  };
}

/** Whether saving this draft needs a key typed: a new provider, or one saved without a key. */
export function keyNeeded(draft: ProviderDraft, saved: EmailProvider | null): boolean {
  return saved?.provider !== draft.provider || !saved.has_api_key;
}

/** The call's body for a draft of one of the four services (an untyped key keeps the saved one). */
export function providerInputOf(draft: ProviderDraft): EmailProviderInput {
  const key = draft.api_key.trim();
  const settings: Record<string, string> =
    draft.provider === 'mailgun'
      ? {
          smtp_login: draft.smtp_login.trim(),
          ...(draft.mailgun_region ? { region: draft.mailgun_region } : {}),
        }
      : draft.provider === 'ses'
        ? { region: draft.region.trim(), smtp_username: draft.smtp_username.trim() }
        : {};
  return {
    provider: draft.provider as EmailProviderInput['provider'],
    ...(key ? { api_key: key } : {}),
    settings,
  };
}

/** What is wrong with a draft before any call, by the API's field names ({} when it may be saved). */
export function providerDraftErrors(draft: ProviderDraft, saved: EmailProvider | null): FieldErrors {
  const errors: FieldErrors = {};
  const required = (field: string, value: string) => {
    if (value.trim() === '') errors[field] = { code: 'required', message: `${field} is required` };
  };
  if (draft.provider === 'none' || draft.provider === 'smtp') return errors;
  if (keyNeeded(draft, saved)) required('api_key', draft.api_key);
  if (draft.provider === 'mailgun') required('settings.smtp_login', draft.smtp_login);
  if (draft.provider === 'ses') {
    required('settings.region', draft.region);
    required('settings.smtp_username', draft.smtp_username);
  }
  const parsed = EmailProviderInputSchema.safeParse(providerInputOf(draft));
  return parsed.success ? errors : { ...fieldErrorsOf(parsed.error), ...errors };
}

const isService = (draft: ProviderDraft) => draft.provider !== 'none' && draft.provider !== 'smtp';

/**
 * The company's own email provider on the Email senders tab (`/api/customers/email-provider/`): SendGrid,
 * Mailgun, Amazon SES, Postmark or none (the installation's way out). The API key is write-only: the form shows
 * only whether one is set, and sends it only when typed (required for a new provider). Each missing or malformed
 * field is named before any call; choosing none and saving, or removing, deletes the saved entry. The calls
 * `load`, `save` and `remove` are the wiring's.
 */
export const emailProviderMachine = createSettingsFormMachine<
  ProviderDraft,
  EmailProvider | null,
  ProviderFields,
  EmailProvider[],
  EmailProviderInput,
  EmailProvider
>({
  id: 'emailProvider',
  nothingSaved: null,
  draftOf,
  loadedOf: (answer) => answer[0] ?? null,
  savedOf: (answer) => answer,
  change: ({ draft, saved, fieldErrors }, change) =>
    change.field === 'provider'
      ? {
          // Back to the saved provider: its saved settings; another: blank fields.
          draft:
            change.value === saved?.provider
              ? draftOf(saved)
              : { ...draftOf(null), provider: change.value, api_key: draft.api_key },
          fieldErrors: {},
        }
      : {
          draft: { ...draft, [change.field]: change.value },
          fieldErrors: withoutField(fieldErrors, fieldErrorKey(change.field)),
        },
  errorsOf: providerDraftErrors,
  savable: isService,
  inputOf: providerInputOf,
  removal: {
    inputOf: (saved) => saved?.id ?? null,
    // Choosing "none" and saving removes the saved provider.
    submitRemoves: (draft) => draft.provider === 'none',
  },
});
