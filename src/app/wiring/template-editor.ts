import { catchError, forkJoin, map, of } from 'rxjs';
import {
  templateEditorMachine,
  type EditorLocation,
  type EditorMenuItem,
  type TemplateEditorInput,
  type TemplateSave,
} from '../../machines/template-editor.machine.js';
import { LIMITS } from '../../schemas/constants.js';
import { EmailTemplateSchema, GalleryAnswerSchema } from '../../schemas/email-templates.js';
import type { Location } from '../../schemas/locations.js';
import { MenuItemPageSchema } from '../../schemas/pos-analytics.js';
import { apiRequest } from '../../services/api-client.js';
import { uploadEmailImage } from '../../services/image-upload.js';
import { apiCall } from './answer.js';
import { everyLocation } from './locations.js';

const TEMPLATES = '/campaigns/email-templates/';

/** A location's address on one line, as the location block prints it. */
function addressOf(location: Location): string {
  const cityLine = [location.city, [location.state, location.zip].filter(Boolean).join(' ')]
    .filter(Boolean)
    .join(', ');
  return [location.street, cityLine].filter(Boolean).join(', ');
}

/**
 * The company's active menu items with their prices (`GET /pos/menu-item/`, one page of the largest size). A
 * company without the menu's feature gets no menu-item blocks rather than no editor.
 */
function menuItems() {
  return apiRequest({
    method: 'GET',
    path: '/pos/menu-item/',
    query: { page_size: LIMITS.maxPageSize },
    schema: MenuItemPageSchema,
  }).pipe(
    map((page): EditorMenuItem[] =>
      page.results
        .filter((item) => item.is_active)
        .map((item) => ({ id: item.id, name: item.name, price: item.price })),
    ),
    catchError(() => of([])),
  );
}

/** The template editor with its calls: the template, menu, locations and gallery; save; image upload. */
export const templateEditorLogic = templateEditorMachine.provide({
  actors: {
    loadEditor: apiCall(({ id }: TemplateEditorInput) =>
      forkJoin({
        template:
          id === null
            ? of(null)
            : apiRequest({ method: 'GET', path: `${TEMPLATES}${id}/`, schema: EmailTemplateSchema }),
        menuItems: menuItems(),
        locations: everyLocation().pipe(
          map((page): EditorLocation[] =>
            page.results.map((location) => ({
              id: location.id,
              name: location.name,
              address: addressOf(location),
            })),
          ),
        ),
        gallery: apiRequest({ method: 'GET', path: `${TEMPLATES}gallery/`, schema: GalleryAnswerSchema }),
      }).pipe(
        map(({ template, menuItems, locations, gallery }) => ({
          template,
          catalogue: { menuItems, locations, starters: gallery.results },
        })),
      ),
    ),
    saveTemplate: apiCall(({ id, template }: TemplateSave) =>
      id === null
        ? apiRequest({ method: 'POST', path: TEMPLATES, body: template, schema: EmailTemplateSchema })
        : apiRequest({
            method: 'PUT',
            path: `${TEMPLATES}${id}/`,
            body: template,
            schema: EmailTemplateSchema,
          }),
    ),
    uploadImage: apiCall((file: File) => uploadEmailImage(file)),
  },
});
