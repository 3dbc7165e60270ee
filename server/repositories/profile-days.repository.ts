import type { CompanyId, Sql } from '../db/database.js';

/**
 * The days each guest with a profile (a linked subscriber) came, per location and over the company (migration 0053,
 * `pos_profile_days`; docs/dashboards.md "Demographics"), worked out again from the guests' guest-day rows. Kept with
 * the presence rows (guest-presence.repository.ts); the triggers of migration 0053 keep them when subscribers or a
 * location's zip change.
 */

/** Works the profile rows of some guests (null: every guest of the company) out again from their guest-day rows. */
export async function refreshProfileDays(
  sql: Sql,
  companyId: CompanyId,
  guestIds: readonly number[] | null,
): Promise<void> {
  if (guestIds !== null && guestIds.length === 0) return;
  await sql.query('SELECT pos_profile_days_refresh($1, $2::bigint[])', [companyId, guestIds]);
}

/** Takes the profile rows of guests about to be deleted out for good. */
export async function removeProfileDays(
  sql: Sql,
  companyId: CompanyId,
  guestIds: readonly number[],
): Promise<void> {
  if (guestIds.length === 0) return;
  await sql.query('DELETE FROM pos_profile_days WHERE company_id = $1 AND guest_id = ANY($2::bigint[])', [
    companyId,
    guestIds,
  ]);
}
