import type { CompanyId, Sql } from '../db/database.js';
import { recordAudit } from './audit.repository.js';
import { isUniqueViolation } from './references.js';
import type { WriteScope } from './scope.js';

/** An address campaigns are sent from. At most one per company is the default. */
export interface EmailSenderRow {
  id: number;
  company_id: number;
  name: string;
  email: string;
  reply_to: string;
  is_default: boolean;
  verified_at: Date | null;
  created_at: Date;
}

/** The writable fields of a sender. */
export interface EmailSenderFields {
  name: string;
  email: string;
  reply_to: string;
  is_default: boolean;
}

/** What creating a sender needs; without `is_default` the company's first sender becomes the default. */
export type EmailSenderInput = Pick<EmailSenderFields, 'name' | 'email'> & Partial<EmailSenderFields>;

/** Raised when the company already has a sender with this address, whatever its case. */
export class DuplicateSenderEmailError extends Error {
  constructor(readonly email: string) {
    super('This company already has a sender with that email address');
    this.name = 'DuplicateSenderEmailError';
  }
}

const COLUMNS = 'id, company_id, name, email, reply_to, is_default, verified_at, created_at';

async function selectSender(
  sql: Sql,
  companyId: CompanyId,
  id: number,
  lock = false,
): Promise<EmailSenderRow | null> {
  const { rows } = await sql.query<EmailSenderRow>(
    `SELECT ${COLUMNS} FROM email_senders WHERE company_id = $1 AND id = $2${lock ? ' FOR UPDATE' : ''}`,
    [companyId, id],
  );
  return rows[0] ?? null;
}

async function assertEmailFree(
  sql: Sql,
  companyId: CompanyId,
  email: string,
  exceptId: number | null,
): Promise<void> {
  const { rows } = await sql.query(
    'SELECT 1 FROM email_senders WHERE company_id = $1 AND lower(email) = lower($2) AND id <> coalesce($3, 0)',
    [companyId, email, exceptId],
  );
  if (rows.length > 0) throw new DuplicateSenderEmailError(email);
}

async function clearOtherDefaults(sql: Sql, companyId: CompanyId, keepId: number | null): Promise<void> {
  await sql.query(
    'UPDATE email_senders SET is_default = false WHERE company_id = $1 AND is_default AND id <> coalesce($2, 0)',
    [companyId, keepId],
  );
}

/** Turns a race lost on the unique address index into the same typed error as the check. */
async function translateDuplicate<T>(email: string, work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (isUniqueViolation(error, 'email_senders_email')) throw new DuplicateSenderEmailError(email);
    throw error;
  }
}

/** The company's senders, the default first, then by name. */
export async function listEmailSenders(sql: Sql, companyId: CompanyId): Promise<EmailSenderRow[]> {
  const { rows } = await sql.query<EmailSenderRow>(
    `SELECT ${COLUMNS} FROM email_senders WHERE company_id = $1 ORDER BY is_default DESC, lower(name), id`,
    [companyId],
  );
  return rows;
}

/** One sender, or null when it does not exist in this company. */
export function getEmailSender(sql: Sql, companyId: CompanyId, id: number): Promise<EmailSenderRow | null> {
  return selectSender(sql, companyId, id);
}

/**
 * Creates a sender. Making it the default takes the mark from the previous default; the company's first sender
 * is the default unless told otherwise. Throws DuplicateSenderEmailError for an address already used.
 */
export async function createEmailSender(
  sql: Sql,
  scope: WriteScope,
  input: EmailSenderInput,
): Promise<EmailSenderRow> {
  const email = input.email.trim();
  return translateDuplicate(email, async () => {
    await assertEmailFree(sql, scope.companyId, email, null);
    const hasDefault = await sql.query('SELECT 1 FROM email_senders WHERE company_id = $1 AND is_default', [
      scope.companyId,
    ]);
    const isDefault = input.is_default ?? hasDefault.rows.length === 0;
    if (isDefault) await clearOtherDefaults(sql, scope.companyId, null);
    const { rows } = await sql.query<EmailSenderRow>(
      `INSERT INTO email_senders (company_id, name, email, reply_to, is_default)
         VALUES ($1, $2, $3, $4, $5) RETURNING ${COLUMNS}`,
      [scope.companyId, input.name, email, input.reply_to?.trim() ?? '', isDefault],
    );
    const created = rows[0]!;
    await recordAudit(sql, scope, {
      action: 'create',
      entity: 'email_sender',
      entityId: created.id,
      after: created,
    });
    return created;
  });
}

