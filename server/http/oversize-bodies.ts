import type { FastifyInstance } from 'fastify';

/**
 * After refusing a body as too large, the server reads and discards up to this much more of it so that a
 * client that sends its whole body before reading (most do) gets to read the 413; past it, the connection
 * is cut.
 */
export const OVERSIZE_DRAIN_BYTES = 256 * 1024 * 1024;

/**
 * Too-large bodies answered readably. Fastify refuses a declared `Content-Length` over the route's limit
 * before reading any of it, and a chunked body once it passes the limit; uploads refuse their file the
 * same way. Whenever a 413 goes out, the rest of the body is drained instead of the connection being
 * closed under the client, which would otherwise see a broken pipe rather than the answer.
 */
export function registerOversizeBodies(app: FastifyInstance): void {
  app.addHook('onSend', async (request, reply) => {
    if (request.raw.complete || request.raw.destroyed) return;
    // Node drops an unread body itself; one refused part-way through reading (an upload found binary) it
    // leaves on the socket, where it would hold up the next request of a keep-alive connection.
    const refusedPartWay = reply.statusCode >= 400 && request.raw.readableDidRead;
    if (reply.statusCode !== 413 && !refusedPartWay) return;
    // Closing with unread bytes resets the connection, losing the answer: keep it open (even when the client
    // asked to close) while the rest of the body is read and dropped; the client or the idle timeout ends it.
    reply.removeHeader('connection');
    reply.raw.shouldKeepAlive = true;
    let drained = 0;
    request.raw.on('data', (chunk: Buffer) => {
      drained += chunk.length;
      if (drained > OVERSIZE_DRAIN_BYTES) request.raw.socket.destroy();
    });
    request.raw.resume();
  });
}
