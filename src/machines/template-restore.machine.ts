import { assign, cancel, type DoneActorEvent, emit, type ErrorActorEvent, raise, setup } from 'xstate';
import type { EmailTemplate } from '../schemas/email-templates.js';
import { requestIn } from './kit/request.js';
import { problemOf, type ApiProblem } from './support/api-problem.js';
import { placeholder } from './support/placeholder.js';

/** How long the Undo offer stays after a template is deleted (ms). */
export const TEMPLATE_UNDO_MS = 8000;

/** What the templates screen tells the undo offer. */
export type TemplateRestoreCommand =
  | { type: 'template.deleted'; template: EmailTemplate }
  | { type: 'template.undo' }
  | { type: 'offer.dismiss' }
  | { type: 'problem.dismiss' };

/** Everything the undo offer handles: the screen's commands, its timer and the restore call's answer. */
export type TemplateRestoreEvent =
  | TemplateRestoreCommand
  | { type: 'offer.expire' }
  | DoneActorEvent<EmailTemplate, 'restoreTemplate'>
  | ErrorActorEvent<unknown, 'restoreTemplate'>;

/** What the undo offer knows: the deleted template (its name and design) and a failed restore's problem. */
export interface TemplateRestoreContext {
  template: EmailTemplate | null;
  problem: ApiProblem | null;
}

const restoreSetup = setup({
  types: {
    context: {} as TemplateRestoreContext,
    events: {} as TemplateRestoreEvent,
    emitted: {} as { type: 'template.restored'; template: EmailTemplate },
  },
  actors: {
    /** `POST …/email-templates/` with the deleted template's name and design (it comes back under a new id). */
    restoreTemplate: placeholder<EmailTemplate, EmailTemplate>(),
  },
  actions: {
    pick: assign((_, template: EmailTemplate) => ({ template, problem: null })),
    keepProblem: assign((_, error: unknown) => ({ problem: problemOf(error) })),
    clear: assign({ template: null, problem: null }),
    announce: emit((_, template: EmailTemplate) => ({ type: 'template.restored' as const, template })),
  },
  delays: { undoWindow: TEMPLATE_UNDO_MS },
});
const request = requestIn(restoreSetup);
const deleted = {
  target: 'offering',
  // A second delete replaces the offer and starts its time again.
  reenter: true,
  actions: {
    type: 'pick',
    params: ({ event }: { event: { template: EmailTemplate } }) => event.template,
  },
} as const;

/**
 * The Undo offer after a template is deleted on /templates: `idle` → `offering` for a few seconds (the
 * screen shows an Undo toast) → `idle` when it expires or is dismissed; Undo → `restoring`, which makes the
 * template again from its name and design and announces `template.restored` (the list reloads), or keeps
 * the problem to show, naming the template, until `problem.dismiss`.
 */
export const templateRestoreMachine = restoreSetup.createMachine({
  id: 'templateRestore',
  context: { template: null, problem: null },
  initial: 'idle',
  states: {
    idle: {
      on: {
        'template.deleted': deleted,
        'problem.dismiss': { actions: 'clear' },
      },
    },
    offering: {
      entry: raise({ type: 'offer.expire' }, { delay: 'undoWindow', id: 'undoWindow' }),
      exit: cancel('undoWindow'),
      on: {
        'template.deleted': deleted,
        'template.undo': 'restoring',
        'offer.expire': { target: 'idle', actions: 'clear' },
        'offer.dismiss': { target: 'idle', actions: 'clear' },
      },
    },
    restoring: {
      tags: ['busy'],
      ...request('restoreTemplate', {
        // Entered only from an offer, which holds the template.
        input: ({ context }) => context.template as EmailTemplate,
        done: {
          target: 'idle',
          actions: [{ type: 'announce', params: ({ event }) => event.output }, 'clear'],
        },
        error: {
          target: 'idle',
          actions: { type: 'keepProblem', params: ({ event }: { event: { error: unknown } }) => event.error },
        },
      }),
    },
  },
});
