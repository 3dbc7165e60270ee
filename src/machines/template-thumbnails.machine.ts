import { assign, type DoneActorEvent, type ErrorActorEvent, setup } from 'xstate';
import { requestIn } from './kit/request.js';
import { placeholder } from './support/placeholder.js';

/** What the templates list sends: a card came into view (its thumbnail is wanted). */
export type TemplateThumbnailsCommand = { type: 'thumbnail.visible'; id: number };

/** Everything the thumbnails handle. */
export type TemplateThumbnailsEvent =
  | TemplateThumbnailsCommand
  | DoneActorEvent<string, 'loadThumbnail'>
  | ErrorActorEvent<unknown, 'loadThumbnail'>;

/** What the thumbnails know. */
export interface TemplateThumbnailsContext {
  /** Each template's preview HTML (`failed` when it could not be loaded), by id. */
  shown: Record<number, string>;
  /** Templates waiting for their preview, in the order they came into view. */
  queue: number[];
}

const thumbnailsSetup = setup({
  types: {
    context: {} as TemplateThumbnailsContext,
    events: {} as TemplateThumbnailsEvent,
  },
  actors: {
    /** `GET …/email-templates/{id}/preview/`: the HTML with sample values. */
    loadThumbnail: placeholder<string, number>(),
  },
  guards: {
    isWanted: ({ context }, id: number) => !(id in context.shown) && !context.queue.includes(id),
    hasQueue: ({ context }) => context.queue.length > 0,
  },
  actions: {
    enqueue: assign(({ context }, id: number) => ({ queue: [...context.queue, id] })),
    keep: assign(({ context }, html: string) => ({
      shown: { ...context.shown, [context.queue[0]!]: html },
      queue: context.queue.slice(1),
    })),
  },
});
const request = requestIn(thumbnailsSetup);

/**
 * The /templates thumbnails: each card that comes into view asks once; previews load one at a time, in the
 * order asked (a long list scrolled past does not fire dozens of calls at once), each kept as its HTML or
 * `failed`. `idle` with nothing queued, `loading` the first of the queue.
 */
export const templateThumbnailsMachine = thumbnailsSetup.createMachine({
  id: 'templateThumbnails',
  context: { shown: {}, queue: [] },
  initial: 'idle',
  on: {
    'thumbnail.visible': {
      guard: { type: 'isWanted', params: ({ event }) => event.id },
      actions: { type: 'enqueue', params: ({ event }) => event.id },
    },
  },
  states: {
    idle: {
      always: { guard: 'hasQueue', target: 'loading' },
    },
    loading: {
      ...request('loadThumbnail', {
        input: ({ context }) => context.queue[0]!,
        done: { target: 'idle', actions: { type: 'keep', params: ({ event }) => event.output } },
        error: { target: 'idle', actions: { type: 'keep', params: 'failed' } },
      }),
    },
  },
});
