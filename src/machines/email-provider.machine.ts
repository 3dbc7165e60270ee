import { assign, type DoneActorEvent, type ErrorActorEvent, setup } from 'xstate';
import type { EmailProvider } from '../schemas/accounts.js';
import { EmailProviderInputSchema, type EmailProviderInput } from '../schemas/sending.js';
import { requestIn } from './kit/request.js';
import {
  fieldErrorsOf,
  problemOf,
  withoutField,
  type ApiProblem,
  type FieldErrors,
} from './support/api-problem.js';
import { placeholder } from './support/placeholder.js';

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

/** What the email provider form sends. */
export type EmailProviderCommand =
  | { type: 'provider.select'; provider: ProviderChoice }
  | { type: 'field.change'; field: ProviderField; value: string }
  | { type: 'provider.submit' }
  | { type: 'provider.remove' }
  | { type: 'load.retry' }
  | { type: 'notice.dismiss' };

/** Everything the email provider form handles. */
export type EmailProviderEvent =
  | EmailProviderCommand
  | DoneActorEvent<EmailProvider[], 'loadProvider'>
  | ErrorActorEvent<unknown, 'loadProvider'>
  | DoneActorEvent<EmailProvider, 'saveProvider'>
  | ErrorActorEvent<unknown, 'saveProvider'>
  | DoneActorEvent<unknown, 'removeProvider'>
  | ErrorActorEvent<unknown, 'removeProvider'>;

/** What the email provider form knows. */
export interface EmailProviderContext {
  draft: ProviderDraft;
  /** The provider as saved (its key masked), or null: mail goes through the installation. */
  saved: EmailProvider | null;
  fieldErrors: FieldErrors;
  problem: ApiProblem | null;
  notice: 'saved' | 'removed' | null;
}

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

// The email provider form's types, actors and actions.
const emailProviderSetup = setup({
  types: { context: {} as EmailProviderContext, events: {} as EmailProviderEvent },
  actors: {
    /** `GET /api/customers/email-provider/`. */
    loadProvider: placeholder<EmailProvider[], void>(),
    /** `PUT /api/customers/email-provider/`. */
    saveProvider: placeholder<EmailProvider, EmailProviderInput>(),
    /** `DELETE /api/customers/email-provider/{id}/`. */
    removeProvider: placeholder<unknown, number>(),
  },
  guards: {
    savable: ({ context }) =>
      isService(context.draft) && Object.keys(providerDraftErrors(context.draft, context.saved)).length === 0,
    // Choosing "none" and saving removes the saved provider.
    noneOverSaved: ({ context }) => context.draft.provider === 'none' && context.saved !== null,
    hasSaved: ({ context }) => context.saved !== null,
  },
  actions: {
    selectProvider: assign(({ context }, provider: ProviderChoice) => ({
      // Back to the saved provider: its saved settings; another: blank fields.
      draft:
        provider === context.saved?.provider
          ? draftOf(context.saved)
          : { ...draftOf(null), provider, api_key: context.draft.api_key },
      fieldErrors: {},
      notice: null,
    })),
    changeField: assign(({ context }, change: { field: ProviderField; value: string }) => {
      const fieldErrors = withoutField(context.fieldErrors, fieldErrorKey(change.field));
      return { draft: { ...context.draft, [change.field]: change.value }, fieldErrors, notice: null };
    }),
    keepLoaded: assign((_, answer: EmailProvider[]) => {
      const saved = answer[0] ?? null;
      return { saved, draft: draftOf(saved), problem: null };
    }),
    keepSaved: assign((_, answer: EmailProvider) => ({
      saved: answer,
      draft: draftOf(answer),
      fieldErrors: {},
      problem: null,
      notice: 'saved' as const,
    })),
    keepRemoved: assign({
      saved: null,
      draft: draftOf(null),
      fieldErrors: {},
      problem: null,
      notice: 'removed' as const,
    }),
    showValidationErrors: assign(({ context }) => ({
      fieldErrors: providerDraftErrors(context.draft, context.saved),
      notice: null,
    })),
    startRequest: assign({ fieldErrors: {}, problem: null, notice: null }),
    keepProblem: assign((_, failure: { error: unknown }) => {
      const problem = problemOf(failure.error);
      return { problem, fieldErrors: problem.fields };
    }),
    dismissNotice: assign({ notice: null }),
  },
});
const request = requestIn(emailProviderSetup);

/**
 * The company's own email provider on the Email senders tab (`/api/customers/email-provider/`): SendGrid,
 * Mailgun, Amazon SES, Postmark or none (the installation's way out). The API key is write-only: the form shows
 * only whether one is set, and sends it only when typed (required for a new provider). Each missing or malformed
 * field is named before any call; choosing none and saving, or removing, deletes the saved entry.
 */
export const emailProviderMachine = emailProviderSetup.createMachine({
  id: 'emailProvider',
  context: { draft: draftOf(null), saved: null, fieldErrors: {}, problem: null, notice: null },
  initial: 'loading',
  states: {
    loading: {
      tags: ['busy'],
      ...request('loadProvider', {
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
        'provider.select': { actions: { type: 'selectProvider', params: ({ event }) => event.provider } },
        'field.change': {
          actions: {
            type: 'changeField',
            params: ({ event }) => ({ field: event.field, value: event.value }),
          },
        },
        'provider.submit': [
          { guard: 'noneOverSaved', target: 'removing', actions: 'startRequest' },
          { guard: 'savable', target: 'saving', actions: 'startRequest' },
          { actions: 'showValidationErrors' },
        ],
        'provider.remove': { guard: 'hasSaved', target: 'removing', actions: 'startRequest' },
        'notice.dismiss': { actions: 'dismissNotice' },
      },
    },
    saving: {
      tags: ['busy'],
      ...request('saveProvider', {
        input: ({ context }) => providerInputOf(context.draft),
        done: { target: 'editing', actions: { type: 'keepSaved', params: ({ event }) => event.output } },
        error: {
          target: 'editing',
          actions: { type: 'keepProblem', params: ({ event }) => ({ error: event.error }) },
        },
      }),
    },
    removing: {
      tags: ['busy'],
      ...request('removeProvider', {
        input: ({ context }) => context.saved?.id ?? 0,
        done: { target: 'editing', actions: 'keepRemoved' },
        error: {
          target: 'editing',
          actions: { type: 'keepProblem', params: ({ event }) => ({ error: event.error }) },
        },
      }),
    },
  },
});
