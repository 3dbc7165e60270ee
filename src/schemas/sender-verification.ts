import { z } from 'zod';

/** A message the server kept in the database instead of sending it, because no mail server is set up. */
export const CapturedEmailSchema = z.object({
  id: z.number().int(),
  from: z.string(),
  to: z.string(),
  subject: z.string(),
  text: z.string(),
  html: z.string().nullable(),
  created_at: z.string(),
});
/** A captured message as the app shows it. */
export type CapturedEmail = z.infer<typeof CapturedEmailSchema>;

/**
 * The answer of `POST /api/campaigns/email-sender/{id}/verification/`: the email went to a mail server
 * (`sent`), or was kept in the app (`captured`, with the message so the user can open it).
 */
export const VerificationSentSchema = z.object({
  delivery: z.enum(['sent', 'captured']),
  message: CapturedEmailSchema.nullable(),
});
/** What sending a verification email did. */
export type VerificationSent = z.infer<typeof VerificationSentSchema>;

/** The longest verification token accepted; real ones are 43 characters. */
const TOKEN_MAX_LENGTH = 200;

/** `POST /api/campaigns/email-sender/verify/`: the token from the link. */
export const SenderVerifyInputSchema = z.object({
  token: z.string({ error: 'Token is required' }).trim().min(1, 'Token is required').max(TOKEN_MAX_LENGTH),
});
/** The body of a verification. */
export type SenderVerifyInput = z.infer<typeof SenderVerifyInputSchema>;

/** Why a verification link did not verify; each is a 400's error code. */
export const VERIFICATION_LINK_PROBLEMS = [
  'verification_link_unknown',
  'verification_link_used',
  'verification_link_expired',
  'verification_link_replaced',
] as const;
/** One reason a link did not verify. */
export type VerificationLinkProblem = (typeof VERIFICATION_LINK_PROBLEMS)[number];

/** How long a verification link works (24 hours). */
export const VERIFICATION_LINK_HOURS = 24;
