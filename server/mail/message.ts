/** One email the product sends: on behalf of a company, to one address. */
export interface MailMessage {
  /** The company the message is sent for; a captured message belongs to it. */
  companyId: number;
  /** The From header, such as `"Regulars" <no-reply@regulars.example>`. */
  from: string;
  to: string;
  subject: string;
  /** The plain-text part; every message has one. */
  text: string;
  /** The HTML part, when there is one. */
  html?: string | undefined;
}
