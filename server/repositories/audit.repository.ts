import type { CompanyId, Sql } from '../db/database.js';
import { redactPersonalData } from '../privacy.js';
import type { WriteScope } from './scope.js';

/** One change as recorded. */
export interface AuditEntry {
  action: 'create' | 'update' | 'delete';
  entity: string;
  entityId: string | number | null;
  before?: unknown;
  after?: unknown;
}

/** A row of the audit log. */
export interface AuditRow {
  id: number;
  company_id: number;
  user_id: number | null;
  actor_user_id: number | null;
  action: string;
  entity: string;
  entity_id: string | null;
  before: unknown;
  after: unknown;
  at: Date;
}

/**
 * Appends a change to the audit log inside the caller's transaction, so the change and its record
 * commit or fail together. Personal values are fingerprinted first.
 */
export async function recordAudit(sql: Sql, scope: WriteScope, entry: AuditEntry): Promise<void> {
  await sql.query(
    `INSERT INTO audit_log (company_id, user_id, actor_user_id, action, entity, entity_id, before, after)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`,
    [
      scope.companyId,
      scope.userId,
      scope.actorUserId,
      entry.action,
      entry.entity,
      entry.entityId === null ? null : String(entry.entityId),
      entry.before === undefined ? null : JSON.stringify(redactPersonalData(entry.before)),
      entry.after === undefined ? null : JSON.stringify(redactPersonalData(entry.after)),
    ],
  );
}

/** The newest audit entries of a company, optionally for one entity. */
export async function listAudit(
  sql: Sql,
  companyId: CompanyId,
  filter: { entity?: string; entityId?: string | number; limit?: number } = {},
): Promise<AuditRow[]> {
  const { rows } = await sql.query<AuditRow>(
    `SELECT id, company_id, user_id, actor_user_id, action, entity, entity_id, before, after, at
     FROM audit_log
     WHERE company_id = $1 AND ($2::text IS NULL OR entity = $2) AND ($3::text IS NULL OR entity_id = $3)
     ORDER BY id DESC LIMIT $4`,
    [
      companyId,
      filter.entity ?? null,
      filter.entityId === undefined ? null : String(filter.entityId),
      filter.limit ?? 100,
    ],
  );
  return rows;
}
