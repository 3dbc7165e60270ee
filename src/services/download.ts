import { firstValueFrom, fromEvent, takeUntil } from 'rxjs';
import { apiRequestText, type ApiRequest } from './api-client.js';
import { saveText } from './file-save.js';

/**
 * Fetches an authenticated CSV from the API (a path under /api, or a full `/api/…` URL such as an import
 * job's `rejected_url`) and saves it as a file named `fileName`. Resolves once the browser was handed the
 * file; rejects with the ApiRequestError of a failed call. Aborting the signal cancels the request.
 */
export async function downloadCsv(
  target: string,
  fileName: string,
  signal: AbortSignal,
  query?: ApiRequest<never>['query'],
): Promise<void> {
  const { path, search } = splitApiUrl(target);
  const text = await firstValueFrom(
    apiRequestText({ method: 'GET', path, query: { ...search, ...query } }, 'text/csv').pipe(
      takeUntil(fromEvent(signal, 'abort')),
    ),
  );
  saveText(text, fileName, 'text/csv;charset=utf-8');
}

/** The path under /api and the query of an API URL (`/api/imports/4/rejected/?x=1` → `/imports/4/rejected/`). */
export function splitApiUrl(target: string): { path: string; search: Record<string, string[]> } {
  const url = new URL(target, 'http://app.invalid');
  const path = url.pathname.startsWith('/api/') ? url.pathname.slice(4) : url.pathname;
  const search: Record<string, string[]> = {};
  for (const [name, value] of url.searchParams) (search[name] ??= []).push(value);
  return { path, search };
}
