import { z } from 'zod';
import { pageOf, pageSizeField, PagingQuerySchema, repeated, type Page } from './common.js';
import { urlWholeNumber } from './numbers.js';
import { LIMITS } from './constants.js';

// Shapes shared by guests and subscribers: the profile key in links, cards, notes and the activity block
// a profile screen shows. Validation messages follow product spec section 5.

/** Spec section 5: optional plus, optional parenthesis, 3 digits, separator, 3 digits, separator, 4–6 digits. */
export const PHONE_PATTERN = /^[+]?[(]?[0-9]{3}[)]?[-\s.]?[0-9]{3}[-\s.]?[0-9]{4,6}$/;
/** Spec section 5: a zip code is exactly five digits. */
export const ZIP_PATTERN = /^[0-9]{5}$/;
/** The last four digits of a payment card. */
export const LAST_FOUR_PATTERN = /^[0-9]{4}$/;

/** The two kinds of customer profile; the profile screen reads which one from local storage. */
export const CustomerKindSchema = z.enum(['guest', 'subscriber'], { error: 'Kind is not valid' });
/** Guest or subscriber. */
export type CustomerKind = z.infer<typeof CustomerKindSchema>;

/** `?hashid=&pos_id=` that must match the id in the path, or the profile is 404. */
export const ProfileKeyQuerySchema = z.object({
  hashid: z.string({ error: 'hashid is required' }).min(1, 'hashid is required').max(64),
  /** Empty for a subscriber the POS does not know. */
  pos_id: z.string().max(100).default(''),
});
/** The hashid and POS id of a profile link. */
export type ProfileKeyQuery = z.infer<typeof ProfileKeyQuerySchema>;

/** Filters every guest and subscriber list takes: search text and repeated location or group ids. */
export const CustomerListQuerySchema = PagingQuerySchema.extend({
  q: z.string().trim().max(100, 'Search must be at most 100 characters').optional(),
  location_id: repeated(urlWholeNumber('location_id is not valid')),
  location_group_id: repeated(urlWholeNumber('location_group_id is not valid')),
  /** Where a page starts, as the `next` and `previous` links carry it (opaque; keyset paging). */
  cursor: z.string().max(2000, 'cursor is not valid').optional(),
});
/** Filters of a guest or subscriber list. */
export type CustomerListQuery = z.infer<typeof CustomerListQuerySchema>;

/**
 * A page of the guest or subscriber list: the spec's `{count, next, previous, results}` and whether the
 * count is an estimate (large lists: a recent full count, not this moment's; see docs/guests-and-subscribers.md).
 */
export function countedPageOf<Item extends z.ZodTypeAny>(item: Item) {
  return pageOf(item).extend({
    count_estimated: z
      .boolean()
      .optional()
      .describe(
        'True when count is an estimate (a large list counted a little while ago); absent or false: exact',
      ),
  });
}
/** A page with its count's exactness. */
export interface CountedPage<Item> extends Page<Item> {
  count_estimated?: boolean | undefined;
}

/** How the subscriber list may be ordered: a column, descending with a leading `-`. */
export const SUBSCRIBER_ORDERINGS = [
  '-created_at',
  'created_at',
  'email',
  '-email',
  'name',
  '-name',
] as const;
/** One of the subscriber list's orders. */
export type SubscriberOrdering = (typeof SUBSCRIBER_ORDERINGS)[number];

/** `GET /subscriptions/subscribers/`: 8 a page unless asked otherwise (spec section 9), newest first. */
export const SubscriberListQuerySchema = CustomerListQuerySchema.extend({
  page_size: pageSizeField(LIMITS.subscribersPageSize),
  /** Newest first unless asked otherwise: the order the Created column shows. */
  ordering: z.enum(SUBSCRIBER_ORDERINGS, { error: 'ordering is not valid' }).default('-created_at'),
});
/** `GET /pos/guests/`: 10 a page unless asked otherwise (spec section 9). */
export const GuestListQuerySchema = CustomerListQuerySchema.extend({
  page_size: pageSizeField(LIMITS.guestsPageSize),
  /** 'false': only guests never asked (no subscriber linked), the invite list; 'true': only the others. */
  is_subscriber: z.enum(['true', 'false'], { error: 'is_subscriber is not valid' }).optional(),
  /** 'exact': count every match now, however many (a total that must follow each change, e.g. guests to invite). */
  count: z.enum(['exact'], { error: 'count is not valid' }).optional(),
});

/** The guest list's query. */
export type GuestListQuery = z.infer<typeof GuestListQuerySchema>;

/** A payment card linked to a profile; only the last four digits are ever kept. */
export const ProfileCardSchema = z.object({
  id: z.number().int(),
  card_brand: z.string(),
  name_on_card: z.string(),
  last_four_digits: z.string(),
  created_at: z.string(),
});
/** A linked card. */
export type ProfileCard = z.infer<typeof ProfileCardSchema>;

/** `POST …/cards/`. */
export const ProfileCardCreateSchema = z.object({
  last_four_digits: z
    .string({ error: 'Last four digits is required' })
    .trim()
    .min(1, 'Last four digits is required')
    .regex(LAST_FOUR_PATTERN, 'Last four digits is not valid'),
  card_brand: z.string().trim().max(40, 'Card brand is not valid').default(''),
  name_on_card: z.string().trim().max(120, 'Name on card is not valid').default(''),
});
/** A card to link. */
export type ProfileCardCreate = z.infer<typeof ProfileCardCreateSchema>;

