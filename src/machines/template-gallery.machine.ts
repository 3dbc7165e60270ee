import { assign, type DoneActorEvent, type ErrorActorEvent, setup } from 'xstate';
import type { GalleryTemplate } from '../schemas/email-templates.js';
import { requestIn } from './kit/request.js';
import { problemOf, type ApiProblem } from './support/api-problem.js';
import { placeholder } from './support/placeholder.js';

/** Everything the gallery handles. */
export type TemplateGalleryEvent =
  | { type: 'gallery.retry' }
  | DoneActorEvent<GalleryTemplate[], 'loadGallery'>
  | ErrorActorEvent<unknown, 'loadGallery'>;

/** What the gallery knows. */
export interface TemplateGalleryContext {
  starters: GalleryTemplate[];
  problem: ApiProblem | null;
}

const gallerySetup = setup({
  types: { context: {} as TemplateGalleryContext, events: {} as TemplateGalleryEvent },
  actors: {
    /** `GET /api/campaigns/email-templates/gallery/`: the six starters in the user's language. */
    loadGallery: placeholder<GalleryTemplate[], undefined>(),
  },
  actions: {
    keepStarters: assign((_, starters: GalleryTemplate[]) => ({ starters, problem: null })),
    keepProblem: assign((_, error: unknown) => ({ problem: problemOf(error) })),
  },
});
const request = requestIn(gallerySetup);

/**
 * The starter gallery the new-template dialog offers: `loading` → `ready` (the six starters) or `failed`
 * (`gallery.retry` loads again).
 */
export const templateGalleryMachine = gallerySetup.createMachine({
  id: 'templateGallery',
  context: { starters: [], problem: null },
  initial: 'loading',
  states: {
    loading: {
      tags: ['busy'],
      ...request('loadGallery', {
        input: () => undefined,
        done: { target: 'ready', actions: { type: 'keepStarters', params: ({ event }) => event.output } },
        error: {
          target: 'failed',
          actions: { type: 'keepProblem', params: ({ event }: { event: { error: unknown } }) => event.error },
        },
      }),
    },
    ready: {},
    failed: { on: { 'gallery.retry': 'loading' } },
  },
});
