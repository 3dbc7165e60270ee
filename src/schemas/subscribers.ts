import { z } from 'zod';
import { pageOf, requiredName } from './common.js';
import { emailField } from './accounts.js';
import {
  countedPageOf,
  CustomerActivitySchema,
  OptionalDateSchema,
  PHONE_PATTERN,
  ZIP_PATTERN,
} from './customers.js';
import { GuestMetricsSchema } from './guest-metrics.js';

/** A subscriber (someone who gave an email address) as the API returns it. */
export const SubscriberSchema = z.object({
  id: z.number().int(),
  hashid: z.string(),
  /** Null when the POS does not know this person. */
  pos_id: z.string().nullable(),
  email: z.string(),
  first_name: z.string(),
  last_name: z.string(),
  phone: z.string(),
  zip: z.string(),
  /** YYYY-MM-DD or null. */
  birthday: z.string().nullable(),
  subscribed: z.boolean(),
  /** The spec's string form of `subscribed`: 'True' or 'False'. */
  SUBSCRIBED: z.enum(['True', 'False']),
  guest_id: z.number().int().nullable(),
  source_location_id: z.number().int().nullable(),
  list_ids: z.array(z.number().int()),
  unsubscribed_at: z.string().nullable(),
  created_at: z.string(),
  updated_at: z.string(),
});
/** A subscriber. */
export type Subscriber = z.infer<typeof SubscriberSchema>;

/** A page of subscribers. */
export const SubscriberPageSchema = countedPageOf(SubscriberSchema);

/** The profile fields of a subscriber with the spec's validation messages. */
const profileFields = {
  email: emailField('Email'),
  first_name: z.string().trim().max(100, 'First name is not valid').default(''),
  last_name: z.string().trim().max(100, 'Last name is not valid').default(''),
  phone: z
    .string()
    .trim()
    .refine((value) => value === '' || PHONE_PATTERN.test(value), 'Phone is not valid')
    .default(''),
  zip: z
    .string()
    .trim()
    .refine((value) => value === '' || ZIP_PATTERN.test(value), 'Zip code is not valid')
    .default(''),
  birthday: OptionalDateSchema.default(null),
  subscribed: z.boolean({ error: 'Subscribed is not valid' }).default(true),
};

/** `POST /subscriptions/subscribers/`: the add dialog. */
export const SubscriberCreateSchema = z.object({
  ...profileFields,
  pos_id: z.string().trim().max(100, 'POS id is not valid').default(''),
  source_location_id: z.number().int().positive('Location is not valid').nullable().default(null),
});
/** A subscriber to add. */
export type SubscriberCreate = z.infer<typeof SubscriberCreateSchema>;

/**
 * `PUT /subscriptions/subscribers/{id}/profile/`: the update dialogs replace every profile field; the source
 * location too when given (null clears it), while a body without it (the list's dialog) leaves it alone.
 */
export const SubscriberProfileUpdateSchema = z.object({
  ...profileFields,
  source_location_id: SubscriberCreateSchema.shape.source_location_id.removeDefault().optional(),
});
/** A subscriber's new profile. */
export type SubscriberProfileUpdate = z.infer<typeof SubscriberProfileUpdateSchema>;

/** `GET /subscriptions/subscribers/{id}?hashid&pos_id`: the subscriber and what their linked guest did. */
export const SubscriberProfileSchema = z.object({
  kind: z.literal('subscriber'),
  subscriber: SubscriberSchema,
  /** Visits of the POS guest linked to this subscriber; zeros when none is linked. */
  activity: CustomerActivitySchema,
  /** The linked guest's running figures and CLV; null when no guest is linked. */
  metrics: GuestMetricsSchema.nullable(),
  lists: z.array(z.object({ id: z.number().int(), name: z.string() })),
});
/** A subscriber's profile. */
export type SubscriberProfile = z.infer<typeof SubscriberProfileSchema>;

/** A subscriber list; `created` is shown as a long date-time. */
export const SubscriberListSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  member_count: z.number().int(),
  created: z.string(),
  updated_at: z.string(),
});
/** A subscriber list. */
export type SubscriberList = z.infer<typeof SubscriberListSchema>;

/** `GET /subscriptions/subscribers/list/`. */
export const SubscriberListPageSchema = pageOf(SubscriberListSchema);

/** `POST /subscriptions/subscribers/list/` and `PUT …/list/{id}`: a list's name. */
export const SubscriberListWriteSchema = z.object({ name: requiredName('Name') });
/** A list's name. */
export type SubscriberListWrite = z.infer<typeof SubscriberListWriteSchema>;

/** `POST …/list/{id}/members/` and `POST …/list/{id}/members/remove/`: subscribers to add or take off. */
export const ListMembersChangeSchema = z.object({
  subscriber_ids: z
    .array(z.number().int().positive('subscriber_ids is not valid'), { error: 'subscriber_ids is required' })
    .min(1, 'subscriber_ids is required')
    .max(1000, 'subscriber_ids must hold at most 1000 ids'),
});
/** Subscribers to add to or remove from a list. */
export type ListMembersChange = z.infer<typeof ListMembersChangeSchema>;
