/**
 * The SMTP server did not take a message. Only the failure's kind is kept: nodemailer's own messages can quote
 * the server's reply, which often names the recipient, and errors reach the logs.
 */
export class MailDeliveryError extends Error {
  constructor(
    /** nodemailer's code, such as `EENVELOPE`, `ECONNECTION` or `EAUTH`, or `unknown`. */
    readonly code: string,
    /** The SMTP reply code, such as 550, when the server answered. */
    readonly responseCode: number | null,
  ) {
    super(`The SMTP server did not accept the message (${code}${responseCode ? ` ${responseCode}` : ''})`);
    this.name = 'MailDeliveryError';
  }
}

/** The same failure without any text the server or client library wrote. */
export function deliveryErrorOf(error: unknown): MailDeliveryError {
  const fields = (error ?? {}) as { code?: unknown; responseCode?: unknown };
  return new MailDeliveryError(
    typeof fields.code === 'string' ? fields.code : 'unknown',
    typeof fields.responseCode === 'number' ? fields.responseCode : null,
  );
}
