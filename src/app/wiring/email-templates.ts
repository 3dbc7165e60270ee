import { concatMap, map } from 'rxjs';
import { emailTemplatesMachine } from '../../machines/email-templates.machine.js';
import type { ListQuery, NoFilters, UpdateRequest } from '../../machines/kit/list-machine.js';
import { templateActionsMachine } from '../../machines/template-actions.machine.js';
import { templateGalleryMachine } from '../../machines/template-gallery.machine.js';
import { templateRestoreMachine } from '../../machines/template-restore.machine.js';
import { templateThumbnailsMachine } from '../../machines/template-thumbnails.machine.js';
import {
  EmailTemplatePageSchema,
  EmailTemplateSchema,
  EmailTemplateSummarySchema,
  GalleryAnswerSchema,
  type EmailTemplate,
  type EmailTemplateCreate,
  type EmailTemplateRename,
  type EmailTemplateSummary,
} from '../../schemas/email-templates.js';
import { apiRequest, apiRequestText } from '../../services/api-client.js';
import { apiCall } from './answer.js';

const TEMPLATES = '/campaigns/email-templates/';

/** /templates' list machine with `/api/campaigns/email-templates/`. */
export const emailTemplatesLogic = emailTemplatesMachine.provide({
  actors: {
    loadList: apiCall((query: ListQuery<NoFilters>) =>
      apiRequest({ method: 'GET', path: TEMPLATES, query: { ...query }, schema: EmailTemplatePageSchema }),
    ),
    createItem: apiCall((template: EmailTemplateCreate) =>
      // The list holds summaries: the created template's design and HTML are not kept.
      apiRequest({ method: 'POST', path: TEMPLATES, body: template, schema: EmailTemplateSummarySchema }),
    ),
    updateItem: apiCall(({ item, changes }: UpdateRequest<EmailTemplateSummary, EmailTemplateRename>) =>
      apiRequest({
        method: 'PUT',
        path: `${TEMPLATES}${item.id}/`,
        body: changes,
        schema: EmailTemplateSummarySchema,
      }),
    ),
    // The template is read first: its name and design are what Undo makes it again from.
    deleteItem: apiCall((template: EmailTemplateSummary) =>
      apiRequest({ method: 'GET', path: `${TEMPLATES}${template.id}/`, schema: EmailTemplateSchema }).pipe(
        concatMap((full) =>
          apiRequest({ method: 'DELETE', path: `${TEMPLATES}${template.id}/` }).pipe(
            map((): unknown => full),
          ),
        ),
      ),
    ),
  },
});

/** The starter gallery with `…/email-templates/gallery/` (in the user's language). */
export const templateGalleryLogic = templateGalleryMachine.provide({
  actors: {
    loadGallery: apiCall(() =>
      apiRequest({ method: 'GET', path: `${TEMPLATES}gallery/`, schema: GalleryAnswerSchema }).pipe(
        map((answer) => answer.results),
      ),
    ),
  },
});

/** A template's preview (`…/{id}/preview/`, HTML) and copy (`…/{id}/duplicate/`). */
export const templateActionsLogic = templateActionsMachine.provide({
  actors: {
    loadPreview: apiCall((template: EmailTemplateSummary) =>
      apiRequestText({ method: 'GET', path: `${TEMPLATES}${template.id}/preview/` }, 'text/html'),
    ),
    duplicateTemplate: apiCall((template: EmailTemplateSummary) =>
      apiRequest({
        method: 'POST',
        path: `${TEMPLATES}${template.id}/duplicate/`,
        schema: EmailTemplateSchema,
      }),
    ),
  },
});

/** The list's thumbnails: each template's preview HTML (`…/{id}/preview/`), one at a time. */
export const templateThumbnailsLogic = templateThumbnailsMachine.provide({
  actors: {
    loadThumbnail: apiCall((id: number) =>
      apiRequestText({ method: 'GET', path: `${TEMPLATES}${id}/preview/` }, 'text/html'),
    ),
  },
});

/** The deleted template a delete call answered (read before it went), or null when it answered none. */
export function deletedTemplateOf(answer: unknown): EmailTemplate | null {
  const parsed = EmailTemplateSchema.safeParse(answer);
  return parsed.success ? parsed.data : null;
}

/** Undo after a delete: the template made again (`POST …/email-templates/`) from its name and design. */
export const templateRestoreLogic = templateRestoreMachine.provide({
  actors: {
    restoreTemplate: apiCall((template: EmailTemplate) =>
      apiRequest({
        method: 'POST',
        path: TEMPLATES,
        body: { name: template.name, export_html: template.export_html },
        schema: EmailTemplateSchema,
      }),
    ),
  },
});
