import { z } from 'zod';
import { isTimeZone, pageOf, PagingQuerySchema } from './common.js';
import { LANGUAGES, LIMITS } from './constants.js';
import { USER_ROLES } from './roles.js';

// The validation messages follow product spec section 5: '{name} is required', '{name} is not valid',
// '{name} minimum length is {min}', 'Accepting terms & conditions are required'.

/** The message every failed sign-in gets, whichever part was wrong (spec section 8). */
export const LOGIN_FAILED_MESSAGE = 'The login detail is incorrect';

// The ranking itself lives in ./roles.ts; these re-exports keep the account schemas' imports in one place.
export { USER_ROLES, type UserRole } from './roles.js';
/** A user's role, validated: one of USER_ROLES (./roles.ts). */
export const UserRoleSchema = z.enum(USER_ROLES, { error: 'Role is not valid' });

/** An interface language. */
export const LanguageSchema = z.enum(LANGUAGES, { error: 'Language is not valid' });

/** A required, trimmed email address. */
export function emailField(name = 'Email') {
  return z
    .string({ error: `${name} is required` })
    .trim()
    .min(1, `${name} is required`)
    .max(254, `${name} is not valid`)
    .pipe(z.email(`${name} is not valid`));
}

/** A new password: at least the minimum length (spec section 5). */
export function newPasswordField(name = 'Password') {
  return z
    .string({ error: `${name} is required` })
    .min(1, `${name} is required`)
    .min(LIMITS.passwordMinLength, `${name} minimum length is ${LIMITS.passwordMinLength}`)
    .max(200, `${name} is not valid`);
}

const requiredPassword = z.string({ error: 'Password is required' }).min(1, 'Password is required').max(200);

/** A time zone the runtime knows. */
export const TimeZoneSchema = z.string().refine(isTimeZone, 'Time zone is not valid');

/** `POST /api/accounts/login/`: sign in with credentials. */
export const LoginRequestSchema = z.object({ email: emailField(), password: requiredPassword });
/** Sign-in credentials. */
export type LoginRequest = z.infer<typeof LoginRequestSchema>;

/** The OAuth token response: the login call and the provider's token endpoint both answer it. */
export const TokenResponseSchema = z.object({
  access_token: z.string(),
  token_type: z.literal('Bearer'),
  expires_in: z.number().int().positive(),
});
/** A token response. */
export type TokenResponse = z.infer<typeof TokenResponseSchema>;

/** `POST /api/accounts/register/`: a new company with its first user, the owner. */
export const RegistrationRequestSchema = z
  .object({
    company_name: z
      .string({ error: 'Company name is required' })
      .trim()
      .min(1, 'Company name is required')
      .max(120),
    first_name: z
      .string({ error: 'First name is required' })
      .trim()
      .min(1, 'First name is required')
      .max(100),
    last_name: z.string().trim().max(100).default(''),
    email: emailField(),
    password: newPasswordField(),
    confirm_password: z.string().default(''),
    accept_terms: z.literal(true, { error: 'Accepting terms & conditions are required' }),
  })
  .refine((value) => value.password === value.confirm_password, {
    path: ['confirm_password'],
    message: 'Confirm password is not valid',
  });
/** A registration. */
export type RegistrationRequest = z.infer<typeof RegistrationRequestSchema>;

/** Whom a user hears from us by: the account's communication preferences. */
export const CommunicationSchema = z.object({ email: z.boolean(), sms: z.boolean(), phone: z.boolean() });

/** `GET/PUT /api/accounts/settings/`: the signed-in user's own settings. */
export const AccountSettingsSchema = z.object({
  username: z.string({ error: 'Username is required' }).trim().min(1, 'Username is required').max(150),
  email: emailField(),
  language: LanguageSchema,
  time_zone: TimeZoneSchema,
  communication: CommunicationSchema,
});
/** Account settings. */
export type AccountSettings = z.infer<typeof AccountSettingsSchema>;

