import { z } from 'zod';

/**
 * The arithmetic every dashboard's figures share, on the server (answers) and in the browser (the KPI cards'
 * change): money from cents, the average check and the change against the previous period. One definition, so
 * no two screens disagree on a figure (docs/dashboards.md, "Shared figures").
 */

/** Cents as dollars. */
export const dollars = (cents: number | string): number => Number(cents) / 100;

/** The average check in dollars (cents rounded); null without checks: there is no average of nothing. */
export function averageCheck(cents: number | string, checks: number | string): number | null {
  return Number(checks) === 0 ? null : Math.round(Number(cents) / Number(checks)) / 100;
}

/**
 * The change from `previous` to `value` in percent (12.5 for +12.5%), or null when there is nothing to compare
 * (either missing, or the previous period had none: a change from zero has no percentage).
 */
export function changeOf(
  value: number | null | undefined,
  previous: number | null | undefined,
): number | null {
  if (value === null || value === undefined || previous === null || previous === undefined) return null;
  if (previous === 0) return null;
  return ((value - previous) / Math.abs(previous)) * 100;
}

/** The headline figures of a range every sales dashboard shows (Summary, Overview, the home dashboard's KPIs). */
export const SalesKpisSchema = z.object({
  revenue: z.number(),
  checks: z.number().int(),
  guests: z.number().int(),
  /** Revenue ÷ checks in dollars with cents; null without checks. */
  average_check: z.number().nullable(),
  new_guests: z.number().int(),
  returning_guests: z.number().int(),
});
/** The headline figures of a range. */
export type SalesKpis = z.infer<typeof SalesKpisSchema>;
