import { createHash, randomBytes } from 'node:crypto';
import type { EmailSender } from '../../src/schemas/accounts.js';
import {
  VERIFICATION_LINK_HOURS,
  type CapturedEmail,
  type VerificationLinkProblem,
  type VerificationSent,
} from '../../src/schemas/sender-verification.js';
import type { Database } from '../db/database.js';
import { ApiError, notFound } from '../http/errors.js';
import { MailDeliveryError } from '../mail/mail-delivery-error.js';
import type { Mailer, MailDelivery } from '../mail/mailer.js';
import { senderVerificationEmail } from '../mail/sender-verification-email.js';
import type { CapturedEmailRow } from '../repositories/captured-emails.repository.js';
import {
  createSenderVerification,
  findSenderVerification,
  useSenderVerification,
} from '../repositories/email-sender-verifications.repository.js';
import { getEmailSender, markEmailSenderVerified } from '../repositories/email-senders.repository.js';
import type { WriteScope } from '../repositories/scope.js';
import { presentEmailSender } from './email-senders.service.js';

/** What sending verification email needs: the way out, where links point and the product's name. */
export interface SenderVerificationSettings {
  db: Database;
  mailer: Mailer;
  /** Links point at `${publicUrl}/verify-sender`. */
  publicUrl: string;
  brandName: string;
  /** The From header of product email. */
  from: string;
}

/** A captured message as the API shows it. */
export function presentCapturedEmail(row: CapturedEmailRow): CapturedEmail {
  return {
    id: row.id,
    from: row.from_address,
    to: row.to_address,
    subject: row.subject,
    text: row.text_body,
    html: row.html_body,
    created_at: row.created_at.toISOString(),
  };
}

/** The only form of a token the database keeps. */
function tokenHash(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

const LINK_PROBLEM_MESSAGES: Record<VerificationLinkProblem, string> = {
  verification_link_unknown: 'This verification link is not valid',
  verification_link_used: 'This verification link was already used',
  verification_link_expired: 'This verification link has expired; send a new one',
  verification_link_replaced: "The sender's address changed after this link was sent",
};

function linkProblem(code: VerificationLinkProblem): ApiError {
  return new ApiError(400, code, LINK_PROBLEM_MESSAGES[code]);
}

/** A refusal by the SMTP server answers 502; the unused link simply expires. */
async function sendOrExplain(send: () => Promise<MailDelivery>): Promise<MailDelivery> {
  try {
    return await send();
  } catch (error) {
    if (error instanceof MailDeliveryError)
      throw new ApiError(502, 'mail_not_sent', 'The mail server did not accept the email; try again later');
    throw error;
  }
}

/** Verifying a sender's address: a single-use link sent to it, and following that link. */
export function senderVerificationService(settings: SenderVerificationSettings) {
  const { db, mailer } = settings;
  return {
    /**
     * Sends "Verify <address> for <brand>" to the sender's address with a new link (24 hours, single use).
     * 404 for another company's sender; 409 when it is already verified.
     */
    async send(scope: WriteScope, senderId: number): Promise<VerificationSent> {
      const token = randomBytes(32).toString('base64url');
      const sender = await db.tenant(scope.companyId, async (sql) => {
        const row = await getEmailSender(sql, scope.companyId, senderId);
        if (!row) throw notFound('Email sender');
        if (row.verified_at)
          throw new ApiError(409, 'sender_already_verified', 'This sender is already verified');
        await createSenderVerification(sql, scope.companyId, {
          senderId,
          email: row.email,
          tokenHash: tokenHash(token),
          hours: VERIFICATION_LINK_HOURS,
        });
        return row;
      });
      const email = senderVerificationEmail({
        address: sender.email,
        brand: settings.brandName,
        publicUrl: settings.publicUrl,
        token,
        hours: VERIFICATION_LINK_HOURS,
      });
      const delivery = await sendOrExplain(() =>
        mailer.send({
          companyId: scope.companyId,
          from: settings.from,
          to: sender.email,
          subject: email.subject,
          text: email.text,
          html: email.html,
        }),
      );
      return delivery.kind === 'captured'
        ? { delivery: 'captured', message: presentCapturedEmail(delivery.email) }
        : { delivery: 'sent', message: null };
    },

    /**
     * Follows a link: marks its sender verified and the token used. A 400 with a code when the token is
     * unknown in this company, used, sent to an address the sender no longer has, or expired.
     */
    async verify(scope: WriteScope, token: string): Promise<EmailSender> {
      const row = await db.tenant(scope.companyId, async (sql) => {
        const verification = await findSenderVerification(sql, scope.companyId, tokenHash(token));
        if (!verification) throw linkProblem('verification_link_unknown');
        if (verification.used_at) throw linkProblem('verification_link_used');
        if (verification.email.toLowerCase() !== verification.sender_email.toLowerCase())
          throw linkProblem('verification_link_replaced');
        if (verification.expired) throw linkProblem('verification_link_expired');
        await useSenderVerification(sql, scope.companyId, verification.id);
        return markEmailSenderVerified(sql, scope, verification.sender_id);
      });
      // The join found the sender in this transaction, so it is there.
      return presentEmailSender(row!);
    },
  };
}

/** The sender verification service's interface. */
export type SenderVerificationService = ReturnType<typeof senderVerificationService>;
