import type { CompanyId, Sql } from '../db/database.js';

/**
 * The queue of location groups whose own rows — distinct guests (`pos_guest_presence`, `pos_guest_frequency`,
 * `pos_guest_spread` and `pos_item_presence`, scope kind 2) and cohorts (`group_cohort_rollups`, migration 0047) —
 * wait to be filled again after their members changed (migration 0046, `location_groups.presence_ready`;
 * docs/dashboards.md "Distinct guests from the presence rollup"). Saving a group only marks it; the worker (server/jobs/group-presence-runner.ts)
 * fills its rows and marks it ready. Until then the dashboards count the group's guests from the guest-day rows
 * and its cohorts from the guest months.
 */

/** Marks a group's rows as waiting to be filled again, in the caller's transaction (its members are changing). */
export async function markGroupPresenceWaiting(
  sql: Sql,
  companyId: CompanyId,
  groupId: number,
): Promise<void> {
  await sql.query('UPDATE location_groups SET presence_ready = false WHERE company_id = $1 AND id = $2', [
    companyId,
    groupId,
  ]);
}

/** Whether a group's rows count its members' guests now (false: the worker has yet to fill them). */
export async function groupPresenceReady(sql: Sql, companyId: CompanyId, groupId: number): Promise<boolean> {
  const { rows } = await sql.query<{ ready: boolean }>(
    'SELECT presence_ready AS ready FROM location_groups WHERE company_id = $1 AND id = $2',
    [companyId, groupId],
  );
  return rows[0]?.ready === true;
}

/**
 * The groups waiting for their rows, oldest first (platform transaction). Groups of a company whose demo data are
 * still loading wait for the load, which refuses changes to the company's figures meanwhile.
 */
export async function waitingGroups(sql: Sql): Promise<number[]> {
  const { rows } = await sql.query<{ id: number }>(
    `SELECT g.id::int AS id FROM location_groups g
     WHERE NOT g.presence_ready
       AND NOT EXISTS (SELECT 1 FROM demo_loads d
                       WHERE d.company_id = g.company_id AND d.finished_at IS NULL AND d.failure IS NULL)
     ORDER BY g.id`,
  );
  return rows.map((row) => row.id);
}

/**
 * Claims a waiting group for the caller's (platform) transaction, under its row lock: its company, or null when it
 * is ready meanwhile, gone, or held by another transaction (a save in progress, or another worker's fill).
 */
export async function claimWaitingGroup(sql: Sql, groupId: number): Promise<CompanyId | null> {
  const { rows } = await sql.query<{ company_id: number }>(
    `SELECT company_id::int AS company_id FROM location_groups WHERE id = $1 AND NOT presence_ready
     FOR UPDATE SKIP LOCKED`,
    [groupId],
  );
  return rows[0]?.company_id ?? null;
}

/** Marks a claimed group's rows as filled. */
export async function markGroupPresenceReady(sql: Sql, groupId: number): Promise<void> {
  await sql.query('UPDATE location_groups SET presence_ready = true WHERE id = $1', [groupId]);
}
