import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestApp, type ApiCaller, type TestApp } from '../support/app.js';

/**
 * Refusals made by Fastify or Node's HTTP parser rather than by a route, over a real listening socket (not
 * `inject`), each answered in the product's `{error: {code, message}}` shape and readable by the client.
 */

const LIST_PATH = '/api/subscriptions/subscribers/list/';

/** What came back on the socket: the status line's code, headers and the body as text. */
interface RawAnswer {
  status: number;
  head: string;
  body: string;
}

/** The answer in `bytes` once all of it (headers and `Content-Length` bytes of body) has arrived, else null. */
function completeAnswer(bytes: Buffer): RawAnswer | null {
  const split = bytes.indexOf('\r\n\r\n');
  if (split < 0) return null;
  const head = bytes.subarray(0, split).toString('utf8');
  const length = Number(/content-length:\s*(\d+)/i.exec(head)?.[1] ?? NaN);
  const body = bytes.subarray(split + 4);
  if (!(body.length >= length)) return null;
  return { status: Number(head.split(' ')[1]), head, body: body.subarray(0, length).toString('utf8') };
}

/**
 * Sends `head` and then every byte of `body` before reading anything, as many clients do (a refused
 * upload must still be answered readably), and reads the whole answer. The request is never half-closed:
 * an HTTP server may drop a request whose client closed its side.
 */
function sendWholeThenRead(port: number, head: string, body: Buffer | string = ''): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    let received = Buffer.alloc(0);
    socket.on('error', reject);
    socket.on('close', () => reject(new Error(`closed before a whole answer: ${received.toString('utf8')}`)));
    const sendAll = async () => {
      socket.write(head);
      const bytes = Buffer.from(body);
      for (let offset = 0; offset < bytes.length; offset += 64 * 1024) {
        if (!socket.write(bytes.subarray(offset, offset + 64 * 1024))) {
          await new Promise((drained) => socket.once('drain', drained));
        }
      }
      // Only now is anything read.
      socket.on('data', (chunk: Buffer) => {
        received = Buffer.concat([received, chunk]);
        const answer = completeAnswer(received);
        if (answer) {
          socket.destroy();
          resolve(answer);
        }
      });
    };
    socket.on('connect', () => void sendAll());
  });
}

/** A chunked body, as a client streaming without a declared length sends it. */
function chunked(body: string): string {
  const parts: string[] = [];
  for (let offset = 0; offset < body.length; offset += 64 * 1024) {
    const piece = body.slice(offset, offset + 64 * 1024);
    parts.push(`${Buffer.byteLength(piece).toString(16)}\r\n${piece}\r\n`);
  }
  return `${parts.join('')}0\r\n\r\n`;
}

function expectShape(answer: RawAnswer, status: number, code: string): void {
  expect(answer.status, answer.head).toBe(status);
  expect(answer.head.toLowerCase()).toContain('content-type: application/json');
  expect(JSON.parse(answer.body)).toEqual({ error: { code, message: expect.any(String) } });
}

describe("Fastify's and Node's own refusals over a socket", () => {
  let test: TestApp;
  let caller: ApiCaller;
  let port: number;

  beforeAll(async () => {
    test = await openTestApp();
    caller = await test.newCaller();
    port = Number(new URL(await test.app.listen({ port: 0, host: '127.0.0.1' })).port);
  });
  afterAll(() => test.close());

  const postHead = (extra: string) =>
    `POST ${LIST_PATH} HTTP/1.1\r\nHost: localhost\r\nAuthorization: ${caller.headers.authorization}\r\n` +
    `Content-Type: application/json\r\nConnection: close\r\n${extra}\r\n`;

  it('answers a 20 MB body with a declared length 413 in the shape, read after the whole body was sent', async () => {
    const body = JSON.stringify({ name: 'x'.repeat(20_000_000) });
    const answer = await sendWholeThenRead(port, postHead(`Content-Length: ${body.length}\r\n`), body);
    expectShape(answer, 413, 'body_too_large');
  });

  it('answers a 20 MB chunked body 413 in the shape, read after the whole body was sent', async () => {
    const body = chunked(JSON.stringify({ name: 'x'.repeat(20_000_000) }));
    const answer = await sendWholeThenRead(port, postHead('Transfer-Encoding: chunked\r\n'), body);
    expectShape(answer, 413, 'body_too_large');
  });

  it('still takes an upload larger than the JSON body limit (its file streams, with its own limit)', async () => {
    // Two rows with names past any limit: the file is over 1 MB and its rows are merely rejected.
    const row = (n: number) => `${'n'.repeat(600_000)},1234,pos-${n}\n`;
    const csv = `customer_name,last_four_digits,pos_id\n${row(1)}${row(2)}`;
    expect(csv.length).toBeGreaterThan(1024 * 1024);
    const response = await fetch(`http://127.0.0.1:${port}/api/pos/guests/upload/`, {
      method: 'POST',
      headers: { ...caller.headers, 'content-type': 'text/csv' },
      body: csv,
    });
    expect(response.status, await response.text()).toBeLessThan(300);
  });

  it('answers 413 to fetch too', async () => {
    const response = await fetch(`http://127.0.0.1:${port}${LIST_PATH}`, {
      method: 'POST',
      headers: { ...caller.headers, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'x'.repeat(5_000_000) }),
    });
    expect(response.status).toBe(413);
    expect(await response.json()).toMatchObject({ error: { code: 'body_too_large' } });
  });

  it('answers headers past the limit 431 in the shape', async () => {
    const answer = await sendWholeThenRead(
      port,
      `GET /api/health HTTP/1.1\r\nHost: localhost\r\nX-Padding: ${'a'.repeat(20_000)}\r\n\r\n`,
    );
    expectShape(answer, 431, 'headers_too_large');
    // Written on the raw socket, so the security headers are written there too.
    expect(answer.head).toMatch(/^x-content-type-options: nosniff\r$/im);
  });

  it('answers a request that is not HTTP 400 in the shape', async () => {
    expectShape(await sendWholeThenRead(port, 'NOT HTTP AT ALL\r\n\r\n'), 400, 'bad_request');
  });

  it('answers an unsupported media type 415 in the shape', async () => {
    const answer = await sendWholeThenRead(
      port,
      postHead('Content-Length: 3\r\n').replace('application/json', 'text/xml'),
      '<a>',
    );
    expectShape(answer, 415, 'unsupported_media_type');
  });

  it('answers malformed JSON and a __proto__ key 400 in the shape', async () => {
    for (const body of ['{"name":', '{"__proto__":{"name":"x"}}']) {
      const answer = await sendWholeThenRead(port, postHead(`Content-Length: ${body.length}\r\n`), body);
      expectShape(answer, 400, 'malformed_json');
    }
  });

  it('answers a URL that does not decode 400 in the shape', async () => {
    const answer = await sendWholeThenRead(
      port,
      'GET /api/customers/locations/%E0%A4%A/ HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n',
    );
    expectShape(answer, 400, 'bad_url');
  });

  it('answers an unknown API path 404 in the shape', async () => {
    const answer = await sendWholeThenRead(
      port,
      `GET /api/no-such-thing/ HTTP/1.1\r\nHost: localhost\r\nAuthorization: ${caller.headers.authorization}\r\n` +
        'Connection: close\r\n\r\n',
    );
    expectShape(answer, 404, 'not_found');
  });
});
