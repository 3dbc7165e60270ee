import { and, assign, type DoneActorEvent, emit, type ErrorActorEvent, setup } from 'xstate';
import {
  EmailTemplateCreateSchema,
  TEMPLATE_LIMITS,
  type EmailImage,
  type EmailTemplate,
  type EmailTemplateCreate,
  type GalleryTemplate,
} from '../schemas/email-templates.js';
import { requestIn } from './kit/request.js';
import {
  fieldErrorsOf,
  problemOf,
  withoutField,
  type ApiProblem,
  type FieldErrors,
} from './support/api-problem.js';
import { placeholder } from './support/placeholder.js';

/** A menu item the menu-item block can show: its name and price. */
export interface EditorMenuItem {
  id: number;
  name: string;
  price: number;
}

/** A location the location block can show: its name and address. */
export interface EditorLocation {
  id: number;
  name: string;
  address: string;
}

/** What the editor's blocks and starter picker are made from: the company's menu, locations and the gallery. */
export interface EditorCatalogue {
  menuItems: EditorMenuItem[];
  locations: EditorLocation[];
  starters: GalleryTemplate[];
}

/** What opening the editor loads: the template (null when creating one) and the catalogue. */
export interface EditorSource {
  template: EmailTemplate | null;
  catalogue: EditorCatalogue;
}

/** What a save sends: the template's id (null for the first save of a new one), name and design. */
export interface TemplateSave {
  id: number | null;
  template: EmailTemplateCreate;
}

/** The image types the upload call takes (it checks the bytes again). */
export const EDITOR_IMAGE_TYPES = ['image/png', 'image/jpeg', 'image/gif', 'image/webp'] as const;

/** Why an image was not uploaded: refused here (type, size) or by the server. */
export type UploadProblem =
  { reason: 'type' } | { reason: 'size' } | { reason: 'server'; problem: ApiProblem };

/** The design a new template starts from: an empty email body. */
export const BLANK_DESIGN = '<mjml><mj-body></mj-body></mjml>';

/** What the editor's view (and its GrapesJS widget) sends. */
export type TemplateEditorCommand =
  | { type: 'editor.retry' }
  | { type: 'name.change'; value: string }
  /** The canvas changed; `design` is its MJML now. */
  | { type: 'design.changed'; design: string }
  /** The canvas's undo history changed. */
  | { type: 'history.changed'; canUndo: boolean; canRedo: boolean }
  | { type: 'starter.pick'; key: string }
  | { type: 'template.save' }
  | { type: 'problem.dismiss' }
  | { type: 'image.upload'; file: File }
  | { type: 'upload.dismiss' }
  /** Someone is leaving the screen (the router's blocker asked). */
  | { type: 'leave.request' }
  | { type: 'leave.confirm' }
  | { type: 'leave.cancel' };

/** Everything the editor handles: the view's commands and its calls' outcomes. */
export type TemplateEditorEvent =
  | TemplateEditorCommand
  | DoneActorEvent<EditorSource, 'loadEditor'>
  | ErrorActorEvent<unknown, 'loadEditor'>
  | DoneActorEvent<EmailTemplate, 'saveTemplate'>
  | ErrorActorEvent<unknown, 'saveTemplate'>
  | DoneActorEvent<EmailImage, 'uploadImage'>
  | ErrorActorEvent<unknown, 'uploadImage'>;

/** What the editor announces to the screen and its widget. */
export type TemplateEditorEmitted =
  /** Saved; `created` on the first save of a new template (the screen moves to its address). */
  | { type: 'template.saved'; id: number; created: boolean }
  /** An image is on the server: the widget adds it to the asset manager (and the selected image). */
  | { type: 'image.uploaded'; image: EmailImage }
  /** Nothing is lost by leaving now: the blocker may proceed. */
  | { type: 'leave.allowed' };

/** What the editor knows. */
export interface TemplateEditorContext {
  /** The template's id; null until a new one is first saved. */
  id: number | null;
  name: string;
  /** The design as the canvas last reported it (MJML). */
  design: string;
  /** The design the canvas must show, bumped each time the machine replaces it (opened, starter picked). */
  loaded: { design: string; revision: number };
  catalogue: EditorCatalogue;
  canUndo: boolean;
  canRedo: boolean;
  /** The design changed while a save was on its way: the saved template is already behind. */
  changedWhileSaving: boolean;
  fieldErrors: FieldErrors;
  problem: ApiProblem | null;
  uploadProblem: UploadProblem | null;
}

/** What the editor opens: a template by id, or a new one. */
export interface TemplateEditorInput {
  id: number | null;
}

const EMPTY_CATALOGUE: EditorCatalogue = { menuItems: [], locations: [], starters: [] };

