import { assign, type DoneActorEvent, emit, type ErrorActorEvent, setup } from 'xstate';
import type { RecommendationKind, RecommendedSegment } from '../schemas/home-dashboard.js';
import { requestIn } from './kit/request.js';
import { problemOf, type ApiProblem } from './support/api-problem.js';
import { placeholder } from './support/placeholder.js';

/** A recommendation to follow: its kind, the segment's name in the user's language and its rules. */
export interface FollowRequest {
  kind: RecommendationKind;
  name: string;
  segment: RecommendedSegment;
}

/** What the recommendations list sends. */
export type RecommendationFollowCommand =
  { type: 'recommendation.follow'; request: FollowRequest } | { type: 'problem.dismiss' };

/** Everything the machine handles: the commands and the save's outcome. */
export type RecommendationFollowEvent =
  | RecommendationFollowCommand
  | DoneActorEvent<{ id: number }, 'saveSegment'>
  | ErrorActorEvent<unknown, 'saveSegment'>;

/** What it announces: the segment saved (the screen opens it). */
export type RecommendationFollowEmitted = { type: 'segment.saved'; id: number };

/** What it knows: the recommendation being followed and the last save's problem. */
export interface RecommendationFollowContext {
  following: FollowRequest | null;
  problem: ApiProblem | null;
}

const followSetup = setup({
  types: {
    context: {} as RecommendationFollowContext,
    events: {} as RecommendationFollowEvent,
    emitted: {} as RecommendationFollowEmitted,
  },
  actors: {
    /** `POST /api/campaigns/segments/` with the recommendation's segment and name. */
    saveSegment: placeholder<{ id: number }, FollowRequest>(),
  },
  actions: {
    startFollowing: assign((_, request: FollowRequest) => ({ following: request, problem: null })),
    keepProblem: assign((_, failure: { error: unknown }) => ({ problem: problemOf(failure.error) })),
    dismiss: assign({ problem: null, following: null }),
    announceSaved: emit((_, saved: { id: number }) => ({ type: 'segment.saved' as const, id: saved.id })),
  },
});
const request = requestIn(followSetup);

/**
 * One click on a recommendation (docs/dashboards.md): saves its segment (`saving`, tag `busy`; one at a
 * time, other clicks wait) and announces `segment.saved` with the new id, or keeps the problem to show
 * (`failed`; another click or `problem.dismiss` leaves it).
 */
export const recommendationFollowMachine = followSetup.createMachine({
  id: 'recommendationFollow',
  context: { following: null, problem: null },
  initial: 'idle',
  states: {
    idle: {
      on: {
        'recommendation.follow': {
          target: 'saving',
          actions: { type: 'startFollowing', params: ({ event }) => event.request },
        },
      },
    },
    saving: {
      tags: ['busy'],
      ...request('saveSegment', {
        input: ({ context }) => context.following!,
        done: { target: 'done', actions: { type: 'announceSaved', params: ({ event }) => event.output } },
        error: {
          target: 'failed',
          actions: { type: 'keepProblem', params: ({ event }) => ({ error: event.error }) },
        },
      }),
    },
    // Saved: the screen navigates away; a click meanwhile is not sent twice.
    done: {},
    failed: {
      on: {
        'recommendation.follow': {
          target: 'saving',
          actions: { type: 'startFollowing', params: ({ event }) => event.request },
        },
        'problem.dismiss': { target: 'idle', actions: 'dismiss' },
      },
    },
  },
});
