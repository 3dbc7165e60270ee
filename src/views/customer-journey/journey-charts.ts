import type { CustomerJourney } from '../../schemas/customer-journey.js';
import { sharePercent } from '../kit/figure-format.js';

/** How the journey matrix's cells read: guests, or the share of the row's guests in percent. */
export type JourneyMetric = 'count' | 'rowPercent';

/** One row of the journey matrix: a first-visit location, its guests, and where they went next. */
export interface JourneyRow {
  locationId: number;
  name: string;
  total: number;
  /** Guests per next-visit location, in the order of `columns`. */
  next: number[];
  notReturned: number;
}

/** The journey matrix: rows by first-visit location, columns by next-visit location (both by name). */
export interface JourneyMatrix {
  columns: { id: number; name: string }[];
  rows: JourneyRow[];
}

/** The matrix of an answer: a row for each location with a first visit, a column for each next location. */
export function journeyMatrix(figures: CustomerJourney | null): JourneyMatrix {
  if (!figures) return { columns: [], rows: [] };
  const firsts = new Set(figures.moves.map((move) => move.from_location_id));
  const nexts = new Set(figures.moves.map((move) => move.to_location_id));
  const columns = figures.locations.filter((location) => nexts.has(location.id) || firsts.has(location.id));
  const rows = figures.locations
    .filter((location) => firsts.has(location.id))
    .map((location) => {
      const mine = figures.moves.filter((move) => move.from_location_id === location.id);
      const guestsTo = (to: number | null) =>
        mine.filter((move) => move.to_location_id === to).reduce((sum, move) => sum + move.guests, 0);
      return {
        locationId: location.id,
        name: location.name,
        total: mine.reduce((sum, move) => sum + move.guests, 0),
        next: columns.map((column) => guestsTo(column.id)),
        notReturned: guestsTo(null),
      };
    });
  return { columns, rows };
}

/** A cell as shown: the guests, or their share of the row in percent (two decimals). */
export function cellValue(guests: number, total: number, metric: JourneyMetric): number {
  if (metric === 'count') return guests;
  return total === 0 ? 0 : sharePercent(guests / total);
}

/**
 * The matrix as heatmap series: one series per first-visit location named with its total (ApexCharts draws the
 * last series on top, so the rows are reversed), a cell per next location and "did not return".
 */
export function journeyHeatmap(
  matrix: JourneyMatrix,
  metric: JourneyMetric,
  rowName: (name: string, row: JourneyRow) => string,
  notReturned: string,
): { name: string; data: { x: string; y: number }[] }[] {
  const short = new Map(
    shortNames(matrix.columns.map((column) => column.name)).map((name, index) => [
      matrix.columns[index]!.id,
      name,
    ]),
  );
  return [...matrix.rows].reverse().map((row) => ({
    name: rowName(short.get(row.locationId) ?? row.name, row),
    data: [
      ...matrix.columns.map((column, index) => ({
        x: short.get(column.id)!,
        y: cellValue(row.next[index]!, row.total, metric),
      })),
      { x: notReturned, y: cellValue(row.notReturned, row.total, metric) },
    ],
  }));
}

/**
 * Names short enough for a chart's axis: the words every name starts with (a group's brand, "Harbor & Vine …")
 * dropped, unless that would leave a name empty or there is only one name.
 */
export function shortNames(names: readonly string[]): string[] {
  if (names.length < 2) return [...names];
  const words = names.map((name) => name.split(' '));
  let shared = 0;
  while (words.every((parts) => parts.length > shared + 1 && parts[shared] === words[0]![shared])) shared++;
  return words.map((parts) => parts.slice(shared).join(' '));
}
