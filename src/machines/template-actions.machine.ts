import { assign, type DoneActorEvent, emit, type ErrorActorEvent, setup } from 'xstate';
import type { EmailTemplate, EmailTemplateSummary } from '../schemas/email-templates.js';
import { requestIn } from './kit/request.js';
import { problemOf, type ApiProblem } from './support/api-problem.js';
import { placeholder } from './support/placeholder.js';

/** What the templates screen sends besides the list's own commands. */
export type TemplateActionsCommand =
  | { type: 'preview.open'; template: EmailTemplateSummary }
  | { type: 'preview.close' }
  | { type: 'preview.retry' }
  | { type: 'template.duplicate'; template: EmailTemplateSummary }
  | { type: 'problem.dismiss' };

/** Everything the template actions handle. */
export type TemplateActionsEvent =
  | TemplateActionsCommand
  | DoneActorEvent<string, 'loadPreview'>
  | ErrorActorEvent<unknown, 'loadPreview'>
  | DoneActorEvent<EmailTemplate, 'duplicateTemplate'>
  | ErrorActorEvent<unknown, 'duplicateTemplate'>;

/** What the template actions know. */
export interface TemplateActionsContext {
  /** The template previewed or being copied. */
  template: EmailTemplateSummary | null;
  /** The preview's HTML (sample merge values filled in), shown in a sandboxed frame. */
  html: string | null;
  problem: ApiProblem | null;
}

const actionsSetup = setup({
  types: {
    context: {} as TemplateActionsContext,
    events: {} as TemplateActionsEvent,
    emitted: {} as { type: 'template.duplicated'; template: EmailTemplate },
  },
  actors: {
    /** `GET …/email-templates/{id}/preview/`: the rendered HTML. */
    loadPreview: placeholder<string, EmailTemplateSummary>(),
    /** `POST …/email-templates/{id}/duplicate/`. */
    duplicateTemplate: placeholder<EmailTemplate, EmailTemplateSummary>(),
  },
  actions: {
    pick: assign((_, template: EmailTemplateSummary) => ({ template, html: null, problem: null })),
    keepHtml: assign((_, html: string) => ({ html })),
    keepProblem: assign((_, error: unknown) => ({ problem: problemOf(error) })),
    clear: assign({ template: null, html: null, problem: null }),
    dismissProblem: assign({ problem: null }),
    announceDuplicated: emit((_, template: EmailTemplate) => ({
      type: 'template.duplicated' as const,
      template,
    })),
  },
});
const request = requestIn(actionsSetup);
const errorParams = ({ event }: { event: { error: unknown } }) => event.error;
const previewRequest = request('loadPreview', {
  // Entered only with a template picked.
  input: ({ context }) => context.template as EmailTemplateSummary,
  done: { target: 'previewing', actions: { type: 'keepHtml', params: ({ event }) => event.output } },
  error: { target: 'previewFailed', actions: { type: 'keepProblem', params: errorParams } },
});

/**
 * A template's preview and its copy, on /templates: `idle` → `loadingPreview` → `previewing` (or
 * `previewFailed`, which may retry) → `idle` on close; `idle` → `duplicating` → `idle`, announcing
 * `template.duplicated` for the list to reload, or keeping the problem to show.
 */
export const templateActionsMachine = actionsSetup.createMachine({
  id: 'templateActions',
  context: { template: null, html: null, problem: null },
  initial: 'idle',
  states: {
    idle: {
      on: {
        'preview.open': {
          target: 'loadingPreview',
          actions: { type: 'pick', params: ({ event }) => event.template },
        },
        'template.duplicate': {
          target: 'duplicating',
          actions: { type: 'pick', params: ({ event }) => event.template },
        },
        'problem.dismiss': { actions: 'clear' },
      },
    },
    loadingPreview: {
      tags: ['busy'],
      ...previewRequest,
      // Closing while it loads drops the answer (leaving the state stops the call).
      on: { ...previewRequest.on, 'preview.close': { target: 'idle', actions: 'clear' } },
    },
    previewing: { on: { 'preview.close': { target: 'idle', actions: 'clear' } } },
    previewFailed: {
      on: {
        'preview.retry': { target: 'loadingPreview', actions: 'dismissProblem' },
        'preview.close': { target: 'idle', actions: 'clear' },
      },
    },
    duplicating: {
      tags: ['busy'],
      ...request('duplicateTemplate', {
        input: ({ context }) => context.template as EmailTemplateSummary,
        done: {
          target: 'idle',
          actions: [{ type: 'announceDuplicated', params: ({ event }) => event.output }, 'clear'],
        },
        error: { target: 'idle', actions: { type: 'keepProblem', params: errorParams } },
      }),
    },
  },
});
