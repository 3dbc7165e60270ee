import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Database } from '../db/database.js';
import { ApiError } from '../http/errors.js';
import { findActiveCompanyTokenByHash } from '../repositories/company-tokens.repository.js';
import { listCompanyFeatures } from '../repositories/company-features.repository.js';
import { isImpersonationOpen } from '../repositories/impersonations.repository.js';
import { isGrantRevoked } from '../repositories/revoked-grants.repository.js';
import { findUserAuthority, type UserAuthorityRow, type UserRole } from '../repositories/users.repository.js';
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

async function userFor(
  db: Database,
  settings: AuthSettings,
  token: VerifiedAccessToken,
): Promise<UserAuthorityRow | null> {
  if (settings.embedded) {
    const id = subjectUserId(token.subject);
    return id === null ? null : db.platform((sql) => findUserAuthority(sql, { id }));
  }
  // An external issuer's subjects are its own; its accounts match ours by email.
  const email = token.email;
  return email ? db.platform((sql) => findUserAuthority(sql, { email })) : null;
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
  // One primary-key read, only for tokens of the embedded provider's code flow.
  const grantId = token.grantId;
  if (grantId !== null && (await db.platform((sql) => isGrantRevoked(sql, grantId)))) {
    throw unauthenticated('The access token was revoked');
  }
  const user = await userFor(db, settings, token);
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

  const staffId = subjectUserId(token.actorSubject);
  const staff = staffId === null ? null : await db.platform((sql) => findUserAuthority(sql, { id: staffId }));
  const impersonationId = token.impersonationId;
  const open =
    impersonationId !== null && staff?.is_staff === true && staff.is_active
      ? await db.platform((sql) =>
          isImpersonationOpen(sql, { id: impersonationId, staffUserId: staff.id, userId: user.id }),
        )
      : false;
  if (!open || !staff) throw unauthenticated('The impersonation behind this token has ended');
  return { ...principal, actorUserId: staff.id, isStaff: true, impersonationId: token.impersonationId };
}

async function companyTokenPrincipal(db: Database, credential: string): Promise<Principal> {
  const token = await db.platform((sql) => findActiveCompanyTokenByHash(sql, hashCompanyKey(credential)));
  if (!token) throw unauthenticated('The company token is not valid or was revoked');
  const features = await db.tenant(token.company_id, (sql) => listCompanyFeatures(sql, token.company_id));
  return {
    companyId: token.company_id,
    userId: token.created_by,
    actorUserId: token.created_by,
    tokenId: token.id,
    role: COMPANY_TOKEN_ROLE,
    isStaff: false,
    features: new Set(features.map((row) => row.feature)),
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
