import type { CompanyId, Sql } from '../db/database.js';
import { recordAudit } from './audit.repository.js';
import type { WriteScope } from './scope.js';

/** The company's CLV settings and the time zone its days are counted in. */
export interface ClvSettingsRow {
  time_zone: string;
  clv_horizon_years: number;
  clv_discount_rate: number;
}

/**
 * One guest's visits as of a calibration day, in the company's time zone: days with a check are visits
 * (several checks on a day are one visit), counted from the first.
 */
export interface GuestVisitHistoryRow {
  guest_id: number;
  visits: number;
  repeat_visits: number;
  first_to_last_days: number;
  first_to_end_days: number;
  spend_cents: number;
  repeat_spend_cents: number;
  /** Visits and spend in the 365 days up to the calibration day. */
  last_year_visits: number;
  last_year_spend_cents: number;
}

/** A company's latest CLV fit. */
export interface ClvFitRow {
  company_id: number;
  method: 'model' | 'historical';
  calibration_end: string;
  guests: number;
  repeat_guests: number;
  r: number | null;
  alpha: number | null;
  a: number | null;
  b: number | null;
  log_likelihood: number | null;
  p: number | null;
  q: number | null;
  gamma: number | null;
  horizon_years: number;
  discount_rate: number;
  fitted_at: Date;
}

/** A fit to store: the row without its company and time. */
export type NewClvFit = Omit<ClvFitRow, 'company_id' | 'fitted_at'>;

/** One guest's predicted figures. */
export interface GuestPredictionRow {
  guest_id: number;
  probability_alive: number | null;
  expected_visits_next_year: number;
  expected_spend_per_visit_cents: number;
  annual_clv_cents: number;
  clv_cents: number;
}

const FIT_COLUMNS = `company_id, method, calibration_end::text AS calibration_end, guests, repeat_guests, r, alpha, a, b,
  log_likelihood, p, q, gamma, horizon_years, discount_rate, fitted_at`;

// Rows written per statement: large enough to be quick, small enough for the parameter arrays.
const WRITE_BATCH = 20_000;

/** The company's CLV settings; null for an unknown company. */
export async function findClvSettings(sql: Sql, companyId: CompanyId): Promise<ClvSettingsRow | null> {
  const { rows } = await sql.query<ClvSettingsRow>(
    'SELECT time_zone, clv_horizon_years, clv_discount_rate FROM companies WHERE id = $1',
    [companyId],
  );
  return rows[0] ?? null;
}

/** Changes the company's CLV horizon and discount rate (audited); the next refresh uses them. A company's row is
 * written through the platform door only (its policy): call it in a platform transaction. */
export async function updateClvSettings(
  sql: Sql,
  scope: WriteScope,
  settings: { horizonYears: number; discountRate: number },
): Promise<ClvSettingsRow> {
  const before = await findClvSettings(sql, scope.companyId);
  const { rows } = await sql.query<ClvSettingsRow>(
    `UPDATE companies SET clv_horizon_years = $2, clv_discount_rate = $3 WHERE id = $1
     RETURNING time_zone, clv_horizon_years, clv_discount_rate`,
    [scope.companyId, settings.horizonYears, settings.discountRate],
  );
  await recordAudit(sql, scope, {
    action: 'update',
    entity: 'clv_settings',
    entityId: scope.companyId,
    before: before && { horizon_years: before.clv_horizon_years, discount_rate: before.clv_discount_rate },
    after: { horizon_years: settings.horizonYears, discount_rate: settings.discountRate },
  });
  return rows[0]!;
}

/**
 * The id of the `count`-th guest of the company after guest `after` (or of its last guest, when fewer follow); null
 * when none follows. Pages `guestVisitHistories` by guest.
 */
export async function guestPageEnd(
  sql: Sql,
  companyId: CompanyId,
  after: number,
  count: number,
): Promise<number | null> {
  const { rows } = await sql.query<{ up_to: number | null }>(
    `SELECT max(id)::bigint AS up_to FROM (
       SELECT id FROM guests WHERE company_id = $1 AND id > $2 ORDER BY id LIMIT $3
     ) page`,
    [companyId, after, count],
  );
  const upTo = rows[0]?.up_to;
  return upTo === null || upTo === undefined ? null : Number(upTo);
}

/**
 * Every guest with a check on or before `calibrationEnd` (YYYY-MM-DD in `timeZone`), by guest id; only the guests
 * with ids in (`guests.after`, `guests.upTo`] when given.
 */
export async function guestVisitHistories(
  sql: Sql,
  companyId: CompanyId,
  calibrationEnd: string,
  timeZone: string,
  guests: { after: number; upTo: number } = { after: 0, upTo: Number.MAX_SAFE_INTEGER },
): Promise<GuestVisitHistoryRow[]> {
  const { rows } = await sql.query<GuestVisitHistoryRow>(
    `WITH days AS (
       SELECT guest_id, (closed_at AT TIME ZONE $3)::date AS day, sum(total_cents)::bigint AS cents
       FROM pos_checks
       WHERE company_id = $1 AND guest_id > $4 AND guest_id <= $5
         AND (closed_at AT TIME ZONE $3)::date <= $2::date
       GROUP BY guest_id, day
     ), numbered AS (
       SELECT guest_id, day, cents, row_number() OVER (PARTITION BY guest_id ORDER BY day) AS n FROM days
     )
     SELECT guest_id, count(*)::int AS visits, (count(*) - 1)::int AS repeat_visits,
            (max(day) - min(day))::int AS first_to_last_days, ($2::date - min(day))::int AS first_to_end_days,
            sum(cents)::bigint AS spend_cents,
            coalesce(sum(cents) FILTER (WHERE n > 1), 0)::bigint AS repeat_spend_cents,
            count(*) FILTER (WHERE day > $2::date - 365)::int AS last_year_visits,
            coalesce(sum(cents) FILTER (WHERE day > $2::date - 365), 0)::bigint AS last_year_spend_cents
     FROM numbered GROUP BY guest_id ORDER BY guest_id`,
    [companyId, calibrationEnd, timeZone, guests.after, guests.upTo],
  );
  return rows;
}

