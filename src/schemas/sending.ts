import { z } from 'zod';
import { PagingQuerySchema, pageOf } from './common.js';

/**
 * The company's sending set-up and its captured mail (docs/sending.md): the postal address every marketing
 * footer shows, the email provider it may send through, and the "Sent mail" viewer of messages kept in the
 * database when no mail server is set.
 */

/** The longest postal address accepted (several lines of an address). */
export const POSTAL_ADDRESS_MAX_LENGTH = 500;

/** `GET`/`PUT /api/accounts/postal-address/`: the address shown in every marketing email's footer. */
export const PostalAddressSchema = z.object({
  postal_address: z
    .string({ error: 'postal_address is required' })
    .trim()
    .min(1, 'postal_address is required')
    .max(POSTAL_ADDRESS_MAX_LENGTH, `postal_address must be at most ${POSTAL_ADDRESS_MAX_LENGTH} characters`),
});
/** The company's postal address. */
export type PostalAddress = z.infer<typeof PostalAddressSchema>;

/** The answer of `GET /api/accounts/postal-address/`: empty until set. */
export const PostalAddressAnswerSchema = z.object({ postal_address: z.string() });

/** The providers a company may send through (docs/sending.md, "A company's own provider"). */
export const EMAIL_PROVIDER_NAMES = ['sendgrid', 'mailgun', 'ses', 'postmark', 'smtp'] as const;

const setting = (field: string, max = 200) =>
  z
    .string({ error: `${field} is required` })
    .trim()
    .min(1, `${field} is required`)
    .max(max, `${field} must be at most ${max} characters`);

/** Each provider's settings: what its SMTP relay needs besides the key. */
const ProviderSettingsSchemas = {
  sendgrid: z.object({}).strict(),
  postmark: z.object({}).strict(),
  mailgun: z
    .object({ smtp_login: setting('settings.smtp_login'), region: z.enum(['us', 'eu']).optional() })
    .strict(),
  ses: z
    .object({
      region: setting('settings.region', 40).regex(
        /^[a-z]{2}(-[a-z]+)+-\d$/,
        'settings.region must be an AWS region such as eu-west-1',
      ),
      smtp_username: setting('settings.smtp_username'),
    })
    .strict(),
  smtp: z
    .object({
      host: setting('settings.host', 253),
      port: z
        .number({ error: 'settings.port must be a number' })
        .int('settings.port must be a whole number')
        .min(1, 'settings.port must be 1 to 65535')
        .max(65_535, 'settings.port must be 1 to 65535'),
      user: z.string().trim().max(200, 'settings.user must be at most 200 characters').optional(),
      secure: z.boolean().optional(),
    })
    .strict(),
} as const;

/**
 * `PUT /api/customers/email-provider/`: the provider the company sends through, replacing any other. An omitted
 * `api_key` keeps the saved one (so settings change alone); the key is never answered in clear.
 */
export const EmailProviderInputSchema = z
  .object({
    provider: z.enum(EMAIL_PROVIDER_NAMES, {
      error: `provider must be one of ${EMAIL_PROVIDER_NAMES.join(', ')}`,
    }),
    api_key: z.string().trim().min(1, 'api_key is required').max(500, 'api_key is too long').optional(),
    settings: z.record(z.string(), z.unknown()).default({}),
  })
  .superRefine((input, context) => {
    const parsed = ProviderSettingsSchemas[input.provider].safeParse(input.settings);
    if (parsed.success) return;
    for (const issue of parsed.error.issues) {
      const key = issue.path.length > 0 ? issue.path.join('.') : '';
      context.addIssue({
        code: 'custom',
        path: key ? ['settings', ...issue.path.map(String)] : ['settings'],
        message:
          issue.code === 'unrecognized_keys'
            ? `settings has keys ${input.provider} does not use: ${issue.keys.join(', ')}`
            : issue.message,
      });
    }
  });
/** A provider to save. */
export type EmailProviderInput = z.infer<typeof EmailProviderInputSchema>;

/** A captured message as the viewer lists it. */
export const SentMailSummarySchema = z.object({
  id: z.number().int(),
  from: z.string(),
  to: z.string(),
  subject: z.string(),
  /** The mail run it was rendered for; null for the product's own mail (verification, exports). */
  run_id: z.number().int().nullable(),
  created_at: z.string(),
});
/** A listed captured message. */
export type SentMailSummary = z.infer<typeof SentMailSummarySchema>;

/** One captured message with its parts and headers. */
export const SentMailSchema = SentMailSummarySchema.extend({
  html: z.string().nullable(),
  text: z.string(),
  /** Header name → value, in the order the message carries them. */
  headers: z.array(z.object({ name: z.string(), value: z.string() })),
  message_id: z.string().nullable(),
  outbox_id: z.number().int().nullable(),
});
/** A captured message. */
export type SentMail = z.infer<typeof SentMailSchema>;

/** A page of captured messages, newest first. */
export const SentMailPageSchema = pageOf(SentMailSummarySchema);

/** `?page=&page_size=&q=` of the sent-mail list (`q` searches the subject). */
export const SentMailListQuerySchema = PagingQuerySchema.extend({
  q: z.string().trim().max(200, 'q is too long').optional(),
});
