import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Database, Sql } from '../db/database.js';
import { ApiError } from '../http/errors.js';
import { findActiveCompanyTokenByHash } from '../repositories/company-tokens.repository.js';
import { isImpersonationOpen } from '../repositories/impersonations.repository.js';
import {
  findTokenAuthority,
  findUserAuthority,
  type TokenAuthorityRow,
  type UserAuthorityRow,
  type UserRole,
} from '../repositories/users.repository.js';
import { InvalidAccessTokenError, type AccessTokens, type VerifiedAccessToken } from './access-tokens.js';
import { hashCompanyKey } from './company-token.js';
import type { AuthSettings } from './settings.js';

/** Who is calling: always a company, and the user or token that acts for it. */
export interface Principal {
  companyId: number;
  /** The user shown as acting: the signed-in user, the impersonated one, or a token's creator. */
  userId: number | null;
  /** The user really acting: the staff member during impersonation, otherwise `userId`. */
  actorUserId: number | null;
  /** The company API token used, when the call came with one. */
  tokenId: number | null;
  role: UserRole;
  /** True when the actor is platform staff. */
  isStaff: boolean;
  features: ReadonlySet<string>;
  impersonationId: number | null;
}

declare module 'fastify' {
  interface FastifyRequest {
    principal: Principal | null;
  }
  interface FastifyContextConfig {
    /** A route anyone may call without credentials. */
    public?: boolean;
  }
}

/**
 * The role a company API token acts with. Tokens are for integrations (loading data, reading reports),
 * so they may change company data but never accounts: account routes require a signed-in user.
 */
export const COMPANY_TOKEN_ROLE: UserRole = 'admin';

function isPublicDocs(url: string): boolean {
  const path = url.split('?')[0] ?? url;
  return path === '/api/docs' || path.startsWith('/api/docs/') || path === '/api/openapi.json';
}

/** The caller of a route that required sign-in; routes use it to learn their company. */
export function principalOf(request: FastifyRequest): Principal {
  if (!request.principal) throw new ApiError(401, 'unauthenticated', 'Sign-in is required');
  return request.principal;
}

function unauthenticated(message = 'A valid access token is required'): ApiError {
  return new ApiError(401, 'unauthenticated', message);
}

function subjectUserId(subject: string): number | null {
  return /^[1-9]\d{0,15}$/.test(subject) ? Number(subject) : null;
}

/**
 * The token's user and its grant's revocation, read in one statement: by id for this installation's tokens,
 * by email for an external issuer's (its subjects are its own; its accounts match ours by email).
 */
async function tokenAuthority(
  sql: Sql,
  settings: AuthSettings,
  token: VerifiedAccessToken,
): Promise<TokenAuthorityRow> {
  if (settings.embedded) {
    const id = subjectUserId(token.subject);
    return id === null ? { user: null, grantRevoked: false } : findTokenAuthority(sql, { id }, token.grantId);
  }
  const email = token.email;
  return email ? findTokenAuthority(sql, { email }, token.grantId) : { user: null, grantRevoked: false };
}

/** The staff member acting through an impersonation token, when that impersonation is still open. */
async function openImpersonator(
  sql: Sql,
  token: VerifiedAccessToken,
  user: UserAuthorityRow,
): Promise<UserAuthorityRow | null> {
  const staffId = token.actorSubject === null ? null : subjectUserId(token.actorSubject);
  const impersonationId = token.impersonationId;
  if (staffId === null || impersonationId === null) return null;
  const staff = await findUserAuthority(sql, { id: staffId });
  if (staff?.is_staff !== true || !staff.is_active) return null;
  const open = await isImpersonationOpen(sql, {
    id: impersonationId,
    staffUserId: staff.id,
    userId: user.id,
  });
  return open ? staff : null;
}

async function bearerPrincipal(
  db: Database,
  settings: AuthSettings,
  tokens: AccessTokens,
  credential: string,
): Promise<Principal> {
  let token: VerifiedAccessToken;
  try {
    token = await tokens.verify(credential);
  } catch (error) {
    if (error instanceof InvalidAccessTokenError) throw unauthenticated(error.message);
    throw error;
  }
  // One platform transaction, one statement for a plain token: every request sees revocations, logouts,
  // role and feature changes committed before it, with no cache to invalidate.
  return db.platform(async (sql) => {
    const { user, grantRevoked } = await tokenAuthority(sql, settings, token);
    if (grantRevoked) throw unauthenticated('The access token was revoked');
    if (!user || !user.is_active) throw unauthenticated('The account behind this token is not active');
    // Logout and password changes move tokens_valid_after; a token issued until then is refused.
    if (user.tokens_valid_after && token.issuedAtMs <= user.tokens_valid_after.getTime()) {
      throw unauthenticated('The access token was revoked by a logout');
    }
    const principal: Principal = {
      companyId: user.company_id,
      userId: user.id,
      actorUserId: user.id,
      tokenId: null,
      role: user.role,
      isStaff: user.is_staff,
      features: new Set(user.features),
      impersonationId: null,
    };
    if (token.actorSubject === null) return principal;
    const staff = await openImpersonator(sql, token, user);
    if (!staff) throw unauthenticated('The impersonation behind this token has ended');
    return { ...principal, actorUserId: staff.id, isStaff: true, impersonationId: token.impersonationId };
  });
}

async function companyTokenPrincipal(db: Database, credential: string): Promise<Principal> {
  // The token and its company's features in one statement of one transaction.
  const token = await db.platform((sql) => findActiveCompanyTokenByHash(sql, hashCompanyKey(credential)));
  if (!token) throw unauthenticated('The company token is not valid or was revoked');
  return {
    companyId: token.company_id,
    userId: token.created_by,
    actorUserId: token.created_by,
    tokenId: token.id,
    role: COMPANY_TOKEN_ROLE,
    isStaff: false,
    features: new Set(token.features),
    impersonationId: null,
  };
}

/**
 * Resolves the caller of every /api route that is not public, from `Authorization: Bearer <JWT>`
 * (verified against the issuer's keys) or `Authorization: Token <company key>`; 401 otherwise.
 */
export function registerAuthentication(
  app: FastifyInstance,
  db: Database,
  settings: AuthSettings,
  tokens: AccessTokens,
): void {
  app.decorateRequest('principal', null);
  app.addHook('onRequest', async (request) => {
    if (!request.url.startsWith('/api/') || request.routeOptions.config.public || isPublicDocs(request.url)) {
      return;
    }
    const header = request.headers.authorization ?? '';
    const [scheme, credential] = header.trim().split(/\s+/, 2);
    if (!credential) throw unauthenticated();
    if (scheme === 'Bearer') request.principal = await bearerPrincipal(db, settings, tokens, credential);
    else if (scheme === 'Token') request.principal = await companyTokenPrincipal(db, credential);
    else throw unauthenticated('Use "Authorization: Bearer <access token>" or "Authorization: Token <key>"');
  });
}
