import { z } from 'zod';
import { pageOf, pageSizeField, repeated } from './common.js';
import { LIMITS } from './constants.js';
import { GuestSchema } from './guests.js';
import { urlWholeNumber } from './numbers.js';
import { RFM_CELLS, type RfmCell } from './segment-catalogue.js';

/**
 * The RFM dashboard's calls (docs/segments.md, "RFM"): the stored recency, frequency and monetary scores of the
 * picked locations' guests as a 5×5 grid of recency × frequency, the named cells' figures, and a cell's guests.
 */

/** The named cell of recency `r` and frequency `f` scores (1–5), rows by R from 1, columns by F from 1. */
export const RFM_GRID: readonly (readonly RfmCell[])[] = [
  ['lost', 'lost', 'at_risk', 'at_risk', 'cant_lose_them'],
  ['hibernating', 'hibernating', 'at_risk', 'at_risk', 'cant_lose_them'],
  ['about_to_sleep', 'about_to_sleep', 'need_attention', 'loyal', 'loyal'],
  ['promising', 'potential_loyalists', 'potential_loyalists', 'loyal', 'loyal'],
  ['new', 'potential_loyalists', 'potential_loyalists', 'champions', 'champions'],
];

/** The cell of scores `r` and `f`. */
export function rfmCellOf(r: number, f: number): RfmCell {
  return RFM_GRID[r - 1]![f - 1]!;
}

/** The location picker of the dashboard's calls: repeated `location_id` / `location_group_id`. */
export const RfmDashboardQuerySchema = z.object({
  location_id: repeated(urlWholeNumber('location_id is not valid')),
  location_group_id: repeated(urlWholeNumber('location_group_id is not valid')),
});

/** One square of the grid: guests scored recency `r` and frequency `f`. */
export const RfmSquareSchema = z.object({
  r: z.number().int(),
  f: z.number().int(),
  cell: z.enum(RFM_CELLS),
  guests: z.number().int(),
});

/** One named cell's figures; money in dollars, shares in percent, scores averaged over its guests. */
export const RfmCellFiguresSchema = z.object({
  cell: z.enum(RFM_CELLS),
  guests: z.number().int(),
  /** Share of the scored guests (of the picked locations). */
  guests_pct: z.number(),
  revenue: z.number(),
  /** Its guests' spend over every scored guest's spend, in percent. */
  revenue_share: z.number(),
  /** Average predicted CLV over its guests with a prediction; null when none has one. */
  clv: z.number().nullable(),
  recency: z.number(),
  frequency: z.number(),
  monetary: z.number(),
});
/** One named cell's figures. */
export type RfmCellFigures = z.infer<typeof RfmCellFiguresSchema>;

/** `GET /benchmark/rfm-dashboard/`. */
export const RfmDashboardSchema = z.object({
  /** When the scores were worked out; null before the company's first. */
  computed_at: z.string().nullable(),
  totals: z.object({ guests: z.number().int(), revenue: z.number(), clv: z.number().nullable() }),
  /** The 25 squares, by R then F. */
  grid: z.array(RfmSquareSchema),
  /** Every named cell in the usual order, empty ones included. */
  cells: z.array(RfmCellFiguresSchema),
});
/** The RFM dashboard's answer. */
export type RfmDashboard = z.infer<typeof RfmDashboardSchema>;

/** `GET /benchmark/rfm-dashboard/guests/`: the cell, the picker and a keyset page. */
export const RfmGuestsQuerySchema = RfmDashboardQuerySchema.extend({
  cell: z.enum(RFM_CELLS, { message: `cell must be one of ${RFM_CELLS.join(', ')}` }),
  after: urlWholeNumber('after is not valid').optional(),
  page_size: pageSizeField(LIMITS.defaultPageSize),
});

/** A page of a cell's guests, oldest first, with the cell's size and the next page's link. */
export const RfmGuestsPageSchema = pageOf(GuestSchema);
/** A page of a cell's guests. */
export type RfmGuestsPage = z.infer<typeof RfmGuestsPageSchema>;
