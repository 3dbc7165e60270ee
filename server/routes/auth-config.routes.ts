import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { AuthConfigSchema } from '../../src/schemas/accounts.js';
import { ApiErrorSchema } from '../../src/schemas/common.js';
import type { AuthConfigService } from '../services/auth-config.service.js';

/** The origin the browser is on: its Origin header, else the scheme and Host it called. */
function requestOrigin(
  origin: string | undefined,
  protocol: string,
  host: string | undefined,
): string | null {
  if (origin && origin !== 'null') return origin;
  return host ? `${protocol}://${host}` : null;
}

/** `GET /api/auth/config/`: how the app signs in, asked before anyone is signed in. */
export function authConfigRoutes(service: AuthConfigService): FastifyPluginAsyncZod {
  return async (app) => {
    app.get(
      '/auth/config/',
      {
        config: { public: true },
        schema: {
          tags: ['Accounts'],
          summary: 'Sign-in configuration: provider endpoints, client id, redirect URI, scope, resource',
          security: [],
          response: { 200: AuthConfigSchema, 502: ApiErrorSchema },
        },
      },
      async (request) =>
        service.config(requestOrigin(request.headers.origin, request.protocol, request.headers.host)),
    );
  };
}
