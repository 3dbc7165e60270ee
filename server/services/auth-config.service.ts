import type { AuthConfig } from '../../src/schemas/accounts.js';
import type { AuthSettings } from '../auth/settings.js';
import { ApiError } from '../http/errors.js';

/** The scopes the app asks for: OpenID identity plus this API. */
export const APP_SCOPE = 'openid profile email api';

/** The endpoints of a provider's discovery document that the app uses. */
interface ProviderEndpoints {
  authorization_endpoint: string;
  token_endpoint: string;
  end_session_endpoint: string | null;
}

/** Reads an external issuer's discovery document. */
async function discover(issuer: string): Promise<ProviderEndpoints> {
  const response = await fetch(`${issuer}/.well-known/openid-configuration`);
  if (!response.ok) throw new Error(`OpenID discovery failed for the issuer: HTTP ${response.status}`);
  const document = (await response.json()) as Partial<Record<keyof ProviderEndpoints, unknown>>;
  if (typeof document.authorization_endpoint !== 'string' || typeof document.token_endpoint !== 'string') {
    throw new Error('The OpenID discovery document names no authorization or token endpoint');
  }
  return {
    authorization_endpoint: document.authorization_endpoint,
    token_endpoint: document.token_endpoint,
    end_session_endpoint:
      typeof document.end_session_endpoint === 'string' ? document.end_session_endpoint : null,
  };
}

/** The origin (scheme://host[:port]) of a URL, or null when it is not one. */
function originOf(url: string): string | null {
  try {
    return new URL(url).origin;
  } catch {
    return null;
  }
}

/**
 * What the app needs to sign in: the provider's endpoints (the embedded provider's are known; an external
 * issuer's are read from its discovery document once and kept), the client id, the redirect URI that
 * belongs to the origin the browser is on, the scopes and the API's resource indicator.
 */
export function authConfigService(settings: AuthSettings) {
  let external: Promise<ProviderEndpoints> | null = null;

  async function endpoints(): Promise<ProviderEndpoints> {
    if (settings.embedded) {
      return {
        authorization_endpoint: `${settings.issuer}/auth`,
        token_endpoint: `${settings.issuer}/token`,
        end_session_endpoint: `${settings.issuer}/session/end`,
      };
    }
    external ??= discover(settings.issuer);
    try {
      return await external;
    } catch {
      // A failed discovery is not kept, so the next call tries again once the provider is back.
      external = null;
      throw new ApiError(502, 'provider_unavailable', 'The identity provider could not be reached');
    }
  }

  return {
    async config(requestOrigin: string | null): Promise<AuthConfig> {
      const redirectUri =
        settings.redirectUris.find((uri) => requestOrigin !== null && originOf(uri) === requestOrigin) ??
        settings.redirectUris[0] ??
        `${settings.publicUrl}/authenticate`;
      return {
        issuer: settings.issuer,
        ...(await endpoints()),
        client_id: settings.clientId,
        redirect_uri: redirectUri,
        scope: APP_SCOPE,
        resource: settings.audience,
      };
    },
  };
}

/** The sign-in configuration service's interface. */
export type AuthConfigService = ReturnType<typeof authConfigService>;