/** Stores the company's fit in place of the last one. */
export async function saveClvFit(sql: Sql, companyId: CompanyId, fit: NewClvFit): Promise<ClvFitRow> {
  const { rows } = await sql.query<ClvFitRow>(
    `INSERT INTO clv_fits (company_id, method, calibration_end, guests, repeat_guests, r, alpha, a, b,
                           log_likelihood, p, q, gamma, horizon_years, discount_rate)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15)
     ON CONFLICT (company_id) DO UPDATE SET
       method = excluded.method, calibration_end = excluded.calibration_end, guests = excluded.guests,
       repeat_guests = excluded.repeat_guests, r = excluded.r, alpha = excluded.alpha, a = excluded.a,
       b = excluded.b, log_likelihood = excluded.log_likelihood, p = excluded.p, q = excluded.q,
       gamma = excluded.gamma, horizon_years = excluded.horizon_years, discount_rate = excluded.discount_rate,
       fitted_at = now()
     RETURNING ${FIT_COLUMNS}`,
    [
      companyId,
      fit.method,
      fit.calibration_end,
      fit.guests,
      fit.repeat_guests,
      fit.r,
      fit.alpha,
      fit.a,
      fit.b,
      fit.log_likelihood,
      fit.p,
      fit.q,
      fit.gamma,
      fit.horizon_years,
      fit.discount_rate,
    ],
  );
  return rows[0]!;
}

/** The company's latest fit; null before the first. */
export async function findClvFit(sql: Sql, companyId: CompanyId): Promise<ClvFitRow | null> {
  const { rows } = await sql.query<ClvFitRow>(`SELECT ${FIT_COLUMNS} FROM clv_fits WHERE company_id = $1`, [
    companyId,
  ]);
  return rows[0] ?? null;
}

// The smallest positive normal value a `real` column holds (FLT_MIN): PostgreSQL refuses a smaller one as out of
// range (22003) rather than rounding it to 0, and a long-gone guest's probability of being alive can be 1e-46.
const SMALLEST_REAL = 1.1754943508222875e-38;

/** A figure as a `real` column can hold it: anything nearer 0 than the smallest normal value is 0. */
function asReal(value: number | null): number | null {
  return value !== null && Math.abs(value) < SMALLEST_REAL ? 0 : value;
}

/** Replaces every prediction of the company with these (guests since deleted are left out), in the caller's transaction. */
export async function replaceGuestPredictions(
  sql: Sql,
  companyId: CompanyId,
  predictions: readonly GuestPredictionRow[],
): Promise<void> {
  await sql.query('DELETE FROM guest_predictions WHERE company_id = $1', [companyId]);
  for (let start = 0; start < predictions.length; start += WRITE_BATCH) {
    const batch = predictions.slice(start, start + WRITE_BATCH);
    await sql.query(
      `INSERT INTO guest_predictions (company_id, guest_id, probability_alive, expected_visits_next_year,
                                      expected_spend_per_visit_cents, annual_clv_cents, clv_cents)
       SELECT $1, u.guest_id, u.alive, u.visits, u.spend, u.annual, u.clv FROM unnest($2::bigint[], $3::real[], $4::real[], $5::int[], $6::bigint[], $7::bigint[])
              AS u(guest_id, alive, visits, spend, annual, clv)
       -- A guest deleted since the histories were read has nothing to predict; the share lock keeps one
       -- deleted while this runs from breaking the insert (the delete waits, or its row is skipped).
       JOIN guests g ON g.company_id = $1 AND g.id = u.guest_id
       FOR KEY SHARE OF g`,
      [
        companyId,
        batch.map((row) => row.guest_id),
        batch.map((row) => asReal(row.probability_alive)),
        batch.map((row) => asReal(row.expected_visits_next_year)),
        batch.map((row) => row.expected_spend_per_visit_cents),
        batch.map((row) => row.annual_clv_cents),
        batch.map((row) => row.clv_cents),
      ],
    );
  }
}

/** One guest's predicted figures; null when there are none (no fit yet, no check, another company). */
export async function findGuestPrediction(
  sql: Sql,
  companyId: CompanyId,
  guestId: number,
): Promise<GuestPredictionRow | null> {
  const { rows } = await sql.query<GuestPredictionRow>(
    `SELECT guest_id, probability_alive, expected_visits_next_year, expected_spend_per_visit_cents,
            annual_clv_cents, clv_cents
     FROM guest_predictions WHERE company_id = $1 AND guest_id = $2`,
    [companyId, guestId],
  );
  return rows[0] ?? null;
}
