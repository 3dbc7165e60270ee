import {
  MERGE_TAGS,
  type EmailTemplate,
  type EmailTemplateCreate,
  type EmailTemplateSummary,
  type EmailTemplateUpdate,
  type GalleryTemplate,
} from '../../src/schemas/email-templates.js';
import type { Language } from '../../src/schemas/constants.js';
import { messagesFor } from '../../src/i18n/resources.js';
import type { Database, Sql } from '../db/database.js';
import { fieldFailure, invalid, notFound } from '../http/errors.js';
import { getAccountSettings, ownerLanguage } from '../repositories/account-settings.repository.js';
import {
  createEmailTemplate,
  deleteEmailTemplate,
  getEmailTemplate,
  listEmailTemplates,
  templateNameTaken,
  templateNamesStartingWith,
  updateEmailTemplate,
  type EmailTemplateRow,
} from '../repositories/email-templates.repository.js';
import type { WriteScope } from '../repositories/scope.js';
import { galleryTemplates } from '../templates/gallery.js';
import { DesignProblem, fillMergeTags, renderDesign, type RenderedTemplate } from '../templates/render.js';

/** A template row as the API answers it. */
export function presentEmailTemplate(row: EmailTemplateRow): EmailTemplate {
  return {
    id: row.id,
    name: row.name,
    export_html: row.export_html,
    html_content: row.html_content,
    text_content: row.text_content,
    created_at: row.created_at.toISOString(),
    updated_at: row.updated_at.toISOString(),
  };
}

/** A template row as the list shows it. */
function presentSummary(row: EmailTemplateRow): EmailTemplateSummary {
  return {
    id: row.id,
    name: row.name,
    created_at: row.created_at.toISOString(),
    updated_at: row.updated_at.toISOString(),
  };
}

/** Renders a design, a problem in it answered as a 400 naming `export_html`. */
async function renderOrRefuse(design: string): Promise<RenderedTemplate> {
  try {
    return await renderDesign(design);
  } catch (error) {
    if (error instanceof DesignProblem)
      throw invalid({ export_html: fieldFailure('not_valid', error.message) });
    throw error;
  }
}

/** Refuses a name another template of the company has (whatever its case) with a 400 naming `name`. */
async function assertNameFree(sql: Sql, companyId: number, name: string, exceptId: number | null) {
  if (await templateNameTaken(sql, companyId, name, exceptId))
    throw invalid({ name: fieldFailure('in_use', `A template named "${name}" already exists`) });
}

/** The language of the person acting (their account's, else the company owner's). */
async function callerLanguage(
  sql: Sql,
  scope: { companyId: number; userId: number | null },
): Promise<Language> {
  const settings =
    scope.userId === null ? null : await getAccountSettings(sql, scope.companyId, scope.userId);
  return settings?.language ?? (await ownerLanguage(sql, scope.companyId));
}

/** "Name (copy)", or "Name (copy 2)", "(copy 3)" … when taken, in `language`. */
async function copyName(sql: Sql, companyId: number, name: string, language: Language): Promise<string> {
  const texts = messagesFor(language).emailTemplateStarters.common;
  const taken = await templateNamesStartingWith(sql, companyId, name);
  for (let number = 1; ; number++) {
    const candidate = (number === 1 ? texts.copy_name : texts.copy_name_numbered)
      .replace('{{name}}', name)
      .replace('{{number}}', String(number));
    if (!taken.has(candidate.toLowerCase())) return candidate;
  }
}

/** Email templates (docs/templates.md): list, read, create and update (rendering the design), duplicate, delete. */
export function emailTemplatesService(db: Database, installationUrl: string) {
  return {
    async list(companyId: number, filter: { q?: string | undefined; limit: number; offset: number }) {
      const { count, rows } = await db.tenant(companyId, (sql) => listEmailTemplates(sql, companyId, filter));
      return { count, results: rows.map(presentSummary) };
    },
    async get(companyId: number, id: number): Promise<EmailTemplate> {
      const row = await db.tenant(companyId, (sql) => getEmailTemplate(sql, companyId, id));
      if (!row) throw notFound('Email template');
      return presentEmailTemplate(row);
    },
    async create(scope: WriteScope, input: EmailTemplateCreate): Promise<EmailTemplate> {
      const rendered = await renderOrRefuse(input.export_html);
      const row = await db.tenant(scope.companyId, async (sql) => {
        await assertNameFree(sql, scope.companyId, input.name, null);
        return createEmailTemplate(sql, scope, {
          name: input.name,
          export_html: input.export_html,
          html_content: rendered.html,
          text_content: rendered.text,
        });
      });
      return presentEmailTemplate(row);
    },
    async update(scope: WriteScope, id: number, changes: EmailTemplateUpdate): Promise<EmailTemplate> {
      // An id not of this company answers 404 whatever the design holds, as every other call does.
      if (!(await db.tenant(scope.companyId, (sql) => getEmailTemplate(sql, scope.companyId, id))))
        throw notFound('Email template');
      // Rendered outside the transaction: mjml is CPU work that should not hold a connection.
      const rendered = changes.export_html === undefined ? null : await renderOrRefuse(changes.export_html);
      const row = await db.tenant(scope.companyId, async (sql) => {
        if (changes.name !== undefined) await assertNameFree(sql, scope.companyId, changes.name, id);
        return updateEmailTemplate(sql, scope, id, {
          ...(changes.name === undefined ? {} : { name: changes.name }),
          ...(changes.export_html === undefined || !rendered
            ? {}
            : { export_html: changes.export_html, html_content: rendered.html, text_content: rendered.text }),
        });
      });
      if (!row) throw notFound('Email template');
      return presentEmailTemplate(row);
    },
    async remove(scope: WriteScope, id: number): Promise<void> {
      if (!(await db.tenant(scope.companyId, (sql) => deleteEmailTemplate(sql, scope, id))))
        throw notFound('Email template');
    },
    /** A copy under "… (copy)" in the caller's language; 404 unless the company's. */
    async duplicate(scope: WriteScope, id: number): Promise<EmailTemplate> {
      const row = await db.tenant(scope.companyId, async (sql) => {
        const original = await getEmailTemplate(sql, scope.companyId, id);
        if (!original) return null;
        const name = await copyName(sql, scope.companyId, original.name, await callerLanguage(sql, scope));
        return createEmailTemplate(sql, scope, {
          name,
          export_html: original.export_html,
          html_content: original.html_content,
          text_content: original.text_content,
        });
      });
      if (!row) throw notFound('Email template');
      return presentEmailTemplate(row);
    },
    /** The rendered HTML with the catalogue's sample values, for the app's preview. */
    async preview(companyId: number, id: number): Promise<string> {
      const template = await this.get(companyId, id);
      return fillMergeTags(template.html_content, MERGE_TAGS);
    },
    /** The six starters in `language`, or in the caller's own language. */
    async gallery(scope: WriteScope, language: Language | undefined): Promise<GalleryTemplate[]> {
      const chosen = language ?? (await db.tenant(scope.companyId, (sql) => callerLanguage(sql, scope)));
      return galleryTemplates(chosen, installationUrl);
    },
  };
}

/** The template service's type, for routes. */
export type EmailTemplatesService = ReturnType<typeof emailTemplatesService>;
