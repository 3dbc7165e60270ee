import type {
  SupportEventLog,
  SupportEventLogCreate,
  SupportEventLogCreated,
} from '../../src/schemas/support.js';
import { SUPPORT_LOG_LIMITS } from '../../src/schemas/support.js';
import type { Principal } from '../auth/principal.js';
import type { Database } from '../db/database.js';
import { ApiError, fieldFailure, invalid, notFound } from '../http/errors.js';
import {
  findSupportEventLog,
  insertSupportEventLog,
  listSupportEventLogs,
  type SupportEventLogRow,
} from '../repositories/support-event-logs.repository.js';

/** An email address in clear: the app hashes them, so one in a log means redaction failed. */
const EMAIL_IN_CLEAR = /[A-Za-z0-9._%+-]+@[A-Za-z0-9-]+(\.[A-Za-z0-9-]+)*\.[A-Za-z]{2,}/;

/** A captured log as staff list it: who sent it by name and email (staff only ever see this list). */
export function presentSupportEventLog(row: SupportEventLogRow): SupportEventLog {
  return {
    id: Number(row.id),
    company_id: Number(row.company_id),
    company_name: row.company_name,
    user_id: row.user_id === null ? null : Number(row.user_id),
    user_name: row.user_name,
    user_email: row.user_email,
    actor_user_id: row.actor_user_id === null ? null : Number(row.actor_user_id),
    actor_name: row.actor_name,
    actor_email: row.actor_email,
    created_at: row.created_at.toISOString(),
    entry_count: row.entry_count,
    byte_size: row.byte_size,
  };
}

/** Platform staff signed in as themselves (not acting as a user, not a company token), or 403. */
function requireStaff(principal: Principal): void {
  if (!principal.isStaff || principal.impersonationId !== null || principal.tokenId !== null) {
    throw new ApiError(403, 'staff_only', 'Only platform staff may read captured event logs');
  }
}

/**
 * Refuses a log whose entries are out of order or still hold an email address in clear, naming the
 * entry (`entries.<index>…`, line index + 1 of the JSON Lines).
 */
function checkEntries(entries: SupportEventLogCreate['entries']): void {
  let previous = 0;
  for (const [index, entry] of entries.entries()) {
    if (entry.seq <= previous) {
      throw invalid({
        [`entries.${index}.seq`]: fieldFailure(
          'not_valid',
          `line ${index + 1}: seq must grow (after ${previous})`,
        ),
      });
    }
    previous = entry.seq;
    if (EMAIL_IN_CLEAR.test(JSON.stringify(entry.event))) {
      throw invalid(
        {
          [`entries.${index}.event`]: fieldFailure(
            'not_valid',
            `line ${index + 1}: the event holds an email address in clear`,
          ),
        },
        'The log holds personal data in clear; it was not stored',
      );
    }
  }
}

/** The captured event logs: any company user sends one; platform staff list and download them. */
export interface SupportEventLogsService {
  create(principal: Principal, body: SupportEventLogCreate): Promise<SupportEventLogCreated>;
  list(
    principal: Principal,
    window: { limit: number; offset: number },
  ): Promise<{ count: number; results: SupportEventLog[] }>;
  download(principal: Principal, id: number): Promise<{ log: SupportEventLog; content: string }>;
}

/** The support event-log rules over the database. */
export function supportEventLogsService(db: Database): SupportEventLogsService {
  return {
    async create(principal, body) {
      checkEntries(body.entries);
      const content = body.entries.map((entry) => `${JSON.stringify(entry)}\n`).join('');
      const byteSize = Buffer.byteLength(content, 'utf8');
      if (byteSize > SUPPORT_LOG_LIMITS.maxBytes) {
        throw new ApiError(
          413,
          'log_too_large',
          `The log is ${byteSize} bytes; at most ${SUPPORT_LOG_LIMITS.maxBytes} bytes are accepted`,
        );
      }
      const id = await db.tenant(principal.companyId, (sql) =>
        insertSupportEventLog(sql, principal.companyId, {
          userId: principal.userId,
          actorUserId: principal.actorUserId,
          entryCount: body.entries.length,
          byteSize,
          content,
        }),
      );
      return { id };
    },
    async list(principal, window) {
      requireStaff(principal);
      const { count, rows } = await db.platform((sql) => listSupportEventLogs(sql, window));
      return { count, results: rows.map(presentSupportEventLog) };
    },
    async download(principal, id) {
      requireStaff(principal);
      const row = await db.platform((sql) => findSupportEventLog(sql, id));
      if (!row) throw notFound('Event log');
      return { log: presentSupportEventLog(row), content: row.content };
    },
  };
}
