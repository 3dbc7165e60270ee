import { assign, type DoneActorEvent, emit, type ErrorActorEvent, setup } from 'xstate';
import { SegmentCloneSchema, type Segment } from '../schemas/segment-records.js';
import { requestIn } from './kit/request.js';
import { fieldErrorsOf, problemOf, type ApiProblem, type FieldErrors } from './support/api-problem.js';
import { placeholder } from './support/placeholder.js';

/** `cloneSegment`'s input: the segment copied and the copy's name. */
export interface CloneRequest {
  segment: Segment;
  name: string;
}

/** What the clone dialog's view (and the list's row action) sends. */
export type SegmentCloneCommand =
  | {
      type: 'clone.open';
      segment: Segment;
      /** The copy's name to start from, in the user's language. */ name: string;
    }
  | { type: 'name.change'; value: string }
  | { type: 'dialog.submit' }
  | { type: 'dialog.close' };

/** Everything the clone dialog handles. */
export type SegmentCloneEvent =
  SegmentCloneCommand | DoneActorEvent<Segment, 'cloneSegment'> | ErrorActorEvent<unknown, 'cloneSegment'>;

/** What the clone dialog knows. */
export interface SegmentCloneContext {
  segment: Segment | null;
  name: string;
  fieldErrors: FieldErrors;
  problem: ApiProblem | null;
}

const cloneSetup = setup({
  types: {
    context: {} as SegmentCloneContext,
    events: {} as SegmentCloneEvent,
    emitted: {} as { type: 'segment.cloned'; segment: Segment },
  },
  actors: {
    /** `POST /api/campaigns/segments/{id}/clone/` with `{name}`. */
    cloneSegment: placeholder<Segment, CloneRequest>(),
  },
  guards: {
    nameIsValid: ({ context }) => SegmentCloneSchema.safeParse({ name: context.name }).success,
  },
  actions: {
    open: assign((_, { segment, name }: { segment: Segment; name: string }) => ({
      segment,
      // A name to start from, shown so the user can change it.
      name,
      fieldErrors: {},
      problem: null,
    })),
    keepName: assign((_, name: string) => ({ name, fieldErrors: {} })),
    showNameErrors: assign(({ context }) => {
      const result = SegmentCloneSchema.safeParse({ name: context.name });
      return { fieldErrors: result.error ? fieldErrorsOf(result.error) : {} };
    }),
    keepServerErrors: assign((_, error: unknown) => {
      const problem = problemOf(error);
      return { problem, fieldErrors: problem.fields };
    }),
    clear: assign({ segment: null, name: '', fieldErrors: {}, problem: null }),
    announceCloned: emit((_, segment: Segment) => ({ type: 'segment.cloned' as const, segment })),
  },
});
const request = requestIn(cloneSetup);

/**
 * The segment clone dialog (spec §2): `closed` → `open` (the copy's name, "… (copy)" to start) → `saving`
 * (`cloneSegment`) → `closed`, announcing `segment.cloned` for the list to reload; the server's refusal
 * comes back on the name (or above it) with the dialog still open.
 */
export const segmentCloneMachine = cloneSetup.createMachine({
  id: 'segmentClone',
  context: { segment: null, name: '', fieldErrors: {}, problem: null },
  initial: 'closed',
  states: {
    closed: {
      on: {
        'clone.open': { target: 'open', actions: { type: 'open', params: ({ event }) => event } },
      },
    },
    open: {
      on: {
        'name.change': { actions: { type: 'keepName', params: ({ event }) => event.value } },
        'dialog.submit': [{ guard: 'nameIsValid', target: 'saving' }, { actions: 'showNameErrors' }],
        'dialog.close': { target: 'closed', actions: 'clear' },
      },
    },
    saving: {
      tags: ['busy'],
      ...request('cloneSegment', {
        // The dialog opens only with a segment.
        input: ({ context }) => ({ segment: context.segment as Segment, name: context.name.trim() }),
        done: {
          target: 'closed',
          actions: [{ type: 'announceCloned', params: ({ event }) => event.output }, 'clear'],
        },
        error: {
          target: 'open',
          actions: {
            type: 'keepServerErrors',
            params: ({ event }: { event: { error: unknown } }) => event.error,
          },
        },
      }),
    },
  },
});
