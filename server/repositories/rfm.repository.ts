import { sql as rawSql, type RawBuilder } from 'kysely';
import type { CompanyId, Sql } from '../db/database.js';
import { queryBuilder } from '../db/query-builder.js';
import { RFM_CELL_SQL, rfmScores } from './segment-rules/rfm.js';

/**
 * The stored RFM scores (`guest_rfm`, `rfm_scorings`; docs/segments.md, "RFM"): worked out for a company with its
 * CLV refresh, read by the RFM dashboard and the `rfm_cell` rule.
 */

/** When a company's scores were worked out and over how many guests. */
export interface RfmScoring {
  computed_at: Date;
  guests: number;
}

/** One square of the grid over the picked guests; money in cents. */
export interface RfmSquareRow {
  r: number;
  f: number;
  guests: number;
  spend_cents: number;
  m_sum: number;
  clv_cents: number;
  clv_guests: number;
}

async function run<Row>(sql: Sql, statement: RawBuilder<Row>): Promise<Row[]> {
  const compiled = statement.compile(queryBuilder);
  const { rows } = await sql.query<Row>(compiled.sql, compiled.parameters);
  return rows;
}

/** The picker as a condition on `s.guest_id`: guests who visited one of the locations (null: everyone). */
function pickedGuests(companyId: CompanyId, locationIds: readonly number[] | null): RawBuilder<unknown> {
  if (locationIds === null) return rawSql`TRUE`;
  return rawSql`s.guest_id IN (SELECT gl.guest_id FROM guest_locations gl
      WHERE gl.company_id = ${companyId} AND gl.visits > 0 AND gl.location_id = ANY(${[...locationIds]}::bigint[]))`;
}

/**
 * Scores the company's guests with checks again (their spend and last CLV with them) and records when, in the
 * caller's transaction, so readers see the old scores or the new ones; answers how many were scored.
 */
export async function refreshRfmScores(sql: Sql, companyId: CompanyId): Promise<RfmScoring> {
  await sql.query('DELETE FROM guest_rfm WHERE company_id = $1', [companyId]);
  await run(
    sql,
    rawSql`INSERT INTO guest_rfm (company_id, guest_id, r, f, m, spend_cents, clv_cents)
      SELECT ${companyId}, s.guest_id, s.r, s.f, s.m, g.total_spend_cents, p.clv_cents
      FROM (${rfmScores(companyId)}) s
      JOIN guests g ON g.company_id = ${companyId} AND g.id = s.guest_id
      LEFT JOIN guest_predictions p ON p.company_id = ${companyId} AND p.guest_id = s.guest_id`,
  );
  await sql.query('DELETE FROM rfm_squares WHERE company_id = $1', [companyId]);
  // Every location's squares, then each location's over its visitors (a guest counts once per location).
  await sql.query(
    `INSERT INTO rfm_squares (company_id, location_id, r, f, guests, spend_cents, m_sum, clv_cents, clv_guests)
     SELECT $1, NULL, r, f, count(*), sum(spend_cents), sum(m), coalesce(sum(clv_cents), 0), count(clv_cents)
     FROM guest_rfm WHERE company_id = $1 GROUP BY r, f`,
    [companyId],
  );
  await sql.query(
    `INSERT INTO rfm_squares (company_id, location_id, r, f, guests, spend_cents, m_sum, clv_cents, clv_guests)
     SELECT $1, gl.location_id, s.r, s.f, count(*), sum(s.spend_cents), sum(s.m), coalesce(sum(s.clv_cents), 0),
            count(s.clv_cents)
     FROM guest_rfm s JOIN guest_locations gl ON gl.company_id = $1 AND gl.guest_id = s.guest_id AND gl.visits > 0
     WHERE s.company_id = $1 GROUP BY gl.location_id, s.r, s.f`,
    [companyId],
  );
  const { rows } = await sql.query<{ computed_at: Date; guests: number }>(
    `INSERT INTO rfm_scorings (company_id, computed_at, guests)
     VALUES ($1, now(), (SELECT count(*) FROM guest_rfm WHERE company_id = $1))
     ON CONFLICT (company_id) DO UPDATE SET computed_at = EXCLUDED.computed_at, guests = EXCLUDED.guests
     RETURNING computed_at, guests`,
    [companyId],
  );
  return rows[0]!;
}

/** When the company's scores were worked out; null before the first time. */
export async function getRfmScoring(sql: Sql, companyId: CompanyId): Promise<RfmScoring | null> {
  const { rows } = await sql.query<RfmScoring>(
    'SELECT computed_at, guests FROM rfm_scorings WHERE company_id = $1',
    [companyId],
  );
  return rows[0] ?? null;
}

/**
 * The grid's squares over the picked locations' scored guests (null: every location); empty squares left out. Every
 * location or one location reads the squares summed at the scoring; several are summed from the scores now.
 */
export async function rfmSquares(
  sql: Sql,
  companyId: CompanyId,
  locationIds: readonly number[] | null,
): Promise<RfmSquareRow[]> {
  const stored = locationIds === null || locationIds.length === 1;
  const rows = await run<Record<keyof RfmSquareRow, string | number>>(
    sql,
    stored
      ? rawSql`SELECT r, f, guests, spend_cents, m_sum, clv_cents, clv_guests FROM rfm_squares
          WHERE company_id = ${companyId}
            AND ${locationIds === null ? rawSql`location_id IS NULL` : rawSql`location_id = ${locationIds[0]}`}
          ORDER BY r, f`
      : rawSql`SELECT s.r, s.f, count(*) AS guests, sum(s.spend_cents) AS spend_cents, sum(s.m) AS m_sum,
             coalesce(sum(s.clv_cents), 0) AS clv_cents, count(s.clv_cents) AS clv_guests
      FROM guest_rfm s
      WHERE s.company_id = ${companyId} AND ${pickedGuests(companyId, locationIds)}
      GROUP BY s.r, s.f ORDER BY s.r, s.f`,
  );
  // Counts and sums come back as bigint text from PostgreSQL.
  return rows.map((row) => ({
    r: Number(row.r),
    f: Number(row.f),
    guests: Number(row.guests),
    spend_cents: Number(row.spend_cents),
    m_sum: Number(row.m_sum),
    clv_cents: Number(row.clv_cents),
    clv_guests: Number(row.clv_guests),
  }));
}

/** A keyset page of the ids of a cell's scored guests over the picked locations, by id after `afterId`. */
export async function rfmCellGuestIds(
  sql: Sql,
  companyId: CompanyId,
  cell: string,
  locationIds: readonly number[] | null,
  page: { afterId?: number | undefined; limit: number },
): Promise<number[]> {
  const rows = await run<{ guest_id: string | number }>(
    sql,
    rawSql`SELECT s.guest_id FROM guest_rfm s
      WHERE s.company_id = ${companyId} AND s.guest_id > ${page.afterId ?? 0}
        AND ${RFM_CELL_SQL} = ${cell} AND ${pickedGuests(companyId, locationIds)}
      ORDER BY s.guest_id LIMIT ${page.limit}`,
  );
  return rows.map((row) => Number(row.guest_id));
}