/** Who is signed in, as `GET /api/accounts/verify/` answers. */
export const CurrentUserSchema = z.object({
  id: z.number().int(),
  email: z.string(),
  username: z.string(),
  first_name: z.string(),
  last_name: z.string(),
  role: UserRoleSchema,
  is_staff: z.boolean(),
  /**
   * The company; `time_zone` is the zone its figures are counted in (the dashboards' "today"). Always sent;
   * optional so a session answer from before it was added still reads.
   */
  company: z.object({ id: z.number().int(), name: z.string(), time_zone: z.string().optional() }),
  features: z.array(z.string()),
  settings: AccountSettingsSchema,
  /** Set while a staff member acts as this user: the banner names them. */
  impersonator: z.object({ id: z.number().int(), email: z.string(), name: z.string() }).nullable(),
});
/** The signed-in user. */
export type CurrentUser = z.infer<typeof CurrentUserSchema>;

/** `PUT /api/accounts/password/`. */
export const PasswordChangeSchema = z
  .object({
    current_password: z
      .string({ error: 'Current password is required' })
      .min(1, 'Current password is required'),
    new_password: newPasswordField('New password'),
    confirm_password: z.string().default(''),
  })
  .refine((value) => value.new_password === value.confirm_password, {
    path: ['confirm_password'],
    message: 'Confirm password is not valid',
  });
/** A password change. */
export type PasswordChange = z.infer<typeof PasswordChangeSchema>;

/** A user of the company, as `/api/accounts/user/` lists them. */
export const CompanyUserSchema = z.object({
  id: z.number().int(),
  email: z.string(),
  username: z.string(),
  first_name: z.string(),
  last_name: z.string(),
  role: UserRoleSchema,
  is_active: z.boolean(),
  last_login_at: z.string().nullable(),
  created_at: z.string(),
});
/** A company user. */
export type CompanyUser = z.infer<typeof CompanyUserSchema>;

/** A page of company users. */
export const CompanyUserPageSchema = pageOf(CompanyUserSchema);

/** `GET /api/accounts/user/` filters. */
export const CompanyUserListQuerySchema = PagingQuerySchema.extend({
  q: z.string().trim().max(200).optional(),
});

/** `POST /api/accounts/user/`: a new user with a first password they can change. */
export const CompanyUserCreateSchema = z.object({
  email: emailField(),
  first_name: z.string().trim().max(100).default(''),
  last_name: z.string().trim().max(100).default(''),
  role: UserRoleSchema,
  password: newPasswordField(),
});
/** A new company user. */
export type CompanyUserCreate = z.infer<typeof CompanyUserCreateSchema>;

/** `PUT /api/accounts/user/{id}/`. */
export const CompanyUserUpdateSchema = z.object({
  username: z.string().trim().min(1, 'Username is required').max(150).optional(),
  first_name: z.string().trim().max(100).optional(),
  last_name: z.string().trim().max(100).optional(),
  role: UserRoleSchema.optional(),
  is_active: z.boolean().optional(),
});
/** Changes to a company user. */
export type CompanyUserUpdate = z.infer<typeof CompanyUserUpdateSchema>;

/** A company API token as listed: never the key. */
export const CompanyTokenSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  key_prefix: z.string(),
  created_by: z.number().int().nullable(),
  created_at: z.string(),
  last_used_at: z.string().nullable(),
  revoked_at: z.string().nullable(),
});
/** A company API token. */
export type CompanyToken = z.infer<typeof CompanyTokenSchema>;

/** `POST /api/accounts/company-tokens/`. */
export const CompanyTokenCreateSchema = z.object({
  name: z.string({ error: 'Name is required' }).trim().min(1, 'Name is required').max(LIMITS.nameMaxLength),
});

