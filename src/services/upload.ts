import { Observable } from 'rxjs';
import { ImportJobSchema, type ImportJob } from '../schemas/imports.js';
import { apiAuth, apiErrorOf, apiUrl } from './api-client.js';

/** What an upload reports: bytes sent so far, then the server's answer (the import job). */
export type UploadReport =
  { type: 'progress'; loaded: number; total: number } | { type: 'answered'; job: ImportJob };

/**
 * Sends a CSV file to an upload path under /api (`?file_name=`, body = the file, `Content-Type:
 * text/csv`) with the same Bearer token and 401 hook as every API call. XMLHttpRequest rather than
 * `fetch` because only it reports upload progress. Emits progress while the bytes go up, then the
 * answered job (200 finished, 202 still running) and completes; errors with an ApiRequestError.
 * Unsubscribing aborts the request.
 */
export function uploadCsv(path: string, file: Blob, fileName: string): Observable<UploadReport> {
  return new Observable<UploadReport>((subscriber) => {
    const request = new XMLHttpRequest();
    request.open('POST', apiUrl(path, { file_name: fileName }));
    request.setRequestHeader('accept', 'application/json');
    request.setRequestHeader('content-type', 'text/csv');
    for (const [name, value] of Object.entries(apiAuth.headers())) request.setRequestHeader(name, value);
    request.upload.onprogress = (event) => {
      subscriber.next({
        type: 'progress',
        loaded: event.loaded,
        total: event.lengthComputable ? event.total : file.size,
      });
    };
    request.onload = () => {
      if (request.status === 401) apiAuth.unauthorized();
      if (request.status < 200 || request.status >= 300) {
        subscriber.error(apiErrorOf(request.status, request.responseText));
        return;
      }
      const parsed = ImportJobSchema.safeParse(safeJson(request.responseText));
      if (!parsed.success) {
        subscriber.error(apiErrorOf(request.status, ''));
        return;
      }
      subscriber.next({ type: 'progress', loaded: file.size, total: file.size });
      subscriber.next({ type: 'answered', job: parsed.data });
      subscriber.complete();
    };
    // No answer at all (offline, connection reset): status 0 reads as "the server answered 0".
    request.onerror = () => subscriber.error(apiErrorOf(0, ''));
    request.send(file);
    return () => {
      if (request.readyState !== XMLHttpRequest.DONE) request.abort();
    };
  });
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}
