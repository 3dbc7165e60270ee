import { createReadStream } from 'node:fs';
import { request } from 'node:http';
import { pipeline } from 'node:stream/promises';

/** What one upload over HTTP measured: the answer, and when the body ended and the answer came. */
export interface TimedUpload {
  status: number;
  body: string;
  /** Milliseconds from the call's start until the last byte of the body was handed to the socket. */
  bodyEndMs: number;
  /** Milliseconds from the call's start until the answer's headers arrived. */
  answerMs: number;
}

/**
 * Posts a file as a raw `text/csv` body over a real socket, streamed from disk with backpressure, as a
 * browser or `curl -T` does, and times the body's end (the request's `finish`: every byte written to the
 * socket) and the answer. The server reads the body at its own pace, so the gap between the two is what the
 * caller waits after sending the file.
 */
export async function timedUpload(
  url: string,
  headers: Record<string, string>,
  path: string,
): Promise<TimedUpload> {
  const started = performance.now();
  let bodyEndMs = 0;
  return new Promise<TimedUpload>((resolve, reject) => {
    const call = request(url, { method: 'POST', headers: { ...headers, 'content-type': 'text/csv' } });
    call.once('finish', () => (bodyEndMs = performance.now() - started));
    call.once('error', reject);
    call.once('response', (response) => {
      const answerMs = performance.now() - started;
      const parts: Buffer[] = [];
      response.on('data', (part: Buffer) => parts.push(part));
      response.once('error', reject);
      response.once('end', () =>
        resolve({
          status: response.statusCode ?? 0,
          body: Buffer.concat(parts).toString('utf8'),
          // An answer before the body's end (a refusal) counts as no wait after it.
          bodyEndMs: bodyEndMs || answerMs,
          answerMs,
        }),
      );
    });
    pipeline(createReadStream(path, { highWaterMark: 64 * 1024 }), call).catch(reject);
  });
}
