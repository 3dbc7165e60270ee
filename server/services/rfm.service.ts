import type { Guest } from '../../src/schemas/guests.js';
import { RFM_CELLS, type RfmCell } from '../../src/schemas/segment-catalogue.js';
import { rfmCellOf, type RfmCellFigures, type RfmDashboard } from '../../src/schemas/rfm.js';
import type { Database } from '../db/database.js';
import { guestListRowsByIds } from '../repositories/guests.repository.js';
import {
  getRfmScoring,
  refreshRfmScores,
  rfmCellGuestIds,
  rfmSquares,
  type RfmScoring,
  type RfmSquareRow,
} from '../repositories/rfm.repository.js';
import { presentGuest } from './guests.service.js';
import { scopeOf } from './pos-analytics.service.js';
import { percent } from './segment-input.js';
import type { LocationPicker } from './segments.service.js';

/** Two decimals. */
const round2 = (value: number) => Math.round(value * 100) / 100;
/** An average of cents in dollars with cents; null over nobody. */
const averageDollars = (cents: number, count: number) => (count > 0 ? Math.round(cents / count) / 100 : null);

/** Sums of the squares that make a cell, or the whole grid. */
function sumSquares(squares: readonly RfmSquareRow[]) {
  const sum = { guests: 0, spend: 0, clv: 0, clvGuests: 0, r: 0, f: 0, m: 0 };
  for (const square of squares) {
    sum.guests += square.guests;
    sum.spend += square.spend_cents;
    sum.clv += square.clv_cents;
    sum.clvGuests += square.clv_guests;
    sum.r += square.r * square.guests;
    sum.f += square.f * square.guests;
    sum.m += square.m_sum;
  }
  return sum;
}

/**
 * The dashboard's figures from the grid's squares (docs/segments.md, "RFM"): the 25 squares with their cells, each
 * named cell's count, share, revenue, revenue share, average CLV and average scores, and the totals.
 */
export function rfmFigures(squares: readonly RfmSquareRow[], scoring: RfmScoring | null): RfmDashboard {
  const total = sumSquares(squares);
  const grid = [1, 2, 3, 4, 5].flatMap((r) =>
    [1, 2, 3, 4, 5].map((f) => ({
      r,
      f,
      cell: rfmCellOf(r, f),
      guests: squares.find((square) => square.r === r && square.f === f)?.guests ?? 0,
    })),
  );
  const cells = RFM_CELLS.map((cell: RfmCell): RfmCellFigures => {
    const sum = sumSquares(squares.filter((square) => rfmCellOf(square.r, square.f) === cell));
    return {
      cell,
      guests: sum.guests,
      guests_pct: percent(sum.guests, total.guests),
      revenue: sum.spend / 100,
      revenue_share: percent(sum.spend, total.spend),
      clv: averageDollars(sum.clv, sum.clvGuests),
      recency: sum.guests > 0 ? round2(sum.r / sum.guests) : 0,
      frequency: sum.guests > 0 ? round2(sum.f / sum.guests) : 0,
      monetary: sum.guests > 0 ? round2(sum.m / sum.guests) : 0,
    };
  });
  return {
    computed_at: scoring ? scoring.computed_at.toISOString() : null,
    totals: {
      guests: total.guests,
      revenue: total.spend / 100,
      clv: averageDollars(total.clv, total.clvGuests),
    },
    grid,
    cells,
  };
}

/**
 * Scores a company's guests again (docs/segments.md, "RFM"), in one transaction: the CLV job calls it once the
 * company's predictions are written, so the scores carry the new CLV.
 */
export function refreshCompanyRfm(db: Database, companyId: number): Promise<RfmScoring> {
  return db.tenant(companyId, (sql) => refreshRfmScores(sql, companyId));
}

/** The RFM dashboard's calls over the stored scores. */
export function rfmService(db: Database) {
  return {
    /**
     * The grid, the named cells and the totals over the scored guests who visited one of the picked locations
     * (none picked: every scored guest); another company's location is a 404.
     */
    async dashboard(companyId: number, picker: LocationPicker): Promise<RfmDashboard> {
      return db.tenant(companyId, async (sql) => {
        const locationIds = await scopeOf(sql, companyId, picker);
        const scoring = await getRfmScoring(sql, companyId);
        const squares =
          locationIds !== null && locationIds.length === 0
            ? []
            : await rfmSquares(sql, companyId, locationIds);
        return rfmFigures(squares, scoring);
      });
    },

    /**
     * A page of a cell's guests over the picked locations, oldest first after a guest id (keyset), with the
     * cell's size over the same locations.
     */
    async guests(
      companyId: number,
      cell: RfmCell,
      picker: LocationPicker,
      page: { after?: number | undefined; limit: number },
    ): Promise<{ count: number; guests: Guest[]; lastId: number | null }> {
      return db.tenant(companyId, async (sql) => {
        const locationIds = await scopeOf(sql, companyId, picker);
        if (locationIds !== null && locationIds.length === 0) return { count: 0, guests: [], lastId: null };
        const ids = await rfmCellGuestIds(sql, companyId, cell, locationIds, {
          afterId: page.after,
          limit: page.limit,
        });
        const squares = await rfmSquares(sql, companyId, locationIds);
        const count = sumSquares(squares.filter((square) => rfmCellOf(square.r, square.f) === cell)).guests;
        const rows = await guestListRowsByIds(sql, companyId, ids);
        return {
          count,
          guests: rows.map((row) => presentGuest(row, row.is_subscriber, row.email_consent)),
          // The next page starts after the last id asked for, even if that guest was deleted meanwhile.
          lastId: ids.length === page.limit ? ids.at(-1)! : null,
        };
      });
    },
  };
}

/** The RFM dashboard service's calls. */
export type RfmService = ReturnType<typeof rfmService>;
