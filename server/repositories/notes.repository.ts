import type { CompanyId, Sql } from '../db/database.js';
import { recordAudit } from './audit.repository.js';
import { customerColumn, customerExists, type CustomerRef } from './references.js';
import type { WriteScope } from './scope.js';

/** A note written about a subscriber or guest, with its author's name when the author still exists. */
export interface NoteRow {
  id: number;
  company_id: number;
  subscriber_id: number | null;
  guest_id: number | null;
  body: string;
  author_id: number | null;
  author_name: string | null;
  /** The support staff member who wrote it while acting as the author, as named then; null otherwise. */
  written_by_staff_name: string | null;
  created_at: Date;
}

/** The support staff member writing while acting as a company user: their id and display name. */
export interface ActingStaff {
  id: number;
  name: string;
}

/** The notes of a subscriber or guest, newest first; null when that profile is not in this company. */
export async function listNotes(
  sql: Sql,
  companyId: CompanyId,
  owner: CustomerRef,
): Promise<NoteRow[] | null> {
  if (!(await customerExists(sql, companyId, owner))) return null;
  // The column name comes from customerColumn (a closed choice), never from input.
  const { rows } = await sql.query<NoteRow>(
    `SELECT n.id, n.company_id, n.subscriber_id, n.guest_id, n.body, n.author_id, n.written_by_staff_name,
            n.created_at, nullif(btrim(u.first_name || ' ' || u.last_name), '') AS author_name
     FROM notes n
     LEFT JOIN users u ON u.company_id = $1 AND u.id = n.author_id
     WHERE n.company_id = $1 AND n.${customerColumn(owner)} = $2
     ORDER BY n.created_at DESC, n.id DESC`,
    [companyId, owner.id],
  );
  return rows;
}

/**
 * Writes a note about a subscriber or guest as the scope's user, and the staff member acting as them when there
 * is one; null when that profile is not in this company.
 */
export async function createNote(
  sql: Sql,
  scope: WriteScope,
  owner: CustomerRef,
  body: string,
  actingStaff: ActingStaff | null = null,
): Promise<NoteRow | null> {
  if (!(await customerExists(sql, scope.companyId, owner))) return null;
  const { rows } = await sql.query<NoteRow>(
    `INSERT INTO notes (company_id, ${customerColumn(owner)}, body, author_id, written_by_staff_id,
                        written_by_staff_name)
     VALUES ($1, $2, $3, $4, $5, $6)
     RETURNING id, company_id, subscriber_id, guest_id, body, author_id, written_by_staff_name, created_at,
               (SELECT nullif(btrim(u.first_name || ' ' || u.last_name), '') FROM users u
                WHERE u.company_id = $1 AND u.id = $4) AS author_name`,
    [scope.companyId, owner.id, body, scope.userId, actingStaff?.id ?? null, actingStaff?.name ?? null],
  );
  const created = rows[0]!;
  // Names are personal data and the audit row already names both people by id (user_id, actor_user_id).
  const { author_name: _authorName, written_by_staff_name: _staffName, ...recorded } = created;
  await recordAudit(sql, scope, {
    action: 'create',
    entity: 'note',
    entityId: created.id,
    after: recorded,
  });
  return created;
}

/** Deletes all the notes of a subscriber or guest (when the profile itself is deleted). */
export async function deleteNotesAbout(sql: Sql, companyId: CompanyId, owner: CustomerRef): Promise<void> {
  // The column name comes from customerColumn (a closed choice), never from input.
  await sql.query(`DELETE FROM notes WHERE company_id = $1 AND ${customerColumn(owner)} = $2`, [
    companyId,
    owner.id,
  ]);
}