/**
 * Changes some fields of a sender; `is_default: true` takes the mark from the previous default. Null when it
 * does not exist in this company; DuplicateSenderEmailError for an address already used.
 */
export async function updateEmailSender(
  sql: Sql,
  scope: WriteScope,
  id: number,
  changes: Partial<EmailSenderFields>,
): Promise<EmailSenderRow | null> {
  const email = changes.email?.trim();
  return translateDuplicate(email ?? '', async () => {
    const before = await selectSender(sql, scope.companyId, id, true);
    if (!before) return null;
    if (email !== undefined) await assertEmailFree(sql, scope.companyId, email, id);
    if (changes.is_default === true) await clearOtherDefaults(sql, scope.companyId, id);
    const { rows } = await sql.query<EmailSenderRow>(
      `UPDATE email_senders SET name = coalesce($3, name), email = coalesce($4, email),
                reply_to = coalesce($5, reply_to), is_default = coalesce($6, is_default),
                -- A new address has not been verified yet.
                verified_at = CASE WHEN $4::text IS NULL OR lower($4) = lower(email) THEN verified_at END
         WHERE company_id = $1 AND id = $2 RETURNING ${COLUMNS}`,
      [
        scope.companyId,
        id,
        changes.name ?? null,
        email ?? null,
        changes.reply_to?.trim() ?? null,
        changes.is_default ?? null,
      ],
    );
    const after = rows[0]!;
    await recordAudit(sql, scope, {
      action: 'update',
      entity: 'email_sender',
      entityId: id,
      before,
      after,
    });
    return after;
  });
}

/**
 * Marks a sender's address verified (a verification link was followed). Verifying again keeps the first time.
 * Null when it does not exist in this company.
 */
export async function markEmailSenderVerified(
  sql: Sql,
  scope: WriteScope,
  id: number,
): Promise<EmailSenderRow | null> {
  const before = await selectSender(sql, scope.companyId, id, true);
  if (!before) return null;
  if (before.verified_at) return before;
  const { rows } = await sql.query<EmailSenderRow>(
    `UPDATE email_senders SET verified_at = now() WHERE company_id = $1 AND id = $2 RETURNING ${COLUMNS}`,
    [scope.companyId, id],
  );
  const after = rows[0]!;
  await recordAudit(sql, scope, { action: 'update', entity: 'email_sender', entityId: id, before, after });
  return after;
}

/**
 * Deletes a sender; when it was the default, the oldest remaining sender becomes the default. False when it
 * does not exist in this company.
 */
export async function deleteEmailSender(sql: Sql, scope: WriteScope, id: number): Promise<boolean> {
  const before = await selectSender(sql, scope.companyId, id, true);
  if (!before) return false;
  await sql.query('DELETE FROM email_senders WHERE company_id = $1 AND id = $2', [scope.companyId, id]);
  await recordAudit(sql, scope, { action: 'delete', entity: 'email_sender', entityId: id, before });
  if (before.is_default) {
    const { rows } = await sql.query<EmailSenderRow>(
      `UPDATE email_senders SET is_default = true
       WHERE company_id = $1 AND id = (SELECT min(id) FROM email_senders WHERE company_id = $1)
       RETURNING ${COLUMNS}`,
      [scope.companyId],
    );
    const promoted = rows[0];
    if (promoted) {
      await recordAudit(sql, scope, {
        action: 'update',
        entity: 'email_sender',
        entityId: promoted.id,
        before: { ...promoted, is_default: false },
        after: promoted,
      });
    }
  }
  return true;
}
