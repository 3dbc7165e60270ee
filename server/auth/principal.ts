import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Database } from '../db/database.js';
import { ApiError } from '../http/errors.js';
import { findActiveCompanyTokenByHash } from '../repositories/company-tokens.repository.js';
import { hashCompanyKey } from './company-token.js';

/** Who is calling: always a company, and the user or token that acts for it. */
export interface Principal {
  companyId: number;
  userId: number | null;
  tokenId: number | null;
}

declare module 'fastify' {
  interface FastifyRequest {
    principal: Principal | null;
  }
}

/** API paths anyone may call without credentials. */
const PUBLIC_API_PATHS = new Set(['/api/health', '/api/openapi.json']);

function isPublic(url: string): boolean {
  const path = url.split('?')[0] ?? url;
  return PUBLIC_API_PATHS.has(path) || path === '/api/docs' || path.startsWith('/api/docs/');
}

/** The caller of a route that required sign-in; routes use it to learn their company. */
export function principalOf(request: FastifyRequest): Principal {
  if (!request.principal) throw new ApiError(401, 'unauthenticated', 'Sign-in is required');
  return request.principal;
}

/** Resolves `Authorization: Token <key>` for every /api call but the public ones; 401 otherwise. */
export function registerAuthentication(app: FastifyInstance, db: Database): void {
  app.decorateRequest('principal', null);
  app.addHook('onRequest', async (request) => {
    if (!request.url.startsWith('/api/') || isPublic(request.url)) return;
    const header = request.headers.authorization ?? '';
    const [scheme, credential] = header.split(/\s+/, 2);
    if (scheme === 'Token' && credential) {
      const token = await findActiveCompanyTokenByHash(db, hashCompanyKey(credential));
      if (token) {
        request.principal = { companyId: token.company_id, userId: token.created_by, tokenId: token.id };
        return;
      }
    }
    throw new ApiError(401, 'unauthenticated', 'A valid access token is required');
  });
}
