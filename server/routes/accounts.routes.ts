import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  AccountSettingsSchema,
  CompanyFeaturesSchema,
  CurrentUserSchema,
  LoginRequestSchema,
  OkSchema,
  PasswordChangeSchema,
  RegistrationRequestSchema,
  TokenResponseSchema,
} from '../../src/schemas/accounts.js';
import { ApiErrorSchema } from '../../src/schemas/common.js';
import { principalOf } from '../auth/principal.js';
import { access } from '../http/access.js';
import { companyOf, writeScopeOf } from '../http/scope.js';
import { TooManySignInAttemptsError, type AccountsService } from '../services/accounts.service.js';

const errors = { 400: ApiErrorSchema, 401: ApiErrorSchema, 403: ApiErrorSchema, 404: ApiErrorSchema };
const tags = ['Accounts'];
const PUBLIC = { public: true } as const;
// Every signed-in person manages their own account, whatever their role; integration tokens never do.
const OWN_ACCOUNT = access(null, 'analyst', { userOnly: true });

/** Sign-in, registration and the signed-in user's own account (spec section 7, Account). */
export function accountsRoutes(service: AccountsService): FastifyPluginAsyncZod {
  return async (app) => {
    app.post(
      '/accounts/login/',
      {
        config: { ...PUBLIC, limit: 'signIn' },
        schema: {
          tags,
          summary: 'Sign in with email and password (embedded provider only)',
          security: [],
          body: LoginRequestSchema,
          response: { 200: TokenResponseSchema, 429: ApiErrorSchema, ...errors },
        },
      },
      async (request, reply) => {
        try {
          return await service.login(request.body, request.ip);
        } catch (error) {
          if (error instanceof TooManySignInAttemptsError) {
            reply.header('retry-after', String(error.retryAfterSeconds));
          }
          throw error;
        }
      },
    );

    app.post(
      '/accounts/register/',
      {
        config: { ...PUBLIC, limit: 'registration' },
        schema: {
          tags,
          summary: 'Register a company and its owner, and sign the owner in',
          security: [],
          body: RegistrationRequestSchema,
          response: { 201: TokenResponseSchema, 409: ApiErrorSchema, 429: ApiErrorSchema, ...errors },
        },
      },
      async (request, reply) => reply.status(201).send(await service.register(request.body)),
    );

    app.get(
      '/accounts/verify/',
      {
        config: OWN_ACCOUNT,
        schema: { tags, summary: 'The signed-in user', response: { 200: CurrentUserSchema, ...errors } },
      },
      async (request) => service.currentUser(principalOf(request)),
    );

    app.put(
      '/accounts/password/',
      {
        config: OWN_ACCOUNT,
        schema: {
          tags,
          summary: 'Change the password; earlier tokens stop working and a fresh one is answered',
          body: PasswordChangeSchema,
          response: { 200: TokenResponseSchema, 409: ApiErrorSchema, ...errors },
        },
      },
      async (request) => service.changePassword(principalOf(request), writeScopeOf(request), request.body),
    );

    app.get(
      '/accounts/logout/',
      {
        config: OWN_ACCOUNT,
        schema: {
          tags,
          summary: 'Sign out everywhere (or end the impersonation this token belongs to)',
          response: { 200: OkSchema, ...errors },
        },
      },
      async (request) => {
        await service.logout(principalOf(request));
        return { ok: true as const };
      },
    );

    app.get(
      '/accounts/settings/',
      {
        config: OWN_ACCOUNT,
        schema: {
          tags,
          summary: 'Own account settings',
          response: { 200: AccountSettingsSchema, ...errors },
        },
      },
      async (request) => service.settings(principalOf(request)),
    );

    app.put(
      '/accounts/settings/',
      {
        config: OWN_ACCOUNT,
        schema: {
          tags,
          summary: 'Save own account settings',
          body: AccountSettingsSchema,
          response: { 200: AccountSettingsSchema, 409: ApiErrorSchema, ...errors },
        },
      },
      async (request) => service.saveSettings(principalOf(request), writeScopeOf(request), request.body),
    );

    app.get(
      '/customers/company-features/',
      {
        // Every caller needs its feature list to know what it may open, so no feature is required.
        config: access(null, 'analyst'),
        schema: {
          tags,
          summary: "The company's feature names",
          response: { 200: CompanyFeaturesSchema, ...errors },
        },
      },
      async (request) => service.features(companyOf(request)),
    );
  };
}
