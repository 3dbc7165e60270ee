import { Observable } from 'rxjs';
import { apiAuth, apiErrorOf, apiUrl } from './api-client.js';
import { saveBlob } from './file-save.js';

/** What a segment export reports: rows received so far, then the rows saved once the file is handed over. */
export type SegmentExportProgress = { type: 'progress'; rows: number } | { type: 'saved'; rows: number };

const QUOTE = 0x22;
const NEWLINE = 0x0a;

/**
 * Counts the data rows of a CSV as its bytes arrive (RFC 4180: a line break inside quotes is part of a field;
 * UTF-8 never uses these two bytes inside another character). The first record is the header.
 */
export class CsvRowCounter {
  private quoted = false;
  private records = 0;
  /** Whether the last byte seen ended a record (or nothing was seen yet). */
  private atRecordStart = true;

  /** Reads a chunk; answers the complete data rows so far. */
  push(chunk: Uint8Array): number {
    for (const byte of chunk) {
      if (byte === QUOTE) this.quoted = !this.quoted;
      if (byte === NEWLINE && !this.quoted) {
        this.records += 1;
        this.atRecordStart = true;
      } else {
        this.atRecordStart = false;
      }
    }
    return Math.max(0, this.records - 1);
  }

  /** The data rows of the whole file, a last record without a line break included. */
  finish(): number {
    return Math.max(0, this.records + (this.atRecordStart ? 0 : 1) - 1);
  }
}

/**
 * Streams a segment's members as CSV (`GET /api/campaigns/segments/{id}/export/`, with the signed-in user's
 * token), reporting the rows received as each chunk arrives, then saves the file as `fileName` through a
 * blob URL and reports the rows saved. Errors with an ApiRequestError; unsubscribing aborts the download and
 * saves nothing. `save` is the browser's save (a test gives its own).
 */
export function exportSegmentCsv(
  segmentId: number,
  fileName: string,
  save: (blob: Blob, fileName: string) => void = saveBlob,
): Observable<SegmentExportProgress> {
  return new Observable<SegmentExportProgress>((subscriber) => {
    const controller = new AbortController();
    const run = async () => {
      const response = await fetch(apiUrl(`/campaigns/segments/${segmentId}/export/`), {
        headers: { accept: 'text/csv', ...apiAuth.headers() },
        signal: controller.signal,
      });
      if (response.status === 401) apiAuth.unauthorized();
      if (!response.ok || !response.body) throw apiErrorOf(response.status, await response.text());
      const reader = response.body.getReader();
      const counter = new CsvRowCounter();
      const chunks: Uint8Array[] = [];
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        chunks.push(value);
        subscriber.next({ type: 'progress', rows: counter.push(value) });
      }
      const rows = counter.finish();
      save(new Blob(chunks as BlobPart[], { type: 'text/csv;charset=utf-8' }), fileName);
      subscriber.next({ type: 'saved', rows });
      subscriber.complete();
    };
    run().catch((error: unknown) => {
      // A cancelled download is not a failure: nobody is listening any more.
      if (!controller.signal.aborted) subscriber.error(error);
    });
    return () => controller.abort();
  });
}
