import type { Page } from 'playwright-core';

/** The signed-in page's access token, as the app stored it. */
export async function accessToken(page: Page): Promise<string> {
  const text = await page.evaluate(() => window.localStorage.getItem('tokenData'));
  return (JSON.parse(text ?? '{}') as { access_token: string }).access_token;
}

/**
 * Calls the API as the page's signed-in user: a GET, or a POST (or `method`) of `body` as JSON; answers the
 * parsed JSON and throws on an error status.
 */
export type ApiCaller = <T>(path: string, body?: unknown, method?: 'POST' | 'PUT' | 'PATCH') => Promise<T>;

/** An API caller with the page's access token, against `baseUrl` (`/api` is added before each path). */
export async function apiAs(page: Page, baseUrl: string): Promise<ApiCaller> {
  const headers = { authorization: `Bearer ${await accessToken(page)}`, 'content-type': 'application/json' };
  return async <T>(path: string, body?: unknown, method?: 'POST' | 'PUT' | 'PATCH'): Promise<T> => {
    const response = await fetch(`${baseUrl}/api${path}`, {
      method: body === undefined ? 'GET' : (method ?? 'POST'),
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    if (!response.ok) throw new Error(`${path} answered ${response.status}: ${await response.text()}`);
    return (await response.json()) as T;
  };
}
