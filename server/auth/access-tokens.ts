import { randomUUID } from 'node:crypto';
import {
  createLocalJWKSet,
  createRemoteJWKSet,
  importJWK,
  jwtVerify,
  SignJWT,
  errors as joseErrors,
  type JWTPayload,
  type JWTVerifyGetKey,
} from 'jose';
import type { AuthSettings } from './settings.js';
import { SIGNING_ALGORITHM, type SigningKeys } from './signing-keys.js';

/** What the token endpoint and the login call answer: the standard OAuth token response. */
export interface TokenResponse {
  access_token: string;
  token_type: 'Bearer';
  expires_in: number;
}

/** The claims the API relies on, read from a verified access token. */
export interface VerifiedAccessToken {
  subject: string;
  /**
   * When it was issued, in ms since the epoch: this installation's tokens carry `issued_at_ms`; for
   * others it is `iat` (whole seconds), so a revocation in that same second also refuses them.
   */
  issuedAtMs: number;
  expiresAt: number;
  /** The email claim, used to find the account when the issuer is external. */
  email: string | null;
  /** During impersonation: the staff user really acting, and the impersonation record. */
  actorSubject: string | null;
  impersonationId: number | null;
  /** The embedded provider's grant the token was issued under (revoked when its code is replayed). */
  grantId: string | null;
}

/** The claim naming the embedded provider's grant a token was issued under. */
export const GRANT_ID_CLAIM = 'grant_id';

/**
 * The claim naming a token's issue time in milliseconds. JWT `iat` counts whole seconds, which cannot tell a
 * token issued just before a logout from one issued just after it in the same second.
 */
export const ISSUED_AT_MS_CLAIM = 'issued_at_ms';

/** Raised for any token the API must refuse; the message says why without echoing the token. */
export class InvalidAccessTokenError extends Error {
  constructor(reason: string) {
    super(reason);
    this.name = 'InvalidAccessTokenError';
  }
}

/** Issues the API's own access tokens (login call, impersonation) and verifies every Bearer token. */
export interface AccessTokens {
  issue(input: {
    userId: number;
    impersonation?: { staffUserId: number; id: number };
  }): Promise<TokenResponse>;
  verify(token: string): Promise<VerifiedAccessToken>;
}

async function discoverJwksUri(issuer: string): Promise<string> {
  const response = await fetch(`${issuer}/.well-known/openid-configuration`);
  if (!response.ok) throw new Error(`OpenID discovery failed for ${issuer}: HTTP ${response.status}`);
  const document = (await response.json()) as { jwks_uri?: string };
  if (!document.jwks_uri) throw new Error(`OpenID discovery for ${issuer} names no jwks_uri`);
  return document.jwks_uri;
}

function keyResolver(settings: AuthSettings, keys: SigningKeys): JWTVerifyGetKey {
  if (settings.embedded) return createLocalJWKSet({ keys: keys.publicJwks });
  // An external issuer: its keys are fetched (and cached, and refreshed on an unknown kid) from its JWKS.
  let remote: Promise<JWTVerifyGetKey> | null = null;
  return async (header, token) => {
    remote ??= (async () =>
      createRemoteJWKSet(new URL(settings.jwksUri ?? (await discoverJwksUri(settings.issuer)))))();
    return (await remote)(header, token);
  };
}

function stringClaim(payload: JWTPayload, name: string): string | null {
  const value = payload[name];
  return typeof value === 'string' ? value : null;
}

function describeFailure(error: unknown): string {
  if (error instanceof joseErrors.JWTExpired) return 'The access token has expired';
  if (
    error instanceof joseErrors.JWSSignatureVerificationFailed ||
    error instanceof joseErrors.JWKSNoMatchingKey
  ) {
    return 'The access token is not signed by a trusted key';
  }
  if (error instanceof joseErrors.JWTClaimValidationFailed)
    return `The access token's ${error.claim} claim is not accepted`;
  return 'The access token is not valid';
}

/** The access-token service for these settings and keys. */
export function accessTokens(settings: AuthSettings, keys: SigningKeys): AccessTokens {
  const getKey = keyResolver(settings, keys);
  const signingJwk = keys.privateJwks[0];
  return {
    async issue({ userId, impersonation }) {
      if (!settings.embedded || !signingJwk) {
        throw new Error('This server does not issue tokens: sign-in is handled by an external provider');
      }
      const key = await importJWK(signingJwk, SIGNING_ALGORITHM);
      const claims: JWTPayload = {
        client_id: settings.clientId,
        scope: 'openid api',
        [ISSUED_AT_MS_CLAIM]: Date.now(),
      };
      if (impersonation) {
        claims.act = { sub: String(impersonation.staffUserId) };
        claims.imp = impersonation.id;
      }
      const accessToken = await new SignJWT(claims)
        .setProtectedHeader({ alg: SIGNING_ALGORITHM, typ: 'at+jwt', kid: signingJwk.kid! })
        .setIssuer(settings.issuer)
        .setAudience(settings.audience)
        .setSubject(String(userId))
        .setJti(randomUUID())
        .setIssuedAt()
        .setExpirationTime(`${settings.accessTokenTtlSeconds}s`)
        .sign(key);
      return { access_token: accessToken, token_type: 'Bearer', expires_in: settings.accessTokenTtlSeconds };
    },

    async verify(token) {
      try {
        const { payload } = await jwtVerify(token, getKey, {
          issuer: settings.issuer,
          audience: settings.audience,
          algorithms: settings.embedded ? [SIGNING_ALGORITHM] : undefined,
          requiredClaims: ['sub', 'exp', 'iat'],
        });
        const act = payload.act as { sub?: unknown } | undefined;
        return {
          subject: payload.sub!,
          issuedAtMs:
            typeof payload[ISSUED_AT_MS_CLAIM] === 'number'
              ? payload[ISSUED_AT_MS_CLAIM]
              : payload.iat! * 1000,
          expiresAt: payload.exp!,
          email: stringClaim(payload, 'email'),
          actorSubject: act && typeof act.sub === 'string' ? act.sub : null,
          impersonationId: typeof payload.imp === 'number' ? payload.imp : null,
          // Only this installation's provider writes the claim; an external issuer's grants are not ours.
          grantId: settings.embedded ? stringClaim(payload, GRANT_ID_CLAIM) : null,
        };
      } catch (error) {
        throw new InvalidAccessTokenError(describeFailure(error));
      }
    },
  };
}
