import type { Readable } from 'node:stream';
import type { FastifyReply } from 'fastify';

/**
 * Sends CSV as a download named `fileName`. The reply is taken untyped because a route's response schema
 * describes JSON answers only; a stream or text body bypasses serialisation.
 */
export function sendCsv(reply: FastifyReply, fileName: string, body: Readable | string): FastifyReply {
  return reply
    .header('content-type', 'text/csv; charset=utf-8')
    .header('content-disposition', `attachment; filename="${fileName}"`)
    .header('cache-control', 'no-store')
    .send(body);
}
