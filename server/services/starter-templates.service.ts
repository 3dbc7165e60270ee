import type { Sql } from '../db/database.js';
import { ownerLanguage } from '../repositories/account-settings.repository.js';
import { createEmailTemplate } from '../repositories/email-templates.repository.js';
import type { WriteScope } from '../repositories/scope.js';
import { galleryTemplates } from '../templates/gallery.js';
import { renderDesign } from '../templates/render.js';

/**
 * Saves the six starter templates for a company in the caller's transaction (the demo companies get them;
 * any company is offered them in the gallery), in its owner's language, rendered like a template saved in
 * the app; images at `installationUrl`.
 */
export async function createStarterTemplates(
  sql: Sql,
  scope: WriteScope,
  installationUrl: string,
): Promise<void> {
  const language = await ownerLanguage(sql, scope.companyId);
  for (const starter of galleryTemplates(language, installationUrl)) {
    const rendered = await renderDesign(starter.export_html);
    await createEmailTemplate(sql, scope, {
      name: starter.name,
      export_html: starter.export_html,
      html_content: rendered.html,
      text_content: rendered.text,
    });
  }
}
