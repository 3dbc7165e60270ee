import { afterEach, describe, expect, it, vi } from 'vitest';
import { ApiRequestError, configureApiClient } from '../../src/services/api-client.js';
import {
  CsvRowCounter,
  exportSegmentCsv,
  type SegmentExportProgress,
} from '../../src/services/segment-export.js';

/**
 * The segment export service: rows counted as the CSV streams in (split anywhere, line breaks inside quoted
 * fields, multi-byte names), the file saved once with every byte, the token sent, failures as ApiRequestError,
 * and a cancel that aborts the download and saves nothing. The expected row counts are written out by hand.
 */

const HEADER = 'id,customer_name,pos_id\r\n';
const ROWS = [
  '1,Ada Lovelace,P-1\r\n',
  '2,"Line\r\nbreak, inside",P-2\r\n',
  '3,"She said ""hi""",P-3\r\n',
  '4,Zoë Ōtani 山田,P-4\r\n',
  '5,Last,P-5',
];
const CSV = HEADER + ROWS.join('');
const bytes = new TextEncoder().encode(CSV);

/** A streamed answer cut into chunks of `size` bytes (a chunk may end inside a character or a quote). */
function streamed(size: number, status = 200): Response {
  let offset = 0;
  const body = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (offset >= bytes.length) {
        controller.close();
        return;
      }
      controller.enqueue(bytes.slice(offset, offset + size));
      offset += size;
    },
  });
  return new Response(body, { status, headers: { 'content-type': 'text/csv' } });
}

/** Runs an export to its end: every report, and the saved blob's text and name. */
async function exported(segmentId: number) {
  const reports: SegmentExportProgress[] = [];
  const saved: { text: string; name: string }[] = [];
  const pending: Promise<void>[] = [];
  await new Promise<void>((resolve, reject) =>
    exportSegmentCsv(segmentId, `segment-${segmentId}.csv`, (blob, name) => {
      pending.push(blob.text().then((text) => void saved.push({ text, name })));
    }).subscribe({ next: (report) => reports.push(report), error: reject, complete: resolve }),
  );
  await Promise.all(pending);
  return { reports, saved };
}

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('segment export service', () => {
  it('counts the data rows of a CSV however its bytes are cut', () => {
    for (const size of [1, 2, 3, 7, 64, bytes.length]) {
      const counter = new CsvRowCounter();
      for (let offset = 0; offset < bytes.length; offset += size)
        counter.push(bytes.slice(offset, offset + size));
      expect(counter.finish(), `chunks of ${size}`).toBe(5);
    }
    // A header alone, or a file ending in a line break, has no phantom row.
    const header = new CsvRowCounter();
    header.push(new TextEncoder().encode(HEADER));
    expect(header.finish()).toBe(0);
    const trailing = new CsvRowCounter();
    trailing.push(new TextEncoder().encode(`${HEADER}1,a,b\r\n`));
    expect(trailing.finish()).toBe(1);
  });

  it('reports rows as they arrive, then saves the whole file once with the token sent', async () => {
    configureApiClient({ accessToken: () => 'token-1' });
    const fetchStub = vi.fn(async (_url: string, _init?: RequestInit) => streamed(16));
    vi.stubGlobal('fetch', fetchStub);
    const { reports, saved } = await exported(7);
    expect(fetchStub).toHaveBeenCalledTimes(1);
    const [url, init] = fetchStub.mock.calls[0]!;
    expect(url).toBe('/api/campaigns/segments/7/export/');
    expect((init?.headers as Record<string, string>).authorization).toBe('Bearer token-1');
    const progress = reports.filter((report) => report.type === 'progress').map((report) => report.rows);
    // One report per chunk, never going back, never past the rows complete so far.
    expect(progress).toHaveLength(Math.ceil(bytes.length / 16));
    expect(progress).toEqual([...progress].sort((a, b) => a - b));
    expect(progress.at(-1)).toBe(4);
    expect(reports.at(-1)).toEqual({ type: 'saved', rows: 5 });
    expect(saved).toEqual([{ text: CSV, name: 'segment-7.csv' }]);
  });

  it('fails with the server’s problem and saves nothing', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(
        async () =>
          new Response(JSON.stringify({ error: { code: 'not_found', message: 'Segment not found' } }), {
            status: 404,
            headers: { 'content-type': 'application/json' },
          }),
      ),
    );
    const error = await exported(8).then(
      () => null,
      (failure: unknown) => failure,
    );
    expect(error).toBeInstanceOf(ApiRequestError);
    expect((error as ApiRequestError).status).toBe(404);
    expect((error as ApiRequestError).code).toBe('not_found');
  });

  it('aborts the download on cancel and saves nothing', async () => {
    let signal: AbortSignal | undefined;
    // An answer that sends its header and then waits, as a long export does.
    vi.stubGlobal(
      'fetch',
      vi.fn(async (_url: string, init?: RequestInit) => {
        signal = init?.signal ?? undefined;
        const body = new ReadableStream<Uint8Array>({
          start(controller) {
            controller.enqueue(new TextEncoder().encode(HEADER + ROWS[0]));
            signal?.addEventListener('abort', () => controller.error(signal?.reason));
          },
        });
        return new Response(body, { status: 200 });
      }),
    );
    const save = vi.fn();
    const reports: SegmentExportProgress[] = [];
    const errors: unknown[] = [];
    const subscription = exportSegmentCsv(9, 'segment-9.csv', save).subscribe({
      next: (report) => reports.push(report),
      error: (error) => errors.push(error),
    });
    await vi.waitFor(() => expect(reports).toEqual([{ type: 'progress', rows: 1 }]));
    subscription.unsubscribe();
    expect(signal?.aborted).toBe(true);
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(save).not.toHaveBeenCalled();
    expect(errors).toEqual([]);
  });
});
