import { Observable } from 'rxjs';
import { z } from 'zod';
import type {
  CallbackParams,
  PkceRecord,
  RestoredSession,
  StaffToken,
  TokenData,
} from '../machines/auth.machine.js';
import type { SilentAuthorization } from '../machines/token-expiry.machine.js';
import { type AuthConfig, AuthConfigSchema } from '../schemas/accounts.js';
import type { Language } from '../schemas/constants.js';
import { apiRequest } from './api-client.js';
import { createPkce } from './pkce.js';
import { readJson, readText, removeKey, STORAGE_KEYS, writeJson, writeText } from './storage.js';

/**
 * The OpenID Connect side of sign-in (product spec sections 4 and 7): the authorization redirect with
 * PKCE, the callback on /authenticate, the form-encoded code exchange, token storage, silent renewal
 * through a hidden iframe, and the end of the provider session.
 */

/** The path the address bar shows (no query string or hash). */
function currentPath(): string {
  return globalThis.location?.pathname ?? '/';
}

/** The path and query string the address bar shows, e.g. `/account?tab=tokens`. */
function currentLocation(): string {
  const location = globalThis.location;
  return location ? `${location.pathname}${location.search}` : '/';
}

/** The token set as the provider answers it and as it is stored under `tokenData`. */
export const TokenDataSchema: z.ZodType<TokenData> = z.object({
  access_token: z.string().min(1),
  token_type: z.string().optional(),
  expires_in: z.number().positive().optional(),
  id_token: z.string().optional(),
  scope: z.string().optional(),
});

const PkceRecordSchema: z.ZodType<PkceRecord> = z.object({
  verifier: z.string().min(43).max(128),
  state: z.string().min(1),
  returnTo: z.string(),
});

const StaffTokenSchema: z.ZodType<StaffToken> = z.object({
  tokenData: TokenDataSchema,
  expiresAt: z.number().nullable(),
});

/** Where the provider sends the browser back after sign-in. */
export const AUTHENTICATE_PATH = '/authenticate';

/** The sign-in page, where the provider sends the browser after sign-out. */
export const LOGIN_PATH = '/login';

/** The `state` the end-session redirect carries back, so /login knows the user signed out on purpose. */
export const SIGNED_OUT_STATE = 'signed_out';

/** The message the /authenticate page inside the hidden iframe posts to the app that opened it. */
export const SILENT_CALLBACK_MESSAGE = 'regulars.silentCallback';

/** `GET /api/auth/config/`: the provider's endpoints and this app's client settings. */
export function loadAuthConfig(): Observable<AuthConfig> {
  return apiRequest({ method: 'GET', path: '/auth/config/', schema: AuthConfigSchema });
}

/** What the authorization URL carries besides the client settings. */
export interface AuthorizationParams {
  challenge: string;
  state: string;
  language: Language;
  /** `none` for silent renewal: the provider answers at once, with a code or `login_required`. */
  prompt?: 'none';
}

/** The authorization endpoint URL for one redirect (response_type=code with an S256 challenge). */
export function authorizationUrl(config: AuthConfig, params: AuthorizationParams): string {
  const url = new URL(config.authorization_endpoint, globalThis.location?.origin);
  const query = url.searchParams;
  query.set('response_type', 'code');
  query.set('client_id', config.client_id);
  query.set('redirect_uri', config.redirect_uri);
  query.set('scope', config.scope);
  query.set('state', params.state);
  query.set('code_challenge', params.challenge);
  query.set('code_challenge_method', 'S256');
  query.set('resource', config.resource);
  query.set('ui_locales', params.language);
  if (params.prompt) query.set('prompt', params.prompt);
  return url.toString();
}

