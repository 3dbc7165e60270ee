import type { FastifyInstance, FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import type Provider from 'oidc-provider';
import { errors as oidcErrors } from 'oidc-provider';
import type { Database } from '../../db/database.js';
import { ApiError } from '../../http/errors.js';
import { registerCompany, UserEmailTakenError } from '../../services/registration.service.js';
import { RegistrationRequestSchema } from '../../../src/schemas/accounts.js';
import { SignInRejectedError, SignInThrottledError, verifyCredentials } from '../credentials.js';
import type { AuthSettings } from '../settings.js';
import { fill, pageLanguage, signinMessages, type PageLocale, type SigninMessages } from './language.js';
import {
  loginPage,
  messagePage,
  pageSecurityPolicy,
  registerPage,
  type FieldErrors,
  type RegistrationValues,
} from './pages.js';
import { addFirstPartyScopes, interactionPath, stringParam } from './provider.js';

/** What the sign-in pages are served with. */
export interface InteractionRoutesOptions {
  provider: Provider;
  db: Database;
  settings: AuthSettings;
  /** The installation's product name (BRAND_NAME), which the pages show. */
  brandName: string;
}

type InteractionDetails = Awaited<ReturnType<Provider['interactionDetails']>>;
type InteractionRequest = FastifyRequest<{ Params: { uid: string } }>;

/** The registration form's fields and the catalogue label each one is shown with. */
const REGISTRATION_FIELDS = {
  company_name: 'companyName',
  first_name: 'firstName',
  last_name: 'lastName',
  email: 'email',
  password: 'password',
  confirm_password: 'confirmPassword',
} as const satisfies Record<string, keyof SigninMessages['fields']>;

// The schema's English field names, as they open its messages ('Company name is required').
const ENGLISH_FIELD_NAMES: Record<string, keyof SigninMessages['fields']> = {
  'Company name': 'companyName',
  'First name': 'firstName',
  'Last name': 'lastName',
  Email: 'email',
  Password: 'password',
  'Confirm password': 'confirmPassword',
};

/** One text value of a submitted form (urlencoded or JSON); empty when absent. */
function formValue(body: unknown, name: string): string {
  if (typeof body !== 'object' || body === null) return '';
  const value = (body as Record<string, unknown>)[name];
  return typeof value === 'string' ? value : '';
}

/**
 * Puts one of the spec's validation messages into the page's language. Any other message (a limit the
 * form's maxlength already prevents) is shown as the field's "is not valid".
 */
export function translateValidationMessage(message: string, field: string, text: SigninMessages): string {
  if (message === 'Accepting terms & conditions are required') return text.validation.acceptTerms;
  const label = (englishName: string | undefined): string => {
    const key =
      (englishName ? ENGLISH_FIELD_NAMES[englishName] : undefined) ??
      REGISTRATION_FIELDS[field as keyof typeof REGISTRATION_FIELDS];
    return key ? text.fields[key] : (englishName ?? field);
  };
  const required = /^(.+) is required$/.exec(message);
  if (required) return fill(text.validation.required, { name: label(required[1]) });
  const notValid = /^(.+) is not valid$/.exec(message);
  if (notValid) return fill(text.validation.notValid, { name: label(notValid[1]) });
  const minimum = /^(.+) minimum length is (\d+)$/.exec(message);
  if (minimum) return fill(text.validation.minLength, { name: label(minimum[1]), min: minimum[2]! });
  if (field === 'accept_terms') return text.validation.acceptTerms;
  return fill(text.validation.notValid, { name: label(undefined) });
}

function sendPage(reply: FastifyReply, status: number, html: string, formTargets: readonly string[]) {
  return reply
    .code(status)
    .header('content-type', 'text/html; charset=utf-8')
    .header('cache-control', 'no-store')
    .header('referrer-policy', 'no-referrer')
    .header('x-content-type-options', 'nosniff')
    .header('content-security-policy', pageSecurityPolicy(formTargets))
    .send(html);
}

/** The sign-in pages under /oidc/interaction/:uid, served by Fastify beside the mounted provider. */
export function interactionRoutes(options: InteractionRoutesOptions): FastifyPluginAsync {
  const { provider, db, settings, brandName } = options;
  const loginUrl = `${settings.publicUrl}/login`;
  // Forms post here and the provider then redirects to the app: both must be allowed form targets.
  const formTargets = [
    ...new Set([settings.publicUrl, ...settings.redirectUris].map((uri) => new URL(uri).origin)),
  ];

  const expiredPage = (request: FastifyRequest, reply: FastifyReply) => {
    const locale = {
      language: pageLanguage(undefined, request.headers['accept-language']),
      brand: brandName,
    };
    const text = signinMessages(locale);
    const html = messagePage(locale, {
      title: text.expired.title,
      body: text.expired.body,
      linkHref: loginUrl,
      linkText: text.backToApp,
    });
    return sendPage(reply, 400, html, formTargets);
  };

  /** The interaction this browser is in, or null when its cookie is gone, expired or for another page. */
  const interactionOf = async (
    request: InteractionRequest,
    reply: FastifyReply,
  ): Promise<InteractionDetails | null> => {
    try {
      const details = await provider.interactionDetails(request.raw, reply.raw);
      return details.uid === request.params.uid ? details : null;
    } catch (error) {
      if (error instanceof oidcErrors.SessionNotFound) return null;
      throw error;
    }
  };

  const localeOf = (details: InteractionDetails, request: FastifyRequest): PageLocale => ({
    language: pageLanguage(details.params.ui_locales, request.headers['accept-language']),
    brand: brandName,
  });

  const finish = async (
    request: FastifyRequest,
    reply: FastifyReply,
    result: Parameters<Provider['interactionResult']>[2],
  ) => {
    const returnTo = await provider.interactionResult(request.raw, reply.raw, result, {
      mergeWithLastSubmission: false,
    });
    return reply.header('cache-control', 'no-store').redirect(returnTo, 303);
  };

  /** Consent is never asked of the first-party app: grant what it asked for and carry on. */
  const grantConsent = async (request: FastifyRequest, reply: FastifyReply, details: InteractionDetails) => {
    const accountId = details.session?.accountId;
    const clientId = stringParam(details.params.client_id);
    if (!accountId || clientId !== settings.clientId) {
      return finish(request, reply, { error: 'access_denied', error_description: 'Consent required' });
    }
    const existing = details.grantId ? await provider.Grant.find(details.grantId) : undefined;
    const grant = existing ?? new provider.Grant({ accountId, clientId });
    addFirstPartyScopes(grant, details.params.scope, settings);
    const grantId = await grant.save();
    return finish(request, reply, { consent: { grantId } });
  };

  const paths = (uid: string) => ({
    login: interactionPath(uid),
    loginAction: `${interactionPath(uid)}/login`,
    register: `${interactionPath(uid)}/register`,
  });

  return async (app: FastifyInstance) => {
    app.setErrorHandler((error: { statusCode?: number }, request, reply) => {
      // The rate limit (server/http/security.ts) refuses with the API's error, before the page's handler.
      const statusCode = error instanceof ApiError ? error.status : error.statusCode;
      const status = typeof statusCode === 'number' && statusCode < 500 ? statusCode : 500;
      if (status >= 500) request.log.error({ err: error }, 'sign-in page failed');
      const locale = {
        language: pageLanguage(undefined, request.headers['accept-language']),
        brand: brandName,
      };
      const text = signinMessages(locale);
      const minutes = Math.max(1, Math.ceil(Number(reply.getHeader('retry-after') ?? 60) / 60));
      const throttled =
        minutes === 1 ? text.errors.throttledOneMinute : fill(text.errors.throttled, { minutes });
      const html = messagePage(locale, {
        title: text.failure.title,
        body: status === 429 ? throttled : text.failure.body,
        linkHref: loginUrl,
        linkText: text.backToApp,
      });
      return sendPage(reply, status, html, formTargets);
    });

    const routeConfig = { schema: { hide: true } };
    const signInConfig = { ...routeConfig, config: { limit: 'signIn' as const } };
    const registrationConfig = { ...routeConfig, config: { limit: 'registration' as const } };

    app.get<{ Params: { uid: string } }>('/oidc/interaction/:uid', routeConfig, async (request, reply) => {
      const details = await interactionOf(request, reply);
      if (!details) return expiredPage(request, reply);
      if (details.prompt.name === 'consent') return grantConsent(request, reply, details);
      const locale = localeOf(details, request);
      const url = paths(details.uid);
      const loginHint = typeof details.params.login_hint === 'string' ? details.params.login_hint : '';
      const html = loginPage({
        locale,
        action: url.loginAction,
        registerHref: url.register,
        email: loginHint,
      });
      return sendPage(reply, 200, html, formTargets);
    });

    app.post<{ Params: { uid: string } }>(
      '/oidc/interaction/:uid/login',
      signInConfig,
      async (request, reply) => {
        const details = await interactionOf(request, reply);
        if (!details) return expiredPage(request, reply);
        const locale = localeOf(details, request);
        const text = signinMessages(locale);
        const url = paths(details.uid);
        const email = formValue(request.body, 'email').trim();
        const password = formValue(request.body, 'password');
        const page = (status: number, extra: { formError?: string; fieldErrors?: FieldErrors }) =>
          sendPage(
            reply,
            status,
            loginPage({ locale, action: url.loginAction, registerHref: url.register, email, ...extra }),
            formTargets,
          );

        if (!email || !password) {
          const fieldErrors: FieldErrors = {};
          if (!email) fieldErrors.email = fill(text.validation.required, { name: text.fields.email });
          if (!password)
            fieldErrors.password = fill(text.validation.required, { name: text.fields.password });
          return page(400, { fieldErrors });
        }
        try {
          const user = await verifyCredentials(db, { email, password, address: request.ip });
          request.log.info({ userId: user.id, companyId: user.company_id }, 'signed in through the provider');
          return await finish(request, reply, { login: { accountId: String(user.id) } });
        } catch (error) {
          if (error instanceof SignInRejectedError) {
            // Never which part was wrong, and never the email in the log.
            request.log.info('sign-in refused');
            return page(401, { formError: text.errors.loginFailed });
          }
          if (error instanceof SignInThrottledError) {
            const minutes = Math.max(1, Math.ceil(error.retryAfterSeconds / 60));
            request.log.warn({ retryAfterSeconds: error.retryAfterSeconds }, 'sign-in throttled');
            reply.header('retry-after', String(Math.max(1, Math.ceil(error.retryAfterSeconds))));
            const formError =
              minutes === 1 ? text.errors.throttledOneMinute : fill(text.errors.throttled, { minutes });
            return page(429, { formError });
          }
          throw error;
        }
      },
    );

    app.get<{ Params: { uid: string } }>(
      '/oidc/interaction/:uid/register',
      routeConfig,
      async (request, reply) => {
        const details = await interactionOf(request, reply);
        if (!details) return expiredPage(request, reply);
        const locale = localeOf(details, request);
        const url = paths(details.uid);
        const html = registerPage({ locale, action: url.register, loginHref: url.login });
        return sendPage(reply, 200, html, formTargets);
      },
    );

    app.post<{ Params: { uid: string } }>(
      '/oidc/interaction/:uid/register',
      registrationConfig,
      async (request, reply) => {
        const details = await interactionOf(request, reply);
        if (!details) return expiredPage(request, reply);
        const locale = localeOf(details, request);
        const text = signinMessages(locale);
        const url = paths(details.uid);
        const acceptTerms = ['on', 'true', 'yes', '1'].includes(formValue(request.body, 'accept_terms'));
        const values: RegistrationValues = {
          company_name: formValue(request.body, 'company_name'),
          first_name: formValue(request.body, 'first_name'),
          last_name: formValue(request.body, 'last_name'),
          email: formValue(request.body, 'email'),
          accept_terms: acceptTerms,
        };
        const page = (status: number, fieldErrors: FieldErrors) =>
          sendPage(
            reply,
            status,
            registerPage({
              locale,
              action: url.register,
              loginHref: url.login,
              values,
              fieldErrors,
              formError: text.errors.formInvalid,
            }),
            formTargets,
          );

        const password = formValue(request.body, 'password');
        const confirmPassword = formValue(request.body, 'confirm_password');
        const parsed = RegistrationRequestSchema.safeParse({
          ...values,
          password,
          confirm_password: confirmPassword,
        });
        if (!parsed.success) {
          const fieldErrors: FieldErrors = {};
          for (const issue of parsed.error.issues) {
            const field = String(issue.path[0] ?? '');
            fieldErrors[field] ??= translateValidationMessage(issue.message, field, text);
          }
          // The schema compares the passwords only once every field is valid; tell it at once instead.
          if (password !== confirmPassword) {
            fieldErrors.confirm_password ??= translateValidationMessage(
              'Confirm password is not valid',
              'confirm_password',
              text,
            );
          }
          return page(400, fieldErrors);
        }
        try {
          const owner = await registerCompany(db, parsed.data);
          request.log.info({ userId: owner.id, companyId: owner.company_id }, 'company registered');
          return await finish(request, reply, { login: { accountId: String(owner.id) } });
        } catch (error) {
          if (error instanceof UserEmailTakenError) return page(409, { email: text.errors.emailTaken });
          throw error;
        }
      },
    );
  };
}
