import type { FieldProblem } from '../schemas/field-problems.js';
import { Observable } from 'rxjs';
import type { z } from 'zod';
import { ApiErrorSchema } from '../schemas/common.js';
import { STORAGE_KEYS, readJson } from './storage.js';

/** A failed API call: the HTTP status and the server's `{error: {code, message, fields, field_problems}}`. */
export class ApiRequestError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly fields: Record<string, string> = {},
    /** What is wrong with each field, as codes the interface translates. */
    readonly fieldProblems: Record<string, FieldProblem> = {},
  ) {
    super(message);
    this.name = 'ApiRequestError';
  }
}

/** What one call sends. */
export interface ApiRequest<Schema extends z.ZodTypeAny> {
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  /** The path under /api, e.g. `/accounts/settings/`. */
  path: string;
  query?: Record<string, string | number | boolean | readonly (string | number)[] | null | undefined>;
  body?: unknown;
  /** Parses the answer; the call fails when the answer does not match. */
  schema?: Schema;
}

/** Hooks the app sets once: where the token comes from and who hears about a 401. */
export interface ApiClientHooks {
  /** The access token to send, read at each call. */
  accessToken(): string | null;
  /** Every 401: the app sends `session.unauthorized` to the sign-in machine (spec section 4). */
  onUnauthorized(): void;
}

let hooks: ApiClientHooks = {
  accessToken: () =>
    readJson<{ access_token?: string }>('local', STORAGE_KEYS.tokenData)?.access_token ?? null,
  onUnauthorized: () => undefined,
};

/** Replaces the client's hooks (src/app does this once at start). */
export function configureApiClient(next: Partial<ApiClientHooks>): void {
  hooks = { ...hooks, ...next };
}

function urlOf(path: string, query: ApiRequest<z.ZodTypeAny>['query']): string {
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(query ?? {})) {
    if (value === undefined || value === null) continue;
    // Repeated filters (location_id=1&location_id=2) are how the API takes lists.
    for (const item of Array.isArray(value) ? value : [value]) params.append(name, String(item));
  }
  const search = params.toString();
  return `/api${path}${search ? `?${search}` : ''}`;
}

async function errorOf(response: Response): Promise<ApiRequestError> {
  const body: unknown = await response.json().catch(() => null);
  const parsed = ApiErrorSchema.safeParse(body);
  if (parsed.success) {
    const { code, message, fields, field_problems } = parsed.data.error;
    return new ApiRequestError(response.status, code, message, fields, field_problems);
  }
  return new ApiRequestError(response.status, 'http_error', `The server answered ${response.status}`);
}

/**
 * One API call as an Observable that emits the parsed answer once and completes, or errors with an
 * ApiRequestError. Unsubscribing aborts the request. Every call carries the Bearer token.
 */
export function apiRequest<Schema extends z.ZodTypeAny>(
  request: ApiRequest<Schema>,
): Observable<z.infer<Schema>> {
  return send(request, 'application/json', async (response) => {
    const body: unknown = response.status === 204 ? null : await response.json();
    return request.schema ? request.schema.parse(body) : (body as z.infer<Schema>);
  });
}

/**
 * One API call whose answer is text (e.g. a JSON Lines download), with the same token, 401 hook and
 * errors as `apiRequest`.
 */
export function apiRequestText(
  request: Omit<ApiRequest<z.ZodTypeAny>, 'schema'>,
  accept: string,
): Observable<string> {
  return send(request, accept, (response) => response.text());
}

/** The URL of an API path and query, built as every call builds it (for requests made without `fetch`). */
export function apiUrl(path: string, query?: ApiRequest<z.ZodTypeAny>['query']): string {
  return urlOf(path, query);
}

/**
 * The headers every call carries for the signed-in user (the Bearer token, when there is one), and the
 * 401 hook, for requests made without `fetch` (an upload over XMLHttpRequest reports its byte progress).
 */
export const apiAuth = {
  headers(): Record<string, string> {
    const token = hooks.accessToken();
    return token ? { authorization: `Bearer ${token}` } : {};
  },
  unauthorized(): void {
    hooks.onUnauthorized();
  },
};

/** The error of a failed answer from its status and body text, read as `apiRequest` reads it. */
export function apiErrorOf(status: number, text: string): ApiRequestError {
  let body: unknown = null;
  try {
    body = JSON.parse(text);
  } catch {
    // Not JSON (a proxy's page): the generic error below.
  }
  const parsed = ApiErrorSchema.safeParse(body);
  if (parsed.success) {
    const { code, message, fields, field_problems } = parsed.data.error;
    return new ApiRequestError(status, code, message, fields, field_problems);
  }
  return new ApiRequestError(status, 'http_error', `The server answered ${status}`);
}

/** Sends one call with the Bearer token and reads its answer; unsubscribing aborts it. */
function send<Answer>(
  request: Omit<ApiRequest<z.ZodTypeAny>, 'schema'>,
  accept: string,
  read: (response: Response) => Promise<Answer>,
): Observable<Answer> {
  return new Observable((subscriber) => {
    const controller = new AbortController();
    const token = hooks.accessToken();
    const headers: Record<string, string> = { accept };
    if (token) headers.authorization = `Bearer ${token}`;
    if (request.body !== undefined) headers['content-type'] = 'application/json';
    fetch(urlOf(request.path, request.query), {
      method: request.method,
      headers,
      body: request.body === undefined ? undefined : JSON.stringify(request.body),
      signal: controller.signal,
    })
      .then(async (response) => {
        if (response.status === 401) hooks.onUnauthorized();
        if (!response.ok) throw await errorOf(response);
        subscriber.next(await read(response));
        subscriber.complete();
      })
      .catch((error: unknown) => {
        if (!controller.signal.aborted) subscriber.error(error);
      });
    return () => controller.abort();
  });
}
