import type { CompanyId, Sql } from '../db/database.js';

/** A captured event log without its content, with the company's name and who sent it (for staff lists). */
export interface SupportEventLogRow {
  id: number;
  company_id: number;
  company_name: string;
  user_id: number | null;
  /** The sender's name (first and last, else their username), or null when the user is gone. */
  user_name: string | null;
  user_email: string | null;
  actor_user_id: number | null;
  /** The staff member acting as the sender when it was sent, if any: their name and email. */
  actor_name: string | null;
  actor_email: string | null;
  created_at: Date;
  entry_count: number;
  byte_size: number;
}

/** A captured event log with its JSON Lines. */
export interface SupportEventLogWithContent extends SupportEventLogRow {
  content: string;
}

const COLUMNS = `l.id, l.company_id, c.name AS company_name,
  l.user_id, coalesce(nullif(btrim(u.first_name || ' ' || u.last_name), ''), u.username) AS user_name,
  u.email AS user_email,
  l.actor_user_id, coalesce(nullif(btrim(a.first_name || ' ' || a.last_name), ''), a.username) AS actor_name,
  a.email AS actor_email,
  l.created_at, l.entry_count, l.byte_size`;

// The sender and the staff member acting as them, who may since have been removed.
const SOURCES = `support_event_logs l JOIN companies c ON c.id = l.company_id
  LEFT JOIN users u ON u.id = l.user_id LEFT JOIN users a ON a.id = l.actor_user_id`;

/** Stores a company's event log (already redacted by the app); answers its id. */
export async function insertSupportEventLog(
  sql: Sql,
  companyId: CompanyId,
  log: {
    userId: number | null;
    actorUserId: number | null;
    entryCount: number;
    byteSize: number;
    content: string;
  },
): Promise<number> {
  const { rows } = await sql.query<{ id: number }>(
    `INSERT INTO support_event_logs (company_id, user_id, actor_user_id, entry_count, byte_size, content)
     VALUES ($1, $2, $3, $4, $5, $6) RETURNING id`,
    [companyId, log.userId, log.actorUserId, log.entryCount, log.byteSize, log.content],
  );
  return Number(rows[0]!.id);
}

/** Every company's captured logs, newest first, one page: platform staff's view across companies. */
export async function listSupportEventLogs(
  sql: Sql,
  window: { limit: number; offset: number },
): Promise<{ count: number; rows: SupportEventLogRow[] }> {
  const total = await sql.query<{ count: number }>('SELECT count(*)::int AS count FROM support_event_logs');
  const { rows } = await sql.query<SupportEventLogRow>(
    `SELECT ${COLUMNS} FROM ${SOURCES}
     ORDER BY l.id DESC LIMIT $1 OFFSET $2`,
    [window.limit, window.offset],
  );
  return { count: total.rows[0]!.count, rows };
}

/** One captured log with its content, from any company (platform staff), or null. */
export async function findSupportEventLog(sql: Sql, id: number): Promise<SupportEventLogWithContent | null> {
  const { rows } = await sql.query<SupportEventLogWithContent>(
    `SELECT ${COLUMNS}, l.content FROM ${SOURCES}
     WHERE l.id = $1`,
    [id],
  );
  return rows[0] ?? null;
}
