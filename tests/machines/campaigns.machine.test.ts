import { createTestModel } from '@xstate/graph';
import type { EventFromLogic } from 'xstate';
import { describe, expect, it } from 'vitest';
import { campaignsMachine, type CampaignFilters } from '../../src/machines/campaigns.machine.js';
import type { ListQuery } from '../../src/machines/kit/list-machine.js';
import type { CampaignSummary } from '../../src/schemas/campaigns.js';
import type { Page } from '../../src/schemas/common.js';
import { SERVER_DOWN, SUMMARY } from './support/campaign-fixtures.js';
import {
  pendingActor,
  reachedStates,
  replayPath,
  type Recording,
  type StateChecks,
} from './support/model-paths.js';
import { everyTransition, groupBy, valueKey } from './support/walk.js';

const PAGE = { count: 1, next: null, previous: null, results: [SUMMARY] };

const SAMPLES: EventFromLogic<typeof campaignsMachine>[] = [
  { type: 'list.retry' },
  { type: 'list.refresh' },
  { type: 'search.change', query: 'spring' },
  { type: 'search.settled' },
  { type: 'filters.change', filters: { status: 'sent' } },
  { type: 'filters.change', filters: { status: null } },
  { type: 'page.change', page: 2 },
  { type: 'item.open', item: SUMMARY },
  { type: 'item.delete', item: SUMMARY },
  { type: 'delete.confirm' },
  { type: 'dialog.close' },
  { type: 'notice.dismiss' },
  { type: 'xstate.done.actor.loadList', actorId: 'loadList', output: PAGE },
  { type: 'xstate.error.actor.loadList', actorId: 'loadList', error: SERVER_DOWN },
  { type: 'xstate.done.actor.deleteItem', actorId: 'deleteItem', output: null },
  { type: 'xstate.error.actor.deleteItem', actorId: 'deleteItem', error: SERVER_DOWN },
];

const start = (recording: Recording) =>
  campaignsMachine.provide({
    actors: {
      loadList: pendingActor<Page<CampaignSummary>, ListQuery<CampaignFilters>>('loadList', recording),
      deleteItem: pendingActor('deleteItem', recording),
    },
    delays: { refreshDelay: 2 ** 30, searchDelay: 2 ** 30 },
  });

const checks: StateChecks = {
  'listing.loading': (snapshot, recording) => {
    const { page, search, filters } = snapshot.context as { page: number; search: string; filters: object };
    const call = recording.invoked.at(-1) as { src: string; input: Record<string, unknown> };
    expect(call.src).toBe('loadList');
    // The page, 25 to a page, and the status filter (null: every status) go with each call.
    expect(call.input).toMatchObject({ page, page_size: 25, ...filters });
    if (call.input.q !== undefined) expect(call.input.q).toBe(search.trim());
  },
  'listing.debouncing': (snapshot) => {
    expect(snapshot.context.search).toBe('spring');
  },
  'listing.failed': (snapshot) => {
    expect(snapshot.context.problem).toMatchObject({ code: 'internal' });
  },
  'listing.browsing': (snapshot) => {
    expect(snapshot.context.items).toEqual(PAGE.results);
    // The row keeps the spec's client-side extras, all 0.
    expect(snapshot.context.items[0]).toMatchObject({
      custom_new_customer: 0,
      custom_new_customerVsAve: 0,
      custom_repeat_customer: 0,
      custom_repeat_customerVsAve: 0,
    });
  },
  'deleting.confirming': (snapshot) => {
    expect(snapshot.context.selected).toEqual(SUMMARY);
  },
  'deleting.removing': (_snapshot, recording) => {
    expect(recording.invoked.at(-1)).toEqual({ src: 'deleteItem', input: SUMMARY });
  },
};

function serializeState(snapshot: unknown): string {
  const { value, context } = snapshot as ReturnType<typeof campaignsMachine.getInitialSnapshot>;
  return JSON.stringify({
    value,
    search: context.search,
    status: context.filters.status,
    page: context.page,
    problem: context.problem !== null,
    notice: context.notice,
    held: context.items !== null,
    pending: context.refreshPending,
  });
}

const model = createTestModel(campaignsMachine, { events: SAMPLES, serializeState });
const { transitions: paths } = everyTransition(campaignsMachine, model);

describe('campaigns list machine (model)', () => {
  it('reaches every state', () => {
    expect(reachedStates(paths)).toEqual([
      'deleting.confirming',
      'deleting.removing',
      'listing.browsing',
      'listing.debouncing',
      'listing.failed',
      'listing.loading',
    ]);
  });

  it('announces the campaign to open', () => {
    const path = paths.find(
      (candidate) =>
        candidate.steps.at(-1)?.event.type === 'item.open' &&
        candidate.steps.at(-2)?.state.matches({ listing: 'browsing' }),
    );
    expect(path).toBeDefined();
    const emitted = replayPath(path!, start, checks).emitted;
    expect(emitted).toContainEqual({ type: 'item.opened', item: SUMMARY });
  });

  const bySource = groupBy(paths, (path) => valueKey(path.steps.at(-2)?.state ?? path.state));
  for (const [source, group] of bySource) {
    it(`keeps each state's meaning through the ${group.length} transitions out of ${source}`, () => {
      for (const path of group) replayPath(path, start, checks);
    });
  }
});
