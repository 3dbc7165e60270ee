import type { GuestClv, GuestMetrics } from '../../src/schemas/guest-metrics.js';
import type { CompanyId, Sql } from '../db/database.js';
import {
  findClvFit,
  findGuestPrediction,
  type ClvFitRow,
  type GuestPredictionRow,
} from '../repositories/clv.repository.js';
import {
  findFavouriteItems,
  findGuestMetrics,
  type GuestItemRow,
  type GuestMetricsRow,
} from '../repositories/guest-metrics.repository.js';
import { getLocation } from '../repositories/locations.repository.js';
import { dollars, isoOrNull } from './customer-profiles.service.js';

/** The company's fit with the guest's figures as the API shows them; null before the first fit. */
export function presentGuestClv(
  fit: ClvFitRow | null,
  prediction: GuestPredictionRow | null,
): GuestClv | null {
  if (!fit) return null;
  return {
    method: fit.method,
    fitted_at: fit.fitted_at.toISOString(),
    calibration_end: fit.calibration_end,
    // numeric columns arrive as text from some drivers.
    horizon_years: Number(fit.horizon_years),
    discount_rate: Number(fit.discount_rate),
    figures: prediction && {
      probability_alive: prediction.probability_alive === null ? null : Number(prediction.probability_alive),
      clf: Number(prediction.expected_visits_next_year),
      expected_spend_per_visit: dollars(Number(prediction.expected_spend_per_visit_cents)),
      annual_clv: dollars(Number(prediction.annual_clv_cents)),
      clv: dollars(Number(prediction.clv_cents)),
    },
  };
}

/** The parts one guest's metrics are read from. */
export interface GuestMetricsParts {
  row: GuestMetricsRow;
  items: GuestItemRow[];
  favouriteLocationName: string | null;
  fit: ClvFitRow | null;
  prediction: GuestPredictionRow | null;
}

/** A guest's metrics as the API shows them; money in dollars. */
export function presentGuestMetrics({
  row,
  items,
  favouriteLocationName,
  fit,
  prediction,
}: GuestMetricsParts): GuestMetrics {
  const favouriteId = row.favourite_location_id === null ? null : Number(row.favourite_location_id);
  return {
    visits: Number(row.visits),
    spend: dollars(Number(row.spend_cents)),
    average_check: dollars(Number(row.average_check_cents)),
    first_visit_at: isoOrNull(row.first_visit_at),
    last_visit_at: isoOrNull(row.last_visit_at),
    days_since_last_visit: row.days_since_last_visit === null ? null : Number(row.days_since_last_visit),
    // Two decimals are plenty for "visits a month" and keep the answer stable to read.
    visits_per_month: Math.round(Number(row.visits_per_month) * 100) / 100,
    favourite_location: favouriteId === null ? null : { id: favouriteId, name: favouriteLocationName ?? '' },
    favourite_items: items.map((item) => ({
      menu_item_id: Number(item.menu_item_id),
      name: item.name,
      quantity: Number(item.quantity),
      checks: Number(item.checks),
    })),
    day_parts: {
      breakfast: Number(row.day_parts.breakfast),
      lunch: Number(row.day_parts.lunch),
      dinner: Number(row.day_parts.dinner),
      late: Number(row.day_parts.late),
    },
    trackable: row.trackable,
    marketable: row.marketable,
    clv: presentGuestClv(fit, prediction),
  };
}

/**
 * One guest's metrics and CLV, read in the caller's transaction (five indexed single-guest reads, whatever the
 * company's size); null when the company has no such guest.
 */
export async function readGuestMetrics(
  sql: Sql,
  companyId: CompanyId,
  guestId: number,
): Promise<GuestMetrics | null> {
  const row = await findGuestMetrics(sql, companyId, guestId);
  if (!row) return null;
  const location =
    row.favourite_location_id === null ? null : await getLocation(sql, companyId, row.favourite_location_id);
  return presentGuestMetrics({
    row,
    items: await findFavouriteItems(sql, companyId, guestId),
    favouriteLocationName: location?.name ?? null,
    fit: await findClvFit(sql, companyId),
    prediction: await findGuestPrediction(sql, companyId, guestId),
  });
}
