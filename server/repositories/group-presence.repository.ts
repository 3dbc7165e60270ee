import type { CompanyId, Sql } from '../db/database.js';
import { rebuildGroupPresence } from './guest-presence.repository.js';
import { DemoStillSummingError, lockCompanyIngestion } from './pos-ingestion.repository.js';

/**
 * The queue of location groups whose distinct-guest rows (`pos_guest_presence` and `pos_guest_frequency`, scope
 * kind 2) wait to be filled again after their members changed (migration 0046, `location_groups.presence_ready`;
 * docs/dashboards.md "Distinct guests from the presence rollup"). Saving a group only marks it; the worker
 * (server/jobs/group-presence-runner.ts) fills its rows under the company's ingestion lock and marks it ready. Until
 * then the dashboards count the group's guests from the guest-day rows.
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

/** What one turn of the worker did with the group it looked at. */
export type GroupPresenceFill = 'filled' | 'none' | 'busy';

/**
 * Fills the rows of one waiting group, in the caller's (platform) transaction: the company's ingestion lock first,
 * then the group's row (skipped when another transaction holds it: a save in progress, which marks it waiting again,
 * or another worker), the rows, and the mark. Groups of a company whose demo data are still loading wait for it.
 * 'busy' when a group waits but could not be filled now; 'none' when no group waits.
 */
export async function fillOneWaitingGroup(sql: Sql): Promise<GroupPresenceFill> {
  const { rows } = await sql.query<{ id: number; company_id: number }>(
    `SELECT g.id::int AS id, g.company_id::int AS company_id FROM location_groups g
     WHERE NOT g.presence_ready
       AND NOT EXISTS (SELECT 1 FROM demo_loads d
                       WHERE d.company_id = g.company_id AND d.finished_at IS NULL AND d.failure IS NULL)
     ORDER BY g.id LIMIT 1`,
  );
  const waiting = rows[0];
  if (!waiting) return 'none';
  // The same lock order as a group's deletion (ingestion, then the group), so the two never wait on each other.
  try {
    await lockCompanyIngestion(sql, waiting.company_id);
  } catch (error) {
    if (error instanceof DemoStillSummingError) return 'busy';
    throw error;
  }
  const claimed = await sql.query(
    'SELECT 1 FROM location_groups WHERE id = $1 AND NOT presence_ready FOR UPDATE SKIP LOCKED',
    [waiting.id],
  );
  if (claimed.rows.length === 0) return 'busy';
  await rebuildGroupPresence(sql, waiting.company_id, waiting.id);
  await sql.query('UPDATE location_groups SET presence_ready = true WHERE id = $1', [waiting.id]);
  return 'filled';
}