const editorSetup = setup({
  types: {
    context: {} as TemplateEditorContext,
    events: {} as TemplateEditorEvent,
    emitted: {} as TemplateEditorEmitted,
    input: {} as TemplateEditorInput,
  },
  actors: {
    /** `GET …/email-templates/{id}/` (when editing), the menu, the locations and the starter gallery. */
    loadEditor: placeholder<EditorSource, TemplateEditorInput>(),
    /** `POST …/email-templates/` the first time, `PUT …/email-templates/{id}/` after. */
    saveTemplate: placeholder<EmailTemplate, TemplateSave>(),
    /** `POST …/email-images/` (multipart). */
    uploadImage: placeholder<EmailImage, File>(),
  },
  guards: {
    isValid: ({ context }) =>
      EmailTemplateCreateSchema.safeParse({ name: context.name, export_html: context.design }).success,
    isNew: ({ context }) => context.id === null,
    changedWhileSaving: ({ context }) => context.changedWhileSaving,
    isWrongImageType: (_, file: File) => !(EDITOR_IMAGE_TYPES as readonly string[]).includes(file.type),
    isImageTooLarge: (_, file: File) => file.size > TEMPLATE_LIMITS.imageMaxBytes,
    isKnownStarter: ({ context }, key: string) =>
      context.catalogue.starters.some((starter) => starter.key === key),
  },
  actions: {
    open: assign((_, source: EditorSource) => {
      const design = source.template?.export_html ?? BLANK_DESIGN;
      return {
        id: source.template?.id ?? null,
        name: source.template?.name ?? '',
        design,
        loaded: { design, revision: 1 },
        catalogue: source.catalogue,
        problem: null,
      };
    }),
    keepLoadProblem: assign((_, error: unknown) => ({ problem: problemOf(error) })),
    clearProblem: assign({ problem: null }),
    changeName: assign(({ context }, value: string) => ({
      name: value,
      fieldErrors: withoutField(context.fieldErrors, 'name'),
    })),
    changeDesign: assign(({ context }, design: string) => ({
      design,
      fieldErrors: withoutField(context.fieldErrors, 'export_html'),
    })),
    noteChangeWhileSaving: assign({ changedWhileSaving: true }),
    keepHistory: assign((_, history: { canUndo: boolean; canRedo: boolean }) => history),
    pickStarter: assign(({ context }, key: string) => {
      const starter = context.catalogue.starters.find((candidate) => candidate.key === key)!;
      return {
        design: starter.export_html,
        loaded: { design: starter.export_html, revision: context.loaded.revision + 1 },
        // The starter's name, unless one was typed.
        name: context.name.trim() === '' ? starter.name : context.name,
        fieldErrors: {},
      };
    }),
    showValidationErrors: assign(({ context }) => {
      const result = EmailTemplateCreateSchema.safeParse({ name: context.name, export_html: context.design });
      return { fieldErrors: result.success ? {} : fieldErrorsOf(result.error), problem: null };
    }),
    startSave: assign({ fieldErrors: {}, problem: null, changedWhileSaving: false }),
    keepSaved: assign((_, template: EmailTemplate) => ({ id: template.id })),
    announceSaved: emit((_, saved: { id: number; created: boolean }) => ({
      type: 'template.saved' as const,
      ...saved,
    })),
    keepSaveProblem: assign((_, error: unknown) => {
      const problem = problemOf(error);
      return { problem, fieldErrors: problem.fields };
    }),
    refuseUpload: assign((_, reason: 'type' | 'size') => ({ uploadProblem: { reason } })),
    startUpload: assign({ uploadProblem: null }),
    keepUploadProblem: assign((_, error: unknown) => ({
      uploadProblem: { reason: 'server' as const, problem: problemOf(error) },
    })),
    dismissUpload: assign({ uploadProblem: null }),
    announceImage: emit((_, image: EmailImage) => ({ type: 'image.uploaded' as const, image })),
    allowLeave: emit({ type: 'leave.allowed' as const }),
  },
});
const request = requestIn(editorSetup);
const errorOf = ({ event }: { event: { error: unknown } }) => event.error;

// Edits anywhere the document is open: each marks it changed (the target is the caller's).
const edits = {
  'name.change': { target: 'dirty', actions: { type: 'changeName', params: ({ event }) => event.value } },
  'design.changed': {
    target: 'dirty',
    actions: { type: 'changeDesign', params: ({ event }) => event.design },
  },
  'starter.pick': {
    guard: { type: 'isKnownStarter', params: ({ event }) => event.key },
    target: 'dirty',
    actions: { type: 'pickStarter', params: ({ event }) => event.key },
  },
} as const satisfies Parameters<typeof editorSetup.createStateConfig>[0]['on'];

// A refused form is a changed document with its field messages (a server refusal before it is replaced).
const saveCommand = [
  { guard: 'isValid', target: 'saving', actions: 'startSave' },
  { target: 'dirty', actions: 'showValidationErrors' },
] as const;

/**
 * The email template editor (/editor-template, /editor-template/{id}; docs/templates.md): `loading` the
 * template with the menu, locations and starters (`loadFailed` retries), then `ready` with two regions. The
 * document is `clean` (nothing to save), `dirty` (changes the canvas or the name field reported), `saving`,
 * `saved` or `failed` (the server's refusal kept, e.g. invalid MJML on `export_html`), and
 * `confirmingLeave` when someone leaves with changes unsaved: `leave.confirm` lets them go, `leave.cancel`
 * stays. Images are `idle` or `uploading` (type and size checked first). The GrapesJS canvas lives in the
 * view: it reports `design.changed` and `history.changed`, and shows `context.loaded` when its revision moves.
 */
