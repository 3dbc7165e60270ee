/** How sign-in is set up: the embedded provider by default, or any external OpenID provider. */
export interface AuthSettings {
  /** Where browsers reach this server, e.g. http://localhost:3000 (no trailing slash). */
  publicUrl: string;
  /** The OpenID issuer whose tokens the API accepts. */
  issuer: string;
  /** True when the issuer is the provider this server mounts at /oidc. */
  embedded: boolean;
  /** The app's public client id (no secret: it proves itself with PKCE). */
  clientId: string;
  /** The audience access tokens must name: this API. */
  audience: string;
  /** Where the provider may send the browser back after sign-in; matched exactly. */
  redirectUris: string[];
  /** Access token lifetime in seconds. */
  accessTokenTtlSeconds: number;
  /** An external issuer's key set, when it is not found through discovery. */
  jwksUri: string | null;
}

/** The environment values sign-in reads (see server/config.ts). */
export interface AuthEnvironment {
  PUBLIC_URL?: string | undefined;
  PORT?: number | undefined;
  OIDC_ISSUER?: string | undefined;
  OIDC_CLIENT_ID?: string | undefined;
  OIDC_AUDIENCE?: string | undefined;
  OIDC_JWKS_URI?: string | undefined;
  OIDC_REDIRECT_URIS?: string | undefined;
  ACCESS_TOKEN_TTL?: number | undefined;
}

/** The embedded provider's mount path. */
export const EMBEDDED_ISSUER_PATH = '/oidc';

/** The app's client id unless configured otherwise. */
export const DEFAULT_CLIENT_ID = 'regulars-web';

/** Derives the sign-in settings from the environment; with nothing set, the embedded provider on PORT. */
export function authSettingsFrom(env: AuthEnvironment): AuthSettings {
  const publicUrl = (env.PUBLIC_URL ?? `http://localhost:${env.PORT ?? 3000}`).replace(/\/+$/, '');
  const embeddedIssuer = `${publicUrl}${EMBEDDED_ISSUER_PATH}`;
  const issuer = (env.OIDC_ISSUER ?? embeddedIssuer).replace(/\/+$/, '');
  const redirectUris = env.OIDC_REDIRECT_URIS
    ? env.OIDC_REDIRECT_URIS.split(',').map((uri) => uri.trim())
    : [`${publicUrl}/authenticate`];
  return {
    publicUrl,
    issuer,
    embedded: issuer === embeddedIssuer,
    clientId: env.OIDC_CLIENT_ID ?? DEFAULT_CLIENT_ID,
    // A resource indicator must be an absolute URI (RFC 8707): the API's own address.
    audience: env.OIDC_AUDIENCE ?? `${publicUrl}/api`,
    redirectUris,
    accessTokenTtlSeconds: env.ACCESS_TOKEN_TTL ?? 900,
    jwksUri: env.OIDC_JWKS_URI ?? null,
  };
}