/** A token just made: the only answer that carries the key. */
export const CompanyTokenCreatedSchema = CompanyTokenSchema.extend({ key: z.string() });
/** A token just made, with its key. */
export type CompanyTokenCreated = z.infer<typeof CompanyTokenCreatedSchema>;

/** `GET /api/customers/company-features/`: the feature names the company has. */
export const CompanyFeaturesSchema = z.array(z.string());

/** A sender address of campaign email. */
export const EmailSenderSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  email: z.string(),
  reply_to: z.string(),
  is_default: z.boolean(),
  verified_at: z.string().nullable(),
  created_at: z.string(),
});
/** An email sender. */
export type EmailSender = z.infer<typeof EmailSenderSchema>;

/** `POST /api/campaigns/email-sender/` and PUT on one. */
export const EmailSenderInputSchema = z.object({
  name: z.string({ error: 'Name is required' }).trim().min(1, 'Name is required').max(LIMITS.nameMaxLength),
  email: emailField(),
  reply_to: z
    .string()
    .trim()
    .max(254)
    .default('')
    .refine((value) => value === '' || z.email().safeParse(value).success, 'Reply-to is not valid'),
  /** Omitted: a company's first sender becomes the default, and a change keeps the current mark. */
  is_default: z.boolean().optional(),
});
/** An email sender's fields. */
export type EmailSenderInput = z.infer<typeof EmailSenderInputSchema>;

/** A user support staff may act as, in `GET /api/accounts/hijack/users/`. */
export const HijackCandidateSchema = z.object({
  id: z.number().int(),
  email: z.string(),
  name: z.string(),
  role: UserRoleSchema,
  company: z.object({ id: z.number().int(), name: z.string() }),
});
/** A user staff may act as. */
export type HijackCandidate = z.infer<typeof HijackCandidateSchema>;

/** `POST /api/accounts/hijack/`: start acting as a user. */
export const HijackStartSchema = z.object({ user_id: z.number().int().positive('User is required') });

/**
 * `GET /api/auth/config/` (public): what the app needs to sign in against whichever provider the
 * server trusts.
 */
export const AuthConfigSchema = z.object({
  issuer: z.string(),
  authorization_endpoint: z.string(),
  token_endpoint: z.string(),
  end_session_endpoint: z.string().nullable(),
  client_id: z.string(),
  redirect_uri: z.string(),
  scope: z.string(),
  /** The API's resource indicator, sent so the provider issues a JWT for this API. */
  resource: z.string(),
});
/** Sign-in configuration. */
export type AuthConfig = z.infer<typeof AuthConfigSchema>;

/** `POST /api/accounts/hijack/`: a token acting as the user, and the impersonation it belongs to. */
export const HijackStartedSchema = TokenResponseSchema.extend({ impersonation_id: z.number().int() });
/** A started impersonation. */
export type HijackStarted = z.infer<typeof HijackStartedSchema>;

/** A support session as the company sees it in `GET /api/accounts/impersonations/`. */
export const ImpersonationSchema = z.object({
  id: z.number().int(),
  user_id: z.number().int(),
  staff_user_id: z.number().int(),
  started_at: z.string(),
  ended_at: z.string().nullable(),
});
/** A support session. */
export type Impersonation = z.infer<typeof ImpersonationSchema>;

/** `GET /api/customers/email-provider/`: an outside sending service, never with its secrets. */
export const EmailProviderSchema = z.object({
  id: z.number().int(),
  provider: z.string(),
  /** At most the last four characters of the key. */
  api_key_masked: z.string(),
  has_api_key: z.boolean(),
  /** Provider settings with every secret-looking value masked. */
  settings: z.record(z.string(), z.unknown()),
  created_at: z.string(),
  updated_at: z.string(),
});
/** An email provider set-up. */
export type EmailProvider = z.infer<typeof EmailProviderSchema>;

/** The acknowledgement of logout and release calls. */
export const OkSchema = z.object({ ok: z.literal(true) });
