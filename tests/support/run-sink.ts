import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';

/** One message the sink took: its envelope recipients, Message-ID header and raw text. */
export interface SunkMessage {
  to: string[];
  messageId: string | null;
  raw: string;
}

/** A running sink and what it holds. */
export interface RunSink {
  /** For the run transport's smtpUrl. */
  url: string;
  received: SunkMessage[];
  stop(): Promise<void>;
}

/**
 * A real SMTP server on a free local port for mail-run tests and the bench. `reply(address)` may answer a
 * recipient with an SMTP code (4xx: try later, 5xx: refused); null takes it. Each accepted message is
 * answered `250 Ok: queued as q<n>`, as real servers name their queue id. `keep: false` keeps only the
 * Message-ID and recipients (the kill test and the bench send tens of thousands).
 */
export async function startRunSink(
  options: { reply?: (address: string) => number | null; keep?: boolean } = {},
): Promise<RunSink> {
  const received: SunkMessage[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onRcptTo(address, _session, callback) {
      const code = options.reply?.(address.address) ?? null;
      if (code === null) return callback();
      const refusal = new Error(code >= 500 ? 'Mailbox unavailable' : 'Try again later') as Error & {
        responseCode: number;
      };
      refusal.responseCode = code;
      return callback(refusal);
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        const raw = Buffer.concat(chunks).toString('utf8');
        const header = raw.slice(0, raw.indexOf('\r\n\r\n'));
        const messageId = /^Message-ID:\s*(<[^>]+>)/im.exec(header)?.[1] ?? null;
        received.push({
          to: session.envelope.rcptTo.map((rcpt) => rcpt.address),
          messageId,
          raw: options.keep === false ? '' : raw,
        });
        callback(null, `Ok: queued as q${received.length}`);
      });
    },
  });
  // A client killed mid-message resets its connection: expected in the kill test, not a failure of the sink.
  server.on('error', () => undefined);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.server.address() as AddressInfo;
  return {
    url: `smtp://127.0.0.1:${port}?ignoreTLS=true`,
    received,
    stop: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
