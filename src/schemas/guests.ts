import { z } from 'zod';
import { pageOf, PagingQuerySchema, repeated } from './common.js';
import { urlWholeNumber } from './numbers.js';
import { countedPageOf, CustomerActivitySchema } from './customers.js';
import { GuestMetricsSchema } from './guest-metrics.js';

/**
 * A guest's email consent (docs/email-consent.md): their linked subscriber is subscribed or unsubscribed,
 * or no subscriber is linked, so they were never asked.
 */
export const EmailConsentSchema = z.enum(['subscribed', 'unsubscribed', 'never_asked']);
/** A guest's email consent. */
export type EmailConsent = z.infer<typeof EmailConsentSchema>;

/** A guest as the POS knows them, with running totals. */
export const GuestSchema = z.object({
  id: z.number().int(),
  hashid: z.string(),
  pos_id: z.string(),
  customer_name: z.string(),
  last_four_digits: z.string(),
  first_location_id: z.number().int().nullable(),
  visit_count: z.number().int(),
  /** Dollars. */
  total_spend: z.number(),
  first_visit_at: z.string().nullable(),
  last_visit_at: z.string().nullable(),
  /** True when a subscriber is linked to this guest. */
  is_subscriber: z.boolean(),
  /** What the one consent rule answers for this guest; every screen shows this. */
  email_consent: EmailConsentSchema,
  created_at: z.string(),
});
/** A guest. */
export type Guest = z.infer<typeof GuestSchema>;

/** A page of guests. */
export const GuestPageSchema = countedPageOf(GuestSchema);

/** `GET /pos/guests/{id}?hashid&pos_id`: the guest, their visits and their subscription state. */
export const GuestProfileSchema = z.object({
  kind: z.literal('guest'),
  guest: GuestSchema,
  activity: CustomerActivitySchema,
  /** The running per-guest figures and CLV (docs/guest-data.md). */
  metrics: GuestMetricsSchema,
  /** The linked subscriber, when there is one. */
  subscription: z
    .object({
      subscriber_id: z.number().int(),
      hashid: z.string(),
      subscribed: z.boolean(),
      email: z.string(),
      /** The subscriber's POS id, for the link to their profile (absent: the guest's; null: none). */
      pos_id: z.string().nullable().optional(),
    })
    .nullable(),
});
/** A guest's profile. */
export type GuestProfile = z.infer<typeof GuestProfileSchema>;

/** `GET /pos/guests-bigdata/?page&is_subscriber&location_id`: a lean, stable-ordered page of guests. */
export const GuestsBigdataQuerySchema = PagingQuerySchema.extend({
  is_subscriber: z.enum(['true', 'false'], { error: 'is_subscriber is not valid' }).optional(),
  location_id: repeated(urlWholeNumber('location_id is not valid')),
});

/** One row of the big-data guest list. */
export const GuestsBigdataRowSchema = z.object({
  id: z.number().int(),
  hashid: z.string(),
  pos_id: z.string(),
  customer_name: z.string(),
  last_four_digits: z.string(),
  is_subscriber: z.boolean(),
});
/** A page of the big-data guest list. */
export const GuestsBigdataPageSchema = pageOf(GuestsBigdataRowSchema);
