import { z } from 'zod';
import { PagingQuerySchema, pageOf, requiredName } from './common.js';

/**
 * Email templates (spec §3 "Email template", §7 `/campaigns/email-templates/`; docs/templates.md): the editor's
 * MJML design (`export_html`), the email HTML the server renders from it (`html_content`) and its plain text
 * (`text_content`), and the merge tags a design may use.
 */

/**
 * The blank page (served by the app, with a policy that allows inline styles) that the template editor's canvas
 * and the templates' thumbnails are framed in.
 */
export const EMAIL_FRAME_PATH = '/email-frame';

/** The social networks whose icons the installation serves at `/email-images/placeholders/<network>.png`. */
export const SOCIAL_NETWORKS = ['facebook', 'instagram', 'x', 'tiktok'] as const;

/** Limits of templates and their images. */
export const TEMPLATE_LIMITS = {
  /** The MJML source of one design, in characters (a long newsletter is ~30 000). */
  designMaxLength: 500_000,
  /** One uploaded image, in bytes. */
  imageMaxBytes: 2 * 1024 * 1024,
} as const;

/**
 * The merge tags a template may use, each with the sample value the preview shows. The sender fills them per
 * recipient (escaping every value) and the editor's picker offers them; any other `{{tag}}` is refused on save.
 */
export const MERGE_TAGS = {
  first_name: 'Alex',
  last_name: 'Morgan',
  email: 'alex.morgan@example.com',
  location_name: 'Harbor & Vine Downtown',
  company_name: 'Harbor & Vine Restaurant Group',
  company_address: '100 Harbor Street, Portland, OR 97201',
  unsubscribe_url: '#unsubscribe',
  view_in_browser_url: '#view-in-browser',
  current_year: '2026',
} as const satisfies Record<string, string>;

/** One merge tag's name (`first_name` for `{{first_name}}`). */
export type MergeTag = keyof typeof MERGE_TAGS;

/** Every merge tag's name, in the picker's order. */
export const MERGE_TAG_NAMES = Object.keys(MERGE_TAGS) as MergeTag[];

/** A `{{ tag }}` in a design: the name in group 1 (spaces inside the braces allowed). */
export const MERGE_TAG_PATTERN = /\{\{\s*([^{}\s]*)\s*\}\}/g;

/** True for a merge tag the catalogue knows. */
export function isMergeTag(name: string): name is MergeTag {
  return Object.hasOwn(MERGE_TAGS, name);
}

/** The tags of `text` that are not in the catalogue, each once, in order of appearance. */
export function unknownMergeTags(text: string): string[] {
  const unknown = new Set<string>();
  for (const match of text.matchAll(MERGE_TAG_PATTERN)) if (!isMergeTag(match[1]!)) unknown.add(match[1]!);
  return [...unknown];
}

/** A template as the API answers it. */
export const EmailTemplateSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  export_html: z.string(),
  html_content: z.string(),
  text_content: z.string(),
  created_at: z.string(),
  updated_at: z.string(),
});
/** A template as the API answers it. */
export type EmailTemplate = z.infer<typeof EmailTemplateSchema>;

/** A template in the list: without its (large) design and HTML. */
export const EmailTemplateSummarySchema = EmailTemplateSchema.pick({
  id: true,
  name: true,
  created_at: true,
  updated_at: true,
});
/** A template in the list. */
export type EmailTemplateSummary = z.infer<typeof EmailTemplateSummarySchema>;

/** A page of templates. */
export const EmailTemplatePageSchema = pageOf(EmailTemplateSummarySchema);

/** `?page=&page_size=&q=` of the template list (`q` searches the name). */
export const EmailTemplateListQuerySchema = PagingQuerySchema.extend({
  q: z.string().trim().max(200, 'q is too long').optional(),
});

/** The MJML design of a template. */
const DesignSchema = z
  .string({ error: 'export_html is required' })
  .min(1, 'export_html is required')
  .max(
    TEMPLATE_LIMITS.designMaxLength,
    `export_html must be at most ${TEMPLATE_LIMITS.designMaxLength} characters`,
  );

/** What creating a template takes: a name and its MJML design (the HTML and text are rendered from it). */
export const EmailTemplateCreateSchema = z.object({
  name: requiredName('Name'),
  export_html: DesignSchema,
});
/** What creating a template takes. */
export type EmailTemplateCreate = z.infer<typeof EmailTemplateCreateSchema>;

/** What updating a template takes: its name, its design, or both. */
export const EmailTemplateUpdateSchema = z.object({
  name: requiredName('Name').optional(),
  export_html: DesignSchema.optional(),
});
/** What updating a template takes. */
export type EmailTemplateUpdate = z.infer<typeof EmailTemplateUpdateSchema>;

/** The keys of the starter gallery's six templates. */
export const GALLERY_KEYS = ['welcome', 'win_back', 'birthday', 'new_menu', 'event', 'newsletter'] as const;
/** One starter template's key. */
export type GalleryKey = (typeof GALLERY_KEYS)[number];

/** A starter template of the gallery, named and written in the caller's language. */
export const GalleryTemplateSchema = z.object({
  key: z.enum(GALLERY_KEYS),
  name: z.string(),
  description: z.string(),
  export_html: z.string(),
});
/** A starter template of the gallery. */
export type GalleryTemplate = z.infer<typeof GalleryTemplateSchema>;

/** The gallery answer. */
export const GalleryAnswerSchema = z.object({ results: z.array(GalleryTemplateSchema) });

/** An uploaded email image: its public address, usable in any email. */
export const EmailImageSchema = z.object({
  id: z.string(),
  url: z.string(),
  content_type: z.string(),
  byte_size: z.number().int(),
});
/** An uploaded email image. */
export type EmailImage = z.infer<typeof EmailImageSchema>;

/** `?language=` of the gallery (the caller's own language when left out). */
export const GalleryQuerySchema = z.object({
  language: z.enum(['en', 'ch', 'es', 'jp', 'de', 'fr']).optional(),
});

/** The rename dialog of the templates screen: the name alone (the design changes in the editor). */
export const EmailTemplateRenameSchema = z.object({ name: requiredName('Name') });
/** The rename dialog's checked input. */
export type EmailTemplateRename = z.infer<typeof EmailTemplateRenameSchema>;