/** The path to come back to after sign-in: the page shown now, unless it is a sign-in page. */
export function returnPathFor(location: string): string {
  const path = location.split(/[?#]/)[0] ?? '/';
  if (path === '/' || path === LOGIN_PATH || path === AUTHENTICATE_PATH) return '/dashboard';
  return location;
}

/** Makes a fresh PKCE pair and stores its verifier, state and return path (spec section 1). */
async function startPkce(returnTo: string): Promise<{ record: PkceRecord; challenge: string }> {
  const { verifier, challenge, state } = await createPkce();
  const record: PkceRecord = { verifier, state, returnTo };
  writeJson('local', STORAGE_KEYS.pkce, record);
  return { record, challenge };
}

/** Stores a fresh PKCE record and sends the browser to the authorization endpoint. Never resolves. */
export async function redirectToProvider(input: {
  config: AuthConfig;
  language: Language;
  returnTo: string | null;
}): Promise<void> {
  const { record, challenge } = await startPkce(input.returnTo ?? returnPathFor(currentLocation()));
  globalThis.location.assign(
    authorizationUrl(input.config, { challenge, state: record.state, language: input.language }),
  );
  // The page unloads; the machine keeps showing the redirect until it does.
  return new Promise<void>(() => undefined);
}

/** The provider's answer in a callback query string, or null when it carries none of code, state, error. */
export function callbackFrom(search: string): CallbackParams | null {
  const query = new URLSearchParams(search);
  const code = query.get('code');
  const state = query.get('state');
  const error = query.get('error');
  if (code === null && state === null && error === null) return null;
  return { code, state, error };
}

function storedTokenData(): TokenData | null {
  const parsed = TokenDataSchema.safeParse(readJson('local', STORAGE_KEYS.tokenData));
  return parsed.success ? parsed.data : null;
}

function storedExpiresAt(): number | null {
  const text = readText('local', STORAGE_KEYS.expiresAt);
  const value = text === null ? NaN : Number(text);
  return Number.isFinite(value) ? value : null;
}

function storedPkce(): PkceRecord | null {
  const parsed = PkceRecordSchema.safeParse(readJson('local', STORAGE_KEYS.pkce));
  return parsed.success ? parsed.data : null;
}

/** What storage, the address bar and the clock say at start, for the auth machine. */
export function restoreSession(now: number): RestoredSession {
  const path = currentPath();
  const search = globalThis.location?.search ?? '';
  return {
    tokenData: storedTokenData(),
    expiresAt: storedExpiresAt(),
    callback: path === AUTHENTICATE_PATH ? callbackFrom(search) : null,
    pkce: storedPkce(),
    signedOut: path === LOGIN_PATH && new URLSearchParams(search).get('state') === SIGNED_OUT_STATE,
    now,
  };
}

/**
 * Exchanges the code at the provider's token endpoint, form-encoded (spec section 7). Emits the token
 * set only on status 200 or 201 with a usable body, otherwise null; errors only when the network fails.
 */
export function exchangeCode(input: {
  config: AuthConfig;
  code: string;
  verifier: string;
}): Observable<TokenData | null> {
  return new Observable((subscriber) => {
    const controller = new AbortController();
    const body = new URLSearchParams({
      code: input.code,
      code_verifier: input.verifier,
      client_id: input.config.client_id,
      redirect_uri: input.config.redirect_uri,
      grant_type: 'authorization_code',
    });
    fetch(input.config.token_endpoint, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
      body,
      signal: controller.signal,
    })
      .then(async (response) => {
        if (response.status !== 200 && response.status !== 201) return null;
        const parsed = TokenDataSchema.safeParse(await response.json().catch(() => null));
        return parsed.success ? parsed.data : null;
      })
      .then(
        (tokenData) => {
          subscriber.next(tokenData);
          subscriber.complete();
        },
        (error: unknown) => {
          if (!controller.signal.aborted) subscriber.error(error);
        },
      );
    return () => controller.abort();
  });
}

/** Stores the token set and its renewal time locally and removes the used verifier. */
export function saveToken(input: { tokenData: TokenData; expiresAt: number | null }): void {
  writeJson('local', STORAGE_KEYS.tokenData, input.tokenData);
  if (input.expiresAt === null) removeKey('local', STORAGE_KEYS.expiresAt);
  else writeText('local', STORAGE_KEYS.expiresAt, String(input.expiresAt));
  removeKey('local', STORAGE_KEYS.pkce);
}

/**
 * Forgets the session (spec section 4): the stored token data and expires_at, the verifier, the staff
 * token, and the selected location and segment id in session storage.
 */
export function clearSession(): void {
  removeKey('local', STORAGE_KEYS.tokenData);
  removeKey('local', STORAGE_KEYS.expiresAt);
  removeKey('local', STORAGE_KEYS.pkce);
  removeKey('session', STORAGE_KEYS.selectedLocation);
  removeKey('session', STORAGE_KEYS.segmentId);
  removeKey('session', STORAGE_KEYS.staffTokenData);
}

/** Keeps the staff member's own token in session storage while they act as a company user. */
export function keepStaffToken(staffToken: StaffToken | null): void {
  if (staffToken === null) removeKey('session', STORAGE_KEYS.staffTokenData);
  else writeJson('session', STORAGE_KEYS.staffTokenData, staffToken);
}

/** Takes the staff member's own token back out of session storage. */
export function takeStaffToken(): StaffToken | null {
  const parsed = StaffTokenSchema.safeParse(readJson('session', STORAGE_KEYS.staffTokenData));
  removeKey('session', STORAGE_KEYS.staffTokenData);
  return parsed.success ? parsed.data : null;
}

/** The provider's end-session URL, coming back to /login marked as an explicit sign-out; null if none. */
export function endSessionUrl(
  config: AuthConfig,
  idTokenHint: string | null,
  language: Language,
): string | null {
  if (!config.end_session_endpoint) return null;
  const url = new URL(config.end_session_endpoint, globalThis.location?.origin);
  const origin = new URL(config.redirect_uri, globalThis.location?.origin).origin;
  url.searchParams.set('client_id', config.client_id);
  url.searchParams.set('post_logout_redirect_uri', `${origin}${LOGIN_PATH}`);
  url.searchParams.set('state', SIGNED_OUT_STATE);
  url.searchParams.set('ui_locales', language);
  if (idTokenHint) url.searchParams.set('id_token_hint', idTokenHint);
  return url.toString();
}

/**
 * Ends the provider session by sending the browser to its end-session endpoint (which comes back to
 * /login); resolves at once when the provider has none, so the app shows the signed-out page itself.
 */
export function endProviderSession(input: {
  config: AuthConfig;
  idTokenHint: string | null;
  language: Language;
}): Promise<void> {
  const url = endSessionUrl(input.config, input.idTokenHint, input.language);
  if (url === null) return Promise.resolve();
  globalThis.location.assign(url);
  return new Promise<void>(() => undefined);
}

/** True inside the hidden renewal iframe, on the /authenticate page: it only hands the callback over. */
export function isSilentCallbackFrame(): boolean {
  return globalThis.window !== undefined && window.parent !== window && currentPath() === AUTHENTICATE_PATH;
}

/** Posts the callback query to the app that opened this iframe (same origin only). */
export function handOverSilentCallback(): void {
  window.parent.postMessage(
    { type: SILENT_CALLBACK_MESSAGE, search: window.location.search },
    window.location.origin,
  );
}

function isSilentCallbackMessage(data: unknown): data is { type: string; search: string } {
  return (
    typeof data === 'object' &&
    data !== null &&
    (data as { type?: unknown }).type === SILENT_CALLBACK_MESSAGE &&
    typeof (data as { search?: unknown }).search === 'string'
  );
}

/**
 * Re-authenticates without leaving the page: a fresh PKCE record, a hidden iframe at the authorization
 * endpoint with `prompt=none`, and the callback its /authenticate page posts back (same origin only).
 * The machine owns the time-out; aborting `signal` removes the iframe.
 */
export async function authorizeSilently(
  config: AuthConfig,
  language: Language,
  now: () => number,
  signal: AbortSignal,
): Promise<SilentAuthorization> {
  const { record, challenge } = await startPkce(returnPathFor(currentLocation()));
  return new Promise<SilentAuthorization>((resolve, reject) => {
    const iframe = document.createElement('iframe');
    iframe.title = 'Session renewal';
    iframe.setAttribute('aria-hidden', 'true');
    iframe.tabIndex = -1;
    iframe.style.display = 'none';
    const cleanUp = () => {
      window.removeEventListener('message', onMessage);
      signal.removeEventListener('abort', onAbort);
      iframe.remove();
    };
    const onMessage = (event: MessageEvent) => {
      if (event.origin !== window.location.origin || event.source !== iframe.contentWindow) return;
      if (!isSilentCallbackMessage(event.data)) return;
      cleanUp();
      const callback = callbackFrom(event.data.search) ?? {
        code: null,
        state: null,
        error: 'invalid_request',
      };
      resolve({ callback, pkce: record, now: now() });
    };
    const onAbort = () => {
      cleanUp();
      reject(new Error('Silent renewal was stopped'));
    };
    if (signal.aborted) return onAbort();
    window.addEventListener('message', onMessage);
    signal.addEventListener('abort', onAbort);
    iframe.src = authorizationUrl(config, { challenge, state: record.state, language, prompt: 'none' });
    document.body.appendChild(iframe);
  });
}
