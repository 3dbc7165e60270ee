import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';

/** What the sink received: the envelope's recipients and the raw message. */
export interface ReceivedMail {
  to: string[];
  data: string;
}

/**
 * A real SMTP server on a free local port that keeps what it receives (`refuse`: refuses every recipient with
 * a 550 that quotes the address, as real servers do). Its URL is for createMailer's smtpUrl.
 */
export async function startSink(options: { refuse?: boolean } = {}): Promise<{
  url: string;
  received: { to: string[]; data: string }[];
  stop: () => Promise<void>;
}> {
  const received: ReceivedMail[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    onRcptTo(address, _session, callback) {
      if (!options.refuse) return callback();
      // Real servers quote the address in their refusal.
      const refusal = new Error(`No such user here: ${address.address}`) as Error & { responseCode: number };
      refusal.responseCode = 550;
      return callback(refusal);
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        received.push({
          to: session.envelope.rcptTo.map((rcpt) => rcpt.address),
          data: Buffer.concat(chunks).toString('utf8'),
        });
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.server.address() as AddressInfo;
  return {
    url: `smtp://127.0.0.1:${port}?ignoreTLS=true`,
    received,
    stop: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
