import { LIMITS } from '../schemas/constants.js';
import {
  EmailTemplateCreateSchema,
  EmailTemplateRenameSchema,
  type EmailTemplateCreate,
  type EmailTemplateRename,
  type EmailTemplateSummary,
} from '../schemas/email-templates.js';
import { createListMachine, type NoFilters } from './kit/list-machine.js';

/** The new-template and rename dialogs as typed: the name, and the starter's MJML (new templates only). */
export interface TemplateForm {
  name: string;
  export_html: string;
}

/** The new-template dialog's starting values: no starter picked yet. */
export const NEW_TEMPLATE_FORM: TemplateForm = { name: '', export_html: '' };

/**
 * /templates: the company's email templates (`/api/campaigns/email-templates/`), 25 to a page, searched by
 * name, on the list kit: "New template" (a name and a starter from the gallery, whose MJML is sent), rename,
 * a confirmed delete, and `item.open`, which announces the template the screen previews.
 */
export const emailTemplatesMachine = createListMachine<
  EmailTemplateSummary,
  TemplateForm,
  NoFilters,
  EmailTemplateCreate,
  EmailTemplateRename
>({
  id: 'emailTemplates',
  pageSize: LIMITS.defaultPageSize,
  searchable: true,
  filters: {},
  form: {
    empty: NEW_TEMPLATE_FORM,
    of: (template) => ({ name: template.name, export_html: '' }),
    create: EmailTemplateCreateSchema,
    update: EmailTemplateRenameSchema,
  },
  openable: true,
});
