import { z } from 'zod';
import { LIMITS } from './constants.js';
import { FieldProblemSchema } from './field-problems.js';
import { urlWholeNumber } from './numbers.js';

/** The error body of every failed API call. */
export const ApiErrorSchema = z.object({
  error: z.object({
    code: z.string(),
    message: z.string(),
    /** Field → English message, for API callers. */
    fields: z.record(z.string(), z.string()).optional(),
    /** Field → what is wrong as a code and its limit, which the interface translates. */
    field_problems: z.record(z.string(), FieldProblemSchema).optional().catch(undefined),
  }),
});
/** The error body of every failed API call. */
export type ApiErrorBody = z.infer<typeof ApiErrorSchema>;

/** `?page_size=`, defaulting to `defaultSize` (lists with a page size of their own, e.g. guests 10). */
export function pageSizeField(defaultSize: number) {
  return urlWholeNumber('page_size must be 1 or more', {
    max: LIMITS.maxPageSize,
    maxMessage: `page_size must be at most ${LIMITS.maxPageSize}`,
  }).default(defaultSize);
}

/** `?page=&page_size=` of every list call. */
export const PagingQuerySchema = z.object({
  page: urlWholeNumber('page must be 1 or more').default(1),
  page_size: pageSizeField(LIMITS.defaultPageSize),
});
/** `?page=&page_size=` of every list call. */
export type PagingQuery = z.infer<typeof PagingQuerySchema>;

/** The list shape `{count, next, previous, results}` around any item schema. */
export function pageOf<Item extends z.ZodTypeAny>(item: Item) {
  return z.object({
    count: z.number().int(),
    next: z.string().nullable(),
    previous: z.string().nullable(),
    results: z.array(item),
  });
}
/** A page of items. */
export interface Page<Item> {
  count: number;
  /** Set by lists that estimate large totals (guests, subscribers): true when `count` is an estimate. */
  count_estimated?: boolean | undefined;
  next: string | null;
  previous: string | null;
  results: Item[];
}

/** A path id: a positive integer written in plain digits (`1e3` or `012` is refused, not read as another id). */
export const IdParamSchema = z.object({
  id: urlWholeNumber('id must be a positive integer'),
});

/** A query value that may be repeated (`?location_id=1&location_id=2`) or given once. */
export function repeated<Item extends z.ZodTypeAny>(item: Item) {
  return z.preprocess(
    (value: unknown): unknown[] =>
      value === undefined ? [] : Array.isArray(value) ? (value as unknown[]) : [value],
    z.array(item),
  );
}

/** A calendar date written YYYY-MM-DD. */
export const IsoDateSchema = z.iso.date('must be a date written YYYY-MM-DD');

/** A name that is not blank once trimmed. */
export function requiredName(field: string) {
  return z
    .string({ error: `${field} is required` })
    .trim()
    .min(1, `${field} is required`)
    .max(LIMITS.nameMaxLength, `${field} must be at most ${LIMITS.nameMaxLength} characters`);
}

/** `{ok: true}` style acknowledgement of a delete. */
export const DeletedSchema = z.object({ deleted: z.literal(true) });

/** True for a time zone name the runtime knows (IANA, e.g. America/Chicago). */
export function isTimeZone(value: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: value });
    return true;
  } catch {
    return false;
  }
}
