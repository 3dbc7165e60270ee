import type { Sql } from '../db/database.js';
import { recordAudit } from './audit.repository.js';
import type { WriteScope } from './scope.js';

/** An uploaded email image, without its bytes. */
export interface EmailImageRow {
  id: number;
  public_id: string;
  content_type: string;
  byte_size: number;
  created_at: Date;
}

/** An image's bytes and type, as served to email clients. */
export interface EmailImageFile {
  content_type: string;
  bytes: Buffer;
}

/** What storing an image takes. */
export interface EmailImageInput {
  public_id: string;
  content_type: string;
  bytes: Buffer;
}

/** Stores an image of the company and records it in the audit log (without its bytes). */
export async function createEmailImage(
  sql: Sql,
  scope: WriteScope,
  input: EmailImageInput,
): Promise<EmailImageRow> {
  const { rows } = await sql.query<EmailImageRow>(
    `INSERT INTO email_images (company_id, public_id, content_type, byte_size, bytes, created_by)
     VALUES ($1, $2, $3, $4, $5, $6)
     RETURNING id, public_id, content_type, byte_size, created_at`,
    [scope.companyId, input.public_id, input.content_type, input.bytes.length, input.bytes, scope.userId],
  );
  const created = rows[0]!;
  await recordAudit(sql, scope, {
    action: 'create',
    entity: 'email_image',
    entityId: created.id,
    after: created,
  });
  return created;
}

/** Deletes an image of the company by its public id; false when the company has none with it. */
export async function deleteEmailImage(sql: Sql, scope: WriteScope, publicId: string): Promise<boolean> {
  const { rows } = await sql.query<EmailImageRow>(
    `DELETE FROM email_images WHERE company_id = $1 AND public_id = $2
     RETURNING id, public_id, content_type, byte_size, created_at`,
    [scope.companyId, publicId],
  );
  const before = rows[0];
  if (!before) return false;
  await recordAudit(sql, scope, { action: 'delete', entity: 'email_image', entityId: before.id, before });
  return true;
}

/**
 * An image's bytes by its public id, whatever the company: email clients fetch it without signing in, and the
 * unguessable id (128 random bits) is the only key. Run on the platform door (docs/templates.md).
 */
export async function findEmailImageFile(sql: Sql, publicId: string): Promise<EmailImageFile | null> {
  const { rows } = await sql.query<EmailImageFile>(
    'SELECT content_type, bytes FROM email_images WHERE public_id = $1',
    [publicId],
  );
  const row = rows[0];
  return row ? { content_type: row.content_type, bytes: Buffer.from(row.bytes) } : null;
}
