import type { CompanyId, Sql } from '../db/database.js';
import { recordAudit } from './audit.repository.js';
import { likePattern } from './like-pattern.js';
import type { Page, PageWindow } from './marketing-common.js';
import type { WriteScope } from './scope.js';

/** An email template: the editor's design (`export_html`, MJML source) and the HTML and text rendered from it. */
export interface EmailTemplateRow {
  id: number;
  company_id: number;
  name: string;
  export_html: string;
  html_content: string;
  text_content: string;
  created_by: number | null;
  created_at: Date;
  updated_at: Date;
}

/** The writable fields of a template. */
export interface EmailTemplateFields {
  name: string;
  export_html: string;
  html_content: string;
  text_content: string;
}

/** What creating a template needs: a name, the rest defaults to an empty design. */
export type EmailTemplateInput = Pick<EmailTemplateFields, 'name'> & Partial<EmailTemplateFields>;

/** Filters of the template list. */
export interface EmailTemplateFilter extends PageWindow {
  q?: string | undefined;
}

const SELECT_TEMPLATE = `
  SELECT t.id, t.company_id, t.name, t.export_html, t.html_content, t.text_content, t.created_by, t.created_at,
         t.updated_at
  FROM email_templates t`;

async function selectTemplate(
  sql: Sql,
  companyId: CompanyId,
  id: number,
  lock = false,
): Promise<EmailTemplateRow | null> {
  const { rows } = await sql.query<EmailTemplateRow>(
    `${SELECT_TEMPLATE} WHERE t.company_id = $1 AND t.id = $2${lock ? ' FOR UPDATE' : ''}`,
    [companyId, id],
  );
  return rows[0] ?? null;
}

/** One page of a company's templates by name, optionally searched by name, with the total count. */
export async function listEmailTemplates(
  sql: Sql,
  companyId: CompanyId,
  filter: EmailTemplateFilter,
): Promise<Page<EmailTemplateRow>> {
  const where = 't.company_id = $1 AND ($2::text IS NULL OR t.name ILIKE $2)';
  const params = [companyId, filter.q ? likePattern(filter.q) : null];
  const total = await sql.query<{ count: number }>(
    `SELECT count(*)::int AS count FROM email_templates t WHERE ${where}`,
    params,
  );
  const page = await sql.query<EmailTemplateRow>(
    `${SELECT_TEMPLATE} WHERE ${where} ORDER BY lower(t.name), t.id LIMIT $3 OFFSET $4`,
    [...params, filter.limit, filter.offset],
  );
  return { count: total.rows[0]?.count ?? 0, rows: page.rows };
}

/** One template, or null when it does not exist in this company. */
export function getEmailTemplate(
  sql: Sql,
  companyId: CompanyId,
  id: number,
): Promise<EmailTemplateRow | null> {
  return selectTemplate(sql, companyId, id);
}

/** Creates a template and records it in the audit log. */
export async function createEmailTemplate(
  sql: Sql,
  scope: WriteScope,
  input: EmailTemplateInput,
): Promise<EmailTemplateRow> {
  const { rows } = await sql.query<{ id: number }>(
    `INSERT INTO email_templates (company_id, name, export_html, html_content, text_content, created_by)
     VALUES ($1, $2, $3, $4, $5, $6) RETURNING id`,
    [
      scope.companyId,
      input.name,
      input.export_html ?? '',
      input.html_content ?? '',
      input.text_content ?? '',
      scope.userId,
    ],
  );
  const created = (await selectTemplate(sql, scope.companyId, rows[0]!.id))!;
  await recordAudit(sql, scope, {
    action: 'create',
    entity: 'email_template',
    entityId: created.id,
    after: created,
  });
  return created;
}

/** Changes some fields of a template; null when it does not exist in this company. */
export async function updateEmailTemplate(
  sql: Sql,
  scope: WriteScope,
  id: number,
  changes: Partial<EmailTemplateFields>,
): Promise<EmailTemplateRow | null> {
  const before = await selectTemplate(sql, scope.companyId, id, true);
  if (!before) return null;
  await sql.query(
    `UPDATE email_templates SET name = coalesce($3, name), export_html = coalesce($4, export_html),
            html_content = coalesce($5, html_content), text_content = coalesce($6, text_content),
            updated_at = now()
     WHERE company_id = $1 AND id = $2`,
    [
      scope.companyId,
      id,
      changes.name ?? null,
      changes.export_html ?? null,
      changes.html_content ?? null,
      changes.text_content ?? null,
    ],
  );
  const after = (await selectTemplate(sql, scope.companyId, id))!;
  await recordAudit(sql, scope, {
    action: 'update',
    entity: 'email_template',
    entityId: id,
    before,
    after,
  });
  return after;
}

/** Deletes a template and records it; false when it does not exist in this company. */
export async function deleteEmailTemplate(sql: Sql, scope: WriteScope, id: number): Promise<boolean> {
  const before = await selectTemplate(sql, scope.companyId, id, true);
  if (!before) return false;
  await sql.query('DELETE FROM email_templates WHERE company_id = $1 AND id = $2', [scope.companyId, id]);
  await recordAudit(sql, scope, { action: 'delete', entity: 'email_template', entityId: id, before });
  return true;
}

/** The company's template names (lower-cased) that start with `prefix`, whatever its case: for naming a copy. */
export async function templateNamesStartingWith(
  sql: Sql,
  companyId: CompanyId,
  prefix: string,
): Promise<Set<string>> {
  const { rows } = await sql.query<{ name: string }>(
    'SELECT lower(name) AS name FROM email_templates WHERE company_id = $1 AND starts_with(lower(name), lower($2))',
    [companyId, prefix],
  );
  return new Set(rows.map((row) => row.name));
}

/** True when another template of the company (not `exceptId`) has this name, whatever its case. */
export async function templateNameTaken(
  sql: Sql,
  companyId: CompanyId,
  name: string,
  exceptId: number | null,
): Promise<boolean> {
  const { rows } = await sql.query(
    `SELECT 1 FROM email_templates WHERE company_id = $1 AND lower(name) = lower($2) AND id IS DISTINCT FROM $3`,
    [companyId, name, exceptId],
  );
  return rows.length > 0;
}
