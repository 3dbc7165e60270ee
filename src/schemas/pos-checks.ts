import { z } from 'zod';

/** The most checks one `POST /pos/checks/` may carry. */
export const MAX_CHECKS_PER_BATCH = 1000;
/** The most lines one check may carry. */
export const MAX_LINES_PER_CHECK = 500;
/** The largest amount in dollars a check or line may carry (whole cents must fit a 32-bit integer). */
export const MAX_CHECK_DOLLARS = 1_000_000;

const name = (field: string) =>
  z
    .string(`${field} must be text`)
    .trim()
    .min(1, `${field} must not be blank`)
    .max(200, `${field} must be at most 200 characters`);

/** An amount in dollars with at most two decimals, read to whole cents. */
const dollars = (field: string) =>
  z
    .number(`${field} must be a number of dollars`)
    .min(0, `${field} must not be negative`)
    .max(MAX_CHECK_DOLLARS, `${field} must be at most ${MAX_CHECK_DOLLARS}`)
    // Exact: 19.999999999 or 1e-9 would otherwise round to a cent nobody sent.
    .refine((value) => Math.round(value * 100) / 100 === value, `${field} has more than two decimals`)
    .transform((value) => Math.round(value * 100));

const instant = (field: string) =>
  z.iso
    .datetime({
      offset: true,
      message: `${field} must be an ISO 8601 date and time with a zone (2025-03-09T19:30:00Z)`,
    })
    .transform((value) => new Date(value));

/** A line of a check: the item sold (created by name when new), in its category, how many, for how much. */
export const PosCheckLineInputSchema = z.object({
  menu_item: name('menu_item'),
  category: name('category').optional(),
  quantity: z
    .number('quantity must be a whole number')
    .int('quantity must be a whole number')
    .min(1, 'quantity must be 1 or more')
    .max(10_000, 'quantity must be at most 10000'),
  amount: dollars('amount'),
});

/** Who paid, as the POS knows them: a POS id, or a name with the card's last four digits. */
export const PosCheckGuestInputSchema = z
  .object({
    customer_name: z
      .string('customer_name must be text')
      .trim()
      .max(200, 'customer_name must be at most 200 characters')
      .optional(),
    last_four_digits: z
      .string('last_four_digits must be text')
      .regex(/^[0-9]{4}$/, 'last_four_digits must be four digits')
      .optional(),
    pos_id: z
      .string('pos_id must be text')
      .trim()
      .min(1, 'pos_id must not be blank')
      .max(100, 'pos_id must be at most 100 characters')
      .optional(),
  })
  .refine(
    (guest) =>
      guest.pos_id !== undefined || (Boolean(guest.customer_name) && guest.last_four_digits !== undefined),
    { message: 'guest needs a pos_id, or a customer_name with last_four_digits' },
  );

/** What names a check: its location, its number and when it closed (the same check sent again is ignored). */
export const PosCheckIdentitySchema = z.object({
  location_id: z
    .number('location_id must be a location id')
    .int('location_id must be a location id')
    .positive('location_id must be a location id'),
  check_number: name('check_number'),
  closed_at: instant('closed_at'),
});

/** One check as a POS connector sends it (amounts in dollars). */
export const PosCheckInputSchema = z
  .object({
    ...PosCheckIdentitySchema.shape,
    opened_at: instant('opened_at'),
    total: dollars('total'),
    subtotal: dollars('subtotal').optional(),
    tax: dollars('tax').optional(),
    tip: dollars('tip').optional(),
    discount: dollars('discount').optional(),
    guest_count: z
      .number('guest_count must be a whole number')
      .int('guest_count must be a whole number')
      .min(1, 'guest_count must be 1 or more')
      .max(1000, 'guest_count must be at most 1000')
      .optional(),
    revenue_center: name('revenue_center').optional(),
    guest: PosCheckGuestInputSchema.optional(),
    lines: z
      .array(PosCheckLineInputSchema, 'lines must be a list')
      .max(MAX_LINES_PER_CHECK, `lines must hold at most ${MAX_LINES_PER_CHECK} lines`)
      .default([]),
  })
  .refine((check) => check.closed_at >= check.opened_at, {
    message: 'closed_at must not be before opened_at',
    path: ['closed_at'],
  });
/** A check read from the API, amounts in cents. */
export type PosCheckInput = z.infer<typeof PosCheckInputSchema>;

/**
 * `POST /pos/checks/`: the batch. Each check is read on its own (a bad one is rejected, the others stored), so
 * the batch only needs to be a list of objects of the right length.
 */
export const PosChecksBatchSchema = z.object({
  checks: z
    .array(
      z.record(z.string(), z.unknown(), 'each check must be an object'),
      'checks must be a list of checks',
    )
    .min(1, 'checks must hold at least one check')
    .max(MAX_CHECKS_PER_BATCH, `checks must hold at most ${MAX_CHECKS_PER_BATCH} checks`),
});

/** A check the batch did not store: its place in the batch, the field at fault and why. */
export const RejectedCheckSchema = z.object({
  index: z.number().int(),
  field: z.string(),
  reason: z.string(),
});
/** A check the batch did not store. */
export type RejectedCheck = z.infer<typeof RejectedCheckSchema>;

/** What a batch did: checks stored, checks already stored (sent before: nothing changed), checks rejected. */
export const PosChecksBatchAnswerSchema = z.object({
  created: z.number().int(),
  unchanged: z.number().int(),
  rejected: z.array(RejectedCheckSchema),
});
/** What a batch did. */
export type PosChecksBatchAnswer = z.infer<typeof PosChecksBatchAnswerSchema>;
