import { createHash, randomBytes } from 'node:crypto';
import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify';
import type { AuthSettings } from '../../server/auth/settings.js';

/** A PKCE verifier and its S256 challenge (RFC 7636). */
export interface PkcePair {
  verifier: string;
  challenge: string;
}

/** A fresh PKCE pair. */
export function pkcePair(): PkcePair {
  const verifier = randomBytes(32).toString('base64url');
  return { verifier, challenge: createHash('sha256').update(verifier).digest('base64url') };
}

interface StoredCookie {
  value: string;
  path: string;
}

/** Just enough of a browser's cookie store: names scoped by path, removal by expiry, sent by path prefix. */
export class CookieJar {
  private readonly cookies = new Map<string, StoredCookie>();

  /** Takes the Set-Cookie headers of a response. */
  capture(response: LightMyRequestResponse): void {
    for (const cookie of response.cookies as {
      name: string;
      value: string;
      path?: string;
      expires?: Date;
      maxAge?: number;
    }[]) {
      const path = cookie.path ?? '/';
      const key = `${path}|${cookie.name}`;
      const expired =
        (cookie.expires !== undefined && cookie.expires.getTime() <= Date.now()) ||
        (cookie.maxAge !== undefined && cookie.maxAge <= 0);
      if (expired) this.cookies.delete(key);
      else this.cookies.set(key, { value: cookie.value, path });
    }
  }

  /** The Cookie header a browser would send to this path, or undefined when none applies. */
  headerFor(pathname: string): string | undefined {
    const matching = [...this.cookies.entries()].filter(([, cookie]) => {
      const base = cookie.path.endsWith('/') ? cookie.path : `${cookie.path}/`;
      return pathname === cookie.path || pathname.startsWith(base);
    });
    if (matching.length === 0) return undefined;
    return matching.map(([key, cookie]) => `${key.split('|')[1]}=${cookie.value}`).join('; ');
  }

  /** The names of the cookies held (any path). */
  names(): string[] {
    return [...this.cookies.keys()].map((key) => key.split('|')[1]!);
  }
}

/** A browser over `app.inject`: keeps cookies and turns absolute provider URLs into request paths. */
export class TestBrowser {
  readonly jar = new CookieJar();

  constructor(
    public app: FastifyInstance,
    private readonly publicUrl: string,
  ) {}

  /** The path and query of a URL (absolute on the public address, or already a path). */
  pathOf(url: string): string {
    const parsed = new URL(url, this.publicUrl);
    return `${parsed.pathname}${parsed.search}`;
  }

  /** Sends a request with the jar's cookies and keeps the cookies of the answer. */
  async request(
    method: 'GET' | 'POST',
    url: string,
    options: { form?: Record<string, string>; headers?: Record<string, string> } = {},
  ): Promise<LightMyRequestResponse> {
    const path = this.pathOf(url);
    const headers: Record<string, string> = { ...options.headers };
    const cookie = this.jar.headerFor(path.split('?')[0]!);
    if (cookie) headers.cookie = cookie;
    const injection: InjectOptions = { method, url: path, headers };
    if (options.form) {
      headers['content-type'] = 'application/x-www-form-urlencoded';
      injection.payload = new URLSearchParams(options.form).toString();
    }
    const response = await this.app.inject(injection);
    this.jar.capture(response);
    return response;
  }

  /** GET a URL. */
  get(url: string, headers?: Record<string, string>): Promise<LightMyRequestResponse> {
    return this.request('GET', url, { headers });
  }

  /** POST a form to a URL. */
  post(
    url: string,
    form: Record<string, string>,
    headers?: Record<string, string>,
  ): Promise<LightMyRequestResponse> {
    return this.request('POST', url, { form, headers });
  }
}

