import { STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';

/** The status and error code for a request Node's HTTP parser refused before Fastify saw it. */
function refusalOf(error: NodeJS.ErrnoException): { status: number; code: string; message: string } {
  if (error.code === 'HPE_HEADER_OVERFLOW') {
    return { status: 431, code: 'headers_too_large', message: 'The request headers are too large' };
  }
  if (error.code === 'ERR_HTTP_REQUEST_TIMEOUT') {
    return { status: 408, code: 'request_timeout', message: 'The request took too long to arrive' };
  }
  return { status: 400, code: 'bad_request', message: 'The request is not valid HTTP' };
}

/**
 * Fastify's `clientErrorHandler`: a request Node's HTTP parser refuses (headers too large, malformed, too
 * slow) is answered in the product's `{error: {code, message}}` shape instead of Node's or Fastify's own,
 * then the connection is closed (the parser cannot go on reading it).
 */
export function answerClientError(error: NodeJS.ErrnoException, socket: Socket): void {
  // A connection the client already dropped has nobody to read an answer.
  if (error.code === 'ECONNRESET' || socket.destroyed) return;
  const { status, code, message } = refusalOf(error);
  const body = JSON.stringify({ error: { code, message } });
  if (!socket.writable) {
    socket.destroy();
    return;
  }
  socket.end(
    `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\n` +
      `Content-Type: application/json; charset=utf-8\r\n` +
      `Content-Length: ${Buffer.byteLength(body)}\r\n` +
      // No hook runs for a request the parser refused, so the security headers of docs/security.md go here.
      `X-Content-Type-Options: nosniff\r\n` +
      `Content-Security-Policy: default-src 'none'; frame-ancestors 'none'\r\n` +
      `Connection: close\r\n\r\n${body}`,
  );
}
