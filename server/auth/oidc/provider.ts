import { randomBytes } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import Provider, {
  errors,
  type Account,
  type Configuration,
  type Grant,
  type KoaContextWithOIDC,
} from 'oidc-provider';
import type { Database } from '../../db/database.js';
import { getAccountSettings } from '../../repositories/account-settings.repository.js';
import { findUserAuthority, getUser } from '../../repositories/users.repository.js';
import { EMBEDDED_ISSUER_PATH, type AuthSettings } from '../settings.js';
import { GRANT_ID_CLAIM, ISSUED_AT_MS_CLAIM } from '../access-tokens.js';
import { loadCookieSecrets, loadSigningKeys, SIGNING_ALGORITHM } from '../signing-keys.js';
import { databaseAdapterFactory } from './adapter.js';
import { pageLanguage, signinMessages, type PageLocale } from './language.js';
import { messagePage, pageSecurityPolicy, signOutPage } from './pages.js';

/** The scope that names this API in access tokens (the resource server's only scope). */
export const API_SCOPE = 'api';

/** The OpenID scopes the provider knows, with the claims each releases. */
export const OIDC_CLAIMS = {
  openid: ['sub'],
  profile: ['name', 'given_name', 'family_name', 'locale'],
  email: ['email', 'email_verified'],
} as const;

/** How long an authorization code may wait to be exchanged (single use, short-lived). */
export const AUTHORIZATION_CODE_TTL_SECONDS = 60;

/** How long a login or registration page stays usable. */
export const INTERACTION_TTL_SECONDS = 30 * 60;

/** How long the provider keeps a browser signed in (silent re-authentication works meanwhile). */
export const SESSION_TTL_SECONDS = 14 * 24 * 60 * 60;

/** Where the sign-in pages live, below the provider's mount path. */
export function interactionPath(uid: string): string {
  return `${EMBEDDED_ISSUER_PATH}/interaction/${encodeURIComponent(uid)}`;
}

/** What the embedded provider is built from. */
export interface EmbeddedProviderOptions {
  db: Database;
  settings: AuthSettings;
  logger: FastifyBaseLogger;
  /** The installation's product name (BRAND_NAME), which the provider's own pages show. */
  brandName: string;
}

function userIdOf(accountId: string): number | null {
  return /^[1-9]\d{0,15}$/.test(accountId) ? Number(accountId) : null;
}

/** An active user as the provider sees them: accountId is the user id as a decimal string. */
async function findActiveAccount(db: Database, accountId: string): Promise<Account | undefined> {
  const userId = userIdOf(accountId);
  if (userId === null) return undefined;
  const authority = await db.platform((sql) => findUserAuthority(sql, { id: userId }));
  if (!authority?.is_active) return undefined;
  const { company_id: companyId } = authority;
  return {
    accountId: String(authority.id),
    async claims() {
      const [user, settings] = await Promise.all([
        db.tenant(companyId, (sql) => getUser(sql, companyId, userId)),
        db.tenant(companyId, (sql) => getAccountSettings(sql, companyId, userId)),
      ]);
      const name = [user?.first_name, user?.last_name].filter(Boolean).join(' ');
      return {
        sub: String(userId),
        email: user?.email,
        email_verified: user ? user.verified_at !== null : false,
        name: name || undefined,
        given_name: user?.first_name || undefined,
        family_name: user?.last_name || undefined,
        locale: settings?.language ?? 'en',
      };
    },
  };
}

/** A request parameter as a string; anything else (absent, repeated) reads as empty. */
export function stringParam(value: unknown): string {
  return typeof value === 'string' ? value : '';
}

/** Adds what the first-party app asked for to its grant: the requested OpenID scopes and the API scope. */
export function addFirstPartyScopes(grant: Grant, scopeParam: unknown, settings: AuthSettings): void {
  const requested = new Set(stringParam(scopeParam).split(' '));
  const oidcScopes = Object.keys(OIDC_CLAIMS).filter((scope) => requested.has(scope));
  if (oidcScopes.length > 0) grant.addOIDCScope(oidcScopes);
  grant.addResourceScope(settings.audience, API_SCOPE);
}

/**
 * The first-party app never sees a consent screen: its grant is made (or topped up) here with the
 * requested OpenID scopes and the API's scope, which also lets `prompt=none` answer without a page.
 */
async function firstPartyGrant(ctx: KoaContextWithOIDC, settings: AuthSettings): Promise<Grant | undefined> {
  const { client, session, params, result, provider } = ctx.oidc;
  if (!client || !session?.accountId) return undefined;
  const grantId = result?.consent?.grantId ?? session.grantIdFor(client.clientId);
  let grant = grantId ? await provider.Grant.find(grantId) : undefined;
  if (grant && (grant.accountId !== session.accountId || grant.clientId !== client.clientId))
    grant = undefined;
  if (client.clientId !== settings.clientId) return grant;
  grant ??= new provider.Grant({ accountId: session.accountId, clientId: client.clientId });
  addFirstPartyScopes(grant, params?.scope, settings);
  await grant.save();
  return grant;
}

/** The language and product name of a page the provider renders itself. */
function requestLocale(ctx: KoaContextWithOIDC, brand: string): PageLocale {
  const uiLocales: unknown = ctx.oidc?.params?.ui_locales;
  return { language: pageLanguage(uiLocales, ctx.get('accept-language') || undefined), brand };
}