export const templateEditorMachine = editorSetup.createMachine({
  id: 'templateEditor',
  context: ({ input }) => ({
    id: input.id,
    name: '',
    design: BLANK_DESIGN,
    loaded: { design: BLANK_DESIGN, revision: 0 },
    catalogue: EMPTY_CATALOGUE,
    canUndo: false,
    canRedo: false,
    changedWhileSaving: false,
    fieldErrors: {},
    problem: null,
    uploadProblem: null,
  }),
  initial: 'loading',
  states: {
    loading: {
      tags: ['busy'],
      ...request('loadEditor', {
        input: ({ context }) => ({ id: context.id }),
        done: { target: 'ready', actions: { type: 'open', params: ({ event }) => event.output } },
        error: { target: 'loadFailed', actions: { type: 'keepLoadProblem', params: errorOf } },
      }),
    },
    loadFailed: {
      on: { 'editor.retry': { target: 'loading', actions: 'clearProblem' } },
    },
    ready: {
      type: 'parallel',
      on: {
        'history.changed': { actions: { type: 'keepHistory', params: ({ event }) => event } },
      },
      states: {
        document: {
          initial: 'clean',
          states: {
            clean: {
              on: {
                ...edits,
                // A new template may be saved as it opened (blank, or named only).
                'template.save': [
                  { guard: and(['isNew', 'isValid']), target: 'saving', actions: 'startSave' },
                  { guard: 'isNew', actions: 'showValidationErrors' },
                ],
                'leave.request': { actions: 'allowLeave' },
              },
            },
            dirty: {
              tags: ['unsaved'],
              on: {
                ...edits,
                'template.save': saveCommand,
                'leave.request': 'confirmingLeave',
              },
            },
            saving: {
              tags: ['busy', 'unsaved'],
              ...request('saveTemplate', {
                input: ({ context }) => ({
                  id: context.id,
                  template: { name: context.name, export_html: context.design },
                }),
                done: [
                  {
                    guard: 'changedWhileSaving',
                    target: 'dirty',
                    // Announced before the id is kept: `created` reads whether there was one.
                    actions: [
                      {
                        type: 'announceSaved',
                        params: ({ context, event }) => ({
                          id: event.output.id,
                          created: context.id === null,
                        }),
                      },
                      { type: 'keepSaved', params: ({ event }) => event.output },
                    ],
                  },
                  {
                    target: 'saved',
                    // Announced before the id is kept: `created` reads whether there was one.
                    actions: [
                      {
                        type: 'announceSaved',
                        params: ({ context, event }) => ({
                          id: event.output.id,
                          created: context.id === null,
                        }),
                      },
                      { type: 'keepSaved', params: ({ event }) => event.output },
                    ],
                  },
                ],
                error: { target: 'failed', actions: { type: 'keepSaveProblem', params: errorOf } },
                on: {
                  // The canvas keeps working while the save is on its way.
                  'design.changed': {
                    actions: [
                      { type: 'changeDesign', params: ({ event }) => event.design },
                      'noteChangeWhileSaving',
                    ],
                  },
                  'name.change': {
                    actions: [
                      { type: 'changeName', params: ({ event }) => event.value },
                      'noteChangeWhileSaving',
                    ],
                  },
                  // Leaving mid-save drops the answer: the changes count as unsaved.
                  'leave.request': 'confirmingLeave',
                },
              }),
            },
            saved: {
              on: { ...edits, 'leave.request': { actions: 'allowLeave' } },
            },
            failed: {
              tags: ['unsaved'],
              on: {
                ...edits,
                'template.save': saveCommand,
                'problem.dismiss': { target: 'dirty', actions: 'clearProblem' },
                'leave.request': 'confirmingLeave',
              },
            },
            confirmingLeave: {
              tags: ['unsaved'],
              on: {
                'leave.confirm': { target: 'left', actions: 'allowLeave' },
                'leave.cancel': 'dirty',
              },
            },
            // Gone without saving: the screen is on its way out.
            left: {},
          },
        },
        images: {
          initial: 'idle',
          states: {
            idle: {
              on: {
                'image.upload': [
                  {
                    guard: { type: 'isWrongImageType', params: ({ event }) => event.file },
                    actions: { type: 'refuseUpload', params: 'type' },
                  },
                  {
                    guard: { type: 'isImageTooLarge', params: ({ event }) => event.file },
                    actions: { type: 'refuseUpload', params: 'size' },
                  },
                  { target: 'uploading', actions: 'startUpload' },
                ],
                'upload.dismiss': { actions: 'dismissUpload' },
              },
            },
            uploading: {
              tags: ['uploading'],
              ...request('uploadImage', {
                input: ({ event }) => (event as { file: File }).file,
                done: {
                  target: 'idle',
                  actions: { type: 'announceImage', params: ({ event }) => event.output },
                },
                error: { target: 'idle', actions: { type: 'keepUploadProblem', params: errorOf } },
              }),
            },
          },
        },
      },
    },
  },
});