/** A note about a profile, newest first in lists. */
export const NoteSchema = z.object({
  id: z.number().int(),
  body: z.string(),
  author_name: z.string().nullable(),
  /** The support staff member who wrote it while acting as the author ("Sasha Support for Dana Whitfield"). */
  written_by_staff_name: z.string().nullable(),
  created_at: z.string(),
});
/** A note. */
export type Note = z.infer<typeof NoteSchema>;

/** `POST …/notes/`. */
export const NoteCreateSchema = z.object({
  body: z
    .string({ error: 'Note is required' })
    .trim()
    .min(1, 'Note is required')
    .max(LIMITS.noteMaxLength, `Note must be at most ${LIMITS.noteMaxLength} characters`),
});
/** A note to write. */
export type NoteCreate = z.infer<typeof NoteCreateSchema>;

/** What a profile shows of a person's visits: totals, favourite items, locations and recent visits. */
export const CustomerActivitySchema = z.object({
  visits: z.number().int(),
  /** Dollars. */
  total_spend: z.number(),
  /** Dollars; 0 with no visits. */
  average_check: z.number(),
  first_visit_at: z.string().nullable(),
  last_visit_at: z.string().nullable(),
  favourite_items: z.array(
    z.object({
      menu_item_id: z.number().int(),
      name: z.string(),
      quantity: z.number().int(),
      spend: z.number(),
    }),
  ),
  locations_visited: z.array(
    z.object({
      location_id: z.number().int(),
      name: z.string(),
      visits: z.number().int(),
      spend: z.number(),
      last_visit_at: z.string(),
    }),
  ),
  recent_visits: z.array(
    z.object({
      check_id: z.number().int(),
      location_name: z.string(),
      closed_at: z.string(),
      total: z.number(),
      items: z.number().int(),
    }),
  ),
});
/** A profile's visit summary. */
export type CustomerActivity = z.infer<typeof CustomerActivitySchema>;

/** `GET /bigdata/get-deleted-customers/` query. */
export const DeletedCustomersQuerySchema = PagingQuerySchema.extend({
  customer_type: CustomerKindSchema.optional(),
  pos_id: z.string().trim().max(100).optional(),
});

/** What is kept of a deleted guest or subscriber: never who they were. */
export const DeletedCustomerSchema = z.object({
  id: z.number().int(),
  customer_type: CustomerKindSchema,
  pos_id: z.string().nullable(),
  original_id: z.number().int(),
  deleted_at: z.string(),
});
/** A page of deleted customers. */
export const DeletedCustomerPageSchema = pageOf(DeletedCustomerSchema);

/** `GET /bigdata/file-urls/`: which files hold a kind's rows for some locations. */
export const FileUrlsQuerySchema = z.object({
  location_id: repeated(urlWholeNumber('location_id is not valid')),
  location_group_id: repeated(urlWholeNumber('location_group_id is not valid')),
  /** 'true' asks for subscriber rows (email, pos_id), anything else for guest rows. */
  is_subscriber: z.enum(['true', 'false'], { error: 'is_subscriber is not valid' }).default('false'),
  /** Which page of URLs (each page lists up to `LIMITS.fileUrlsPerPage` files). */
  page: urlWholeNumber('page must be 1 or more').default(1),
});
/** Query of the file-URLs call. */
export type FileUrlsQuery = z.infer<typeof FileUrlsQuerySchema>;

/**
 * The file-URLs answer: `count` rows in all, `max_count` rows per file at most, and the URLs of this page's
 * files; each URL answers one file of rows as CSV (guests: customer_name,last_four_digits,pos_id;
 * subscribers: email,pos_id) with a header line.
 */
export const FileUrlsSchema = z.object({
  count: z.number().int(),
  max_count: z.number().int(),
  urls: z.array(z.string()),
});
/** The file-URLs answer. */
export type FileUrls = z.infer<typeof FileUrlsSchema>;

/** `GET /bigdata/existing-records/?kind=&pos_id=&pos_id=`: which of these POS ids a kind already has. */
export const ExistingRecordsQuerySchema = z.object({
  kind: CustomerKindSchema,
  pos_id: repeated(z.string().trim().min(1).max(100)).pipe(
    z.array(z.string()).max(LIMITS.maxPageSize, `At most ${LIMITS.maxPageSize} pos_id values`),
  ),
});

/** The POS ids, among those asked about, that already have a record of the kind. */
export const ExistingRecordsSchema = z.object({ kind: CustomerKindSchema, pos_ids: z.array(z.string()) });
/** The existing-records answer. */
export type ExistingRecords = z.infer<typeof ExistingRecordsSchema>;

/** The earliest birthday accepted: older dates are typing mistakes (and year 0 is no PostgreSQL date). */
const EARLIEST_BIRTHDAY = '1900-01-01';

/** A birthday written YYYY-MM-DD, from 1900 up to today, or nothing ('' counts as nothing). */
export const OptionalDateSchema = z.preprocess(
  (value) => (value === '' ? null : value),
  z
    .string({ error: 'Birthday is not valid' })
    .regex(/^\d{4}-\d{2}-\d{2}$/, 'Birthday is not valid')
    .pipe(z.iso.date('Birthday is not valid'))
    .refine(
      (value) => value >= EARLIEST_BIRTHDAY && value <= new Date().toISOString().slice(0, 10),
      'Birthday is not valid',
    )
    .nullable(),
);
