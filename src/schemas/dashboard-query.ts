import { z } from 'zod';
import { IsoDateSchema, repeated } from './common.js';
import { urlWholeNumber } from './numbers.js';

/**
 * The query every dashboard call under `/api/analytics/…` takes (docs/dashboards.md): an inclusive range of
 * the company's local days, at most `MAX_DASHBOARD_DAYS` long, an optional comparison with the period just
 * before, and the locations and groups as the POS analytics calls take them (repeated `location_id` and
 * `location_group_id`). A dashboard with filters of its own extends it (`dashboardQuerySchema.extend(…)`).
 */

/** The longest range a dashboard reads: two years and a leap day. */
export const MAX_DASHBOARD_DAYS = 731;

/** An inclusive range of `YYYY-MM-DD` days. */
export interface DayBounds {
  from: string;
  to: string;
}

/** The day `days` after a `YYYY-MM-DD` day (before, when negative). */
export function addDays(day: string, days: number): string {
  const date = new Date(`${day}T00:00:00Z`);
  date.setUTCDate(date.getUTCDate() + days);
  return date.toISOString().slice(0, 10);
}

/** How many days an inclusive range has (1 when both ends are the same day). */
export function daysIn({ from, to }: DayBounds): number {
  return Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / 86_400_000) + 1;
}

/** The period a range is compared with: as many days, ending the day before it starts. */
export function previousPeriod({ from, to }: DayBounds): DayBounds {
  return { from: addDays(from, -daysIn({ from, to })), to: addDays(from, -1) };
}

/** The object part of the query, for dashboards that add filters of their own with `.extend(…)`. */
export const dashboardQueryFields = z.object({
  from_date: IsoDateSchema,
  to_date: IsoDateSchema,
  compare: z.enum(['previous'], { error: 'compare must be previous' }).optional(),
  location_id: repeated(urlWholeNumber('location_id is not valid')),
  location_group_id: repeated(urlWholeNumber('location_group_id is not valid')),
});

const ISO_DAY = /^\d{4}-\d{2}-\d{2}$/;

/** Checks on the range as a whole: `to_date` at or after `from_date`, at most `MAX_DASHBOARD_DAYS` days. */
export function checkDashboardRange(
  query: { from_date: string; to_date: string },
  context: z.core.$RefinementCtx,
): void {
  // A malformed date already has its own issue; comparing it would add a second, misleading one.
  if (!ISO_DAY.test(query.from_date) || !ISO_DAY.test(query.to_date)) return;
  if (query.to_date < query.from_date) {
    context.addIssue({ code: 'custom', message: 'to_date must not be before from_date', path: ['to_date'] });
  } else if (daysIn({ from: query.from_date, to: query.to_date }) > MAX_DASHBOARD_DAYS) {
    context.addIssue({
      code: 'custom',
      message: `to_date must be at most ${MAX_DASHBOARD_DAYS} days after from_date`,
      path: ['to_date'],
    });
  }
}

/** A dashboard call's query (`from_date`, `to_date`, `compare`, `location_id`, `location_group_id`). */
export const dashboardQuerySchema = dashboardQueryFields.superRefine(checkDashboardRange);
/** A dashboard call's query. */
export type DashboardQuery = z.infer<typeof dashboardQuerySchema>;

/** The range a dashboard answered and the one it compared with (null without `compare=previous`). */
export const DashboardRangesSchema = z.object({
  range: z.object({ from: z.string(), to: z.string() }),
  previous: z.object({ from: z.string(), to: z.string() }).nullable(),
});
/** The range a dashboard answered and the one it compared with. */
export type DashboardRanges = z.infer<typeof DashboardRangesSchema>;