/** The authorization request of the app's client, with PKCE S256 unless overridden. */
export function authorizationUrl(
  settings: AuthSettings,
  pkce: PkcePair,
  extra: Record<string, string | undefined> = {},
): string {
  const params = new URLSearchParams({
    client_id: settings.clientId,
    response_type: 'code',
    redirect_uri: settings.redirectUris[0]!,
    scope: 'openid profile email api',
    state: randomBytes(8).toString('hex'),
    code_challenge: pkce.challenge,
    code_challenge_method: 'S256',
  });
  for (const [key, value] of Object.entries(extra)) {
    if (value === undefined) params.delete(key);
    else params.set(key, value);
  }
  return `/oidc/auth?${params.toString()}`;
}

/** The `Location` header of a response, required. */
export function locationOf(response: LightMyRequestResponse): string {
  const location = response.headers.location;
  if (typeof location !== 'string') {
    throw new Error(`Expected a redirect, got ${response.statusCode}: ${response.body.slice(0, 300)}`);
  }
  return location;
}

/** The query of the redirect back to the app (code, state, iss, or error). */
export function callbackParams(response: LightMyRequestResponse): URLSearchParams {
  return new URL(locationOf(response)).searchParams;
}

/** The uid in an interaction page's URL. */
export function interactionUidOf(location: string): string {
  const match = /\/oidc\/interaction\/([^/?#]+)/.exec(location);
  if (!match) throw new Error(`Not an interaction URL: ${location}`);
  return match[1]!;
}

/** Starts an authorization request and returns the interaction page it led to. */
export async function startAuthorization(
  browser: TestBrowser,
  settings: AuthSettings,
  pkce: PkcePair,
  extra: Record<string, string | undefined> = {},
  headers?: Record<string, string>,
): Promise<{ uid: string; page: LightMyRequestResponse }> {
  const started = await browser.get(authorizationUrl(settings, pkce, extra), headers);
  const location = locationOf(started);
  const uid = interactionUidOf(location);
  return { uid, page: await browser.get(location, headers) };
}

/** Follows the provider's redirects after an interaction until the app's callback; returns its query. */
export async function followToCallback(
  browser: TestBrowser,
  settings: AuthSettings,
  response: LightMyRequestResponse,
): Promise<URLSearchParams> {
  let current = response;
  for (let hop = 0; hop < 5; hop += 1) {
    const location = locationOf(current);
    if (settings.redirectUris.some((uri) => location.startsWith(`${uri}?`)))
      return new URL(location).searchParams;
    current = await browser.get(location);
  }
  throw new Error('Too many redirects before the callback');
}

/** Signs in through the login page and returns the authorization code the app receives. */
export async function signInForCode(
  browser: TestBrowser,
  settings: AuthSettings,
  credentials: { email: string; password: string },
  pkce: PkcePair = pkcePair(),
): Promise<{ code: string; pkce: PkcePair }> {
  const { uid } = await startAuthorization(browser, settings, pkce);
  const submitted = await browser.post(`/oidc/interaction/${uid}/login`, credentials);
  if (submitted.statusCode !== 303) {
    throw new Error(`Sign-in failed with ${submitted.statusCode}: ${submitted.body.slice(0, 300)}`);
  }
  const callback = await followToCallback(browser, settings, submitted);
  const code = callback.get('code');
  if (!code) throw new Error(`No code in the callback: ${callback.toString()}`);
  return { code, pkce };
}

/** Exchanges a code at the token endpoint as the public client. */
export function exchangeCode(
  app: FastifyInstance,
  settings: AuthSettings,
  code: string,
  verifier: string,
): Promise<LightMyRequestResponse> {
  return app.inject({
    method: 'POST',
    url: '/oidc/token',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    payload: new URLSearchParams({
      grant_type: 'authorization_code',
      code,
      redirect_uri: settings.redirectUris[0]!,
      client_id: settings.clientId,
      code_verifier: verifier,
    }).toString(),
  });
}

/** The claims of a JWT, without verifying it (tests verify through the API). */
export function jwtClaims(token: string): Record<string, unknown> {
  return JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString('utf8')) as Record<
    string,
    unknown
  >;
}
