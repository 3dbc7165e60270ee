import type { Sql } from '../db/database.js';
import { recordAudit } from './audit.repository.js';
import { removeChecksFromCohorts } from './cohort-rollups.repository.js';
import { lockCompanyIngestion } from './pos-ingestion.repository.js';
import { removeChecksFromRollups } from './pos-rollups.repository.js';
import { recountGuests } from './pos.repository.js';
import type { WriteScope } from './scope.js';

/** A check as the POS names it: where, its number, and when it closed. */
export interface CheckIdentity {
  location_id: number;
  check_number: string;
  closed_at: Date;
}

/** What a void did: the places (in the request) of the checks taken away and of those not stored. */
export interface VoidResult {
  voided: number[];
  notFound: number[];
}

/**
 * Takes stored checks away (a void or refund at the till), with their lines, and sets every figure kept with
 * the checks right again: each affected guest's metrics are recounted from the checks they have left. Takes
 * the company's ingestion lock, so a void and a batch that stores the same check never interleave. A check
 * not stored (or another company's) is reported as not found and nothing else changes.
 */
export async function voidChecks(
  sql: Sql,
  scope: WriteScope,
  identities: readonly CheckIdentity[],
): Promise<VoidResult> {
  const companyId = scope.companyId;
  if (identities.length === 0) return { voided: [], notFound: [] };
  await lockCompanyIngestion(sql, companyId);
  const { rows } = await sql.query<{ n: number; id: number; guest_id: number | null }>(
    `SELECT k.n::int AS n, c.id, c.guest_id
     FROM unnest($2::bigint[], $3::text[], $4::timestamptz[]) WITH ORDINALITY AS k(location_id, check_number, closed_at, n)
     JOIN pos_checks c ON c.company_id = $1 AND c.location_id = k.location_id AND c.check_number = k.check_number
                      AND c.closed_at = k.closed_at`,
    [
      companyId,
      identities.map((check) => check.location_id),
      identities.map((check) => check.check_number),
      identities.map((check) => check.closed_at.toISOString()),
    ],
  );
  const found = new Set(rows.map((row) => row.n - 1));
  const checkIds = [...new Set(rows.map((row) => row.id))];
  const guestIds = [...new Set(rows.flatMap((row) => (row.guest_id === null ? [] : [row.guest_id])))];
  if (checkIds.length > 0) {
    // The rollups read the checks as stored, so they are taken out before the checks go.
    await removeChecksFromCohorts(sql, companyId, checkIds);
    await removeChecksFromRollups(sql, companyId, checkIds);
    await sql.query('DELETE FROM pos_checks WHERE company_id = $1 AND id = ANY($2::bigint[])', [
      companyId,
      checkIds,
    ]);
    await recountGuests(sql, companyId, guestIds);
    await recordAudit(sql, scope, {
      action: 'delete',
      entity: 'pos_check_batch',
      entityId: null,
      before: { voided: checkIds.length, check_ids: checkIds },
    });
  }
  const places = identities.map((_, index) => index);
  return {
    voided: places.filter((index) => found.has(index)),
    notFound: places.filter((index) => !found.has(index)),
  };
}
