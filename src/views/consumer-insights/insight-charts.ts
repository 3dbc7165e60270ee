import type { ConsumerInsights } from '../../schemas/consumer-insights.js';

/** The heatmap's two figures: checks opened, or their revenue. */
export type HourMetric = 'checks' | 'revenue';

/** The favourite categories' two shares: of items, or of revenue. */
export type ShareMetric = 'units' | 'revenue';

/** The hours of the day as the heatmap's columns read them (00 … 23). */
export const hourLabel = (hour: number) => String(hour).padStart(2, '0');

/**
 * The weekday × hour heatmap's series: one row per weekday, Monday on top (ApexCharts draws the last series
 * first), a cell per opening hour of the day with the checks or the revenue (dollars, cents kept).
 */
export function hourHeatmap(
  hours: ConsumerInsights['hours'],
  metric: HourMetric,
  weekdayName: (weekday: number) => string,
): { name: string; data: { x: string; y: number }[] }[] {
  return [7, 6, 5, 4, 3, 2, 1].map((weekday) => ({
    name: weekdayName(weekday),
    data: hours
      .filter((cell) => cell.weekday === weekday)
      .sort((a, b) => a.hour - b.hour)
      .map((cell) => ({
        x: hourLabel(cell.hour),
        y: metric === 'checks' ? cell.checks : Math.round(cell.revenue * 100) / 100,
      })),
  }));
}

/** A part of a whole in percent (0 of 0 is 0). */
export const shareOf = (part: number, whole: number) => (whole === 0 ? 0 : (part / whole) * 100);