/** The provider configuration: storage, keys, the one public client, PKCE, JWT access tokens, pages. */
async function configuration(options: EmbeddedProviderOptions): Promise<Configuration> {
  const { db, settings, logger } = options;
  const [keys, cookieSecrets] = await Promise.all([loadSigningKeys(db), loadCookieSecrets(db)]);
  const loginUrl = `${settings.publicUrl}/login`;
  const appOrigin = new URL(settings.publicUrl).origin;
  const redirectOrigins = [...new Set(settings.redirectUris.map((uri) => new URL(uri).origin))];

  return {
    adapter: databaseAdapterFactory(db, settings.accessTokenTtlSeconds),
    jwks: { keys: keys.privateJwks },
    cookies: {
      keys: cookieSecrets,
      long: { httpOnly: true, sameSite: 'lax' },
      short: { httpOnly: true, sameSite: 'lax' },
    },
    clients: [
      {
        client_id: settings.clientId,
        client_name: 'Regulars',
        application_type: 'web',
        token_endpoint_auth_method: 'none',
        grant_types: ['authorization_code'],
        response_types: ['code'],
        redirect_uris: settings.redirectUris,
        post_logout_redirect_uris: [loginUrl],
        id_token_signed_response_alg: SIGNING_ALGORITHM,
      },
    ],
    responseTypes: ['code'],
    claims: Object.fromEntries(Object.entries(OIDC_CLAIMS).map(([scope, claims]) => [scope, [...claims]])),
    pkce: { required: () => true },
    allowOmittingSingleRegisteredRedirectUri: false,
    // Only the app's own origin may call the token endpoint from a browser.
    clientBasedCORS: (_ctx, origin) => origin === appOrigin || redirectOrigins.includes(origin),
    findAccount: (_ctx, sub) => findActiveAccount(db, sub),
    // Millisecond issue time, so a logout refuses exactly the tokens issued before it (see access-tokens.ts);
    // the grant id, so a revoked grant (a replayed code) refuses the tokens issued under it.
    extraTokenClaims: (_ctx, token) => ({
      [ISSUED_AT_MS_CLAIM]: Date.now(),
      ...('grantId' in token && typeof token.grantId === 'string' ? { [GRANT_ID_CLAIM]: token.grantId } : {}),
    }),
    loadExistingGrant: (ctx) => firstPartyGrant(ctx, settings),
    interactions: { url: (_ctx, interaction) => interactionPath(interaction.uid) },
    discovery: { ui_locales_supported: ['en', 'zh', 'es', 'ja', 'de', 'fr'] },
    ttl: {
      AccessToken: (_ctx, token) => token.resourceServer?.accessTokenTTL ?? settings.accessTokenTtlSeconds,
      AuthorizationCode: AUTHORIZATION_CODE_TTL_SECONDS,
      IdToken: settings.accessTokenTtlSeconds,
      Interaction: INTERACTION_TTL_SECONDS,
      Session: SESSION_TTL_SECONDS,
      Grant: SESSION_TTL_SECONDS,
    },
    features: {
      devInteractions: { enabled: false },
      resourceIndicators: {
        enabled: true,
        defaultResource: () => settings.audience,
        useGrantedResource: () => true,
        getResourceServerInfo: (_ctx, resourceIndicator) => {
          if (resourceIndicator !== settings.audience) throw new errors.InvalidTarget();
          return {
            scope: API_SCOPE,
            audience: settings.audience,
            accessTokenTTL: settings.accessTokenTtlSeconds,
            accessTokenFormat: 'jwt',
            jwt: { sign: { alg: SIGNING_ALGORITHM } },
          };
        },
      },
      rpInitiatedLogout: {
        enabled: true,
        logoutSource: (ctx, form) => {
          const nonce = randomBytes(16).toString('base64');
          ctx.set('Content-Security-Policy', pageSecurityPolicy([...redirectOrigins, appOrigin], nonce));
          ctx.type = 'html';
          ctx.body = signOutPage(requestLocale(ctx, options.brandName), form, nonce);
        },
        // Signing out without a registered return address still lands on the app's login page.
        postLogoutSuccessSource: (ctx) => {
          ctx.status = 303;
          ctx.redirect(loginUrl);
        },
      },
    },
    renderError: (ctx, out, error) => {
      if (ctx.status >= 500) logger.error({ err: error }, 'OpenID provider failed a request');
      const locale = requestLocale(ctx, options.brandName);
      const text = signinMessages(locale);
      ctx.type = 'html';
      ctx.set('Content-Security-Policy', pageSecurityPolicy([]));
      ctx.body = messagePage(locale, {
        title: text.failure.title,
        body: text.failure.body,
        detail: out.error_description ?? out.error,
        linkHref: loginUrl,
        linkText: text.backToApp,
      });
    },
  };
}

/**
 * Builds the embedded OpenID provider with issuer `${publicUrl}/oidc`. It trusts forwarded headers
 * because the mount sets them from the configured public address (see plugin.ts), never from clients.
 */
export async function createEmbeddedProvider(options: EmbeddedProviderOptions): Promise<Provider> {
  const provider = new Provider(options.settings.issuer, await configuration(options));
  provider.proxy = true;
  const { logger } = options;
  provider.on('server_error', (_ctx, error) => logger.error({ err: error }, 'OpenID provider error'));
  // Refused requests are normal traffic; their code and description never include a credential.
  const logRefusal = (event: string) => (_ctx: KoaContextWithOIDC, error: errors.OIDCProviderError) =>
    logger.info(
      { event, error: error.error, description: error.error_description },
      'OpenID request refused',
    );
  provider.on('authorization.error', logRefusal('authorization.error'));
  provider.on('grant.error', logRefusal('grant.error'));
  provider.on('end_session.error', logRefusal('end_session.error'));
  return provider;
}
