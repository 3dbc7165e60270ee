import { createTestModel } from '@xstate/graph';
import type { EventFromLogic } from 'xstate';
import { describe, expect, it } from 'vitest';
import { sentMailMachine } from '../../src/machines/sent-mail.machine.js';
import type { ListQuery, NoFilters } from '../../src/machines/kit/list-machine.js';
import type { Page } from '../../src/schemas/common.js';
import type { SentMailSummary } from '../../src/schemas/sending.js';
import {
  pendingActor,
  reachedStates,
  replayPath,
  type Recording,
  type StateChecks,
} from './support/model-paths.js';
import { everyTransition, groupBy, valueKey } from './support/walk.js';

const MAIL: SentMailSummary = {
  id: 7,
  from: 'news@harbor.example',
  to: 'reader@example.com',
  subject: 'Autumn menu',
  run_id: 3,
  created_at: '2026-11-26T10:00:00.000Z',
};
const PAGE: Page<SentMailSummary> = { count: 30, next: '?page=2', previous: null, results: [MAIL] };
const SERVER_DOWN = { status: 500, code: 'internal', message: 'Something went wrong on our side' };

const SAMPLES: EventFromLogic<typeof sentMailMachine>[] = [
  { type: 'search.change', query: 'aut' },
  { type: 'search.settled' },
  { type: 'page.change', page: 2 },
  { type: 'item.open', item: MAIL },
  { type: 'list.retry' },
  { type: 'xstate.done.actor.loadList', actorId: 'loadList', output: PAGE },
  { type: 'xstate.error.actor.loadList', actorId: 'loadList', error: SERVER_DOWN },
];

const start = (recording: Recording) =>
  sentMailMachine.provide({
    actors: {
      loadList: pendingActor<Page<SentMailSummary>, ListQuery<NoFilters>>('loadList', recording),
    },
    delays: { refreshDelay: 2 ** 30, searchDelay: 2 ** 30 },
  });

const checks: StateChecks = {
  'listing.loading': (snapshot, recording) => {
    const call = recording.invoked.at(-1) as { src: string; input: Record<string, unknown> };
    expect(call.src).toBe('loadList');
    expect(call.input).toMatchObject({ page: snapshot.context.page, page_size: 25 });
    if (call.input.q !== undefined) expect(call.input.q).toBe('aut');
  },
  'listing.debouncing': (snapshot) => {
    expect(snapshot.context.search).toBe('aut');
  },
  'listing.failed': (snapshot) => {
    expect(snapshot.context.problem).toMatchObject({ code: 'internal' });
  },
  'listing.browsing': (snapshot, recording) => {
    expect(snapshot.context.items).toEqual(PAGE.results);
    expect(snapshot.context.total).toBe(30);
    // Opening a message announces it to the screen, which shows it.
    for (const emitted of recording.emitted) expect(emitted).toEqual({ type: 'item.opened', item: MAIL });
  },
};

function serializeState(snapshot: unknown): string {
  const { value, context } = snapshot as ReturnType<typeof sentMailMachine.getInitialSnapshot>;
  return JSON.stringify({
    value,
    page: context.page,
    search: context.search,
    problem: context.problem !== null,
    held: context.items !== null,
  });
}

const model = createTestModel(sentMailMachine, { events: SAMPLES, serializeState });
const { transitions: paths } = everyTransition(sentMailMachine, model);

describe('sent mail machine (model)', () => {
  it('reaches every state of a read-only, searched, paged list', () => {
    expect(reachedStates(paths)).toEqual([
      'listing.browsing',
      'listing.debouncing',
      'listing.failed',
      'listing.loading',
    ]);
  });

  it('announces an opened message', () => {
    const opened = paths.filter((path) => path.steps.some((step) => step.event.type === 'item.open'));
    expect(opened.length).toBeGreaterThan(0);
    for (const path of opened) {
      const recording = replayPath(path, start, checks);
      expect(recording.emitted).toContainEqual({ type: 'item.opened', item: MAIL });
    }
  });

  const bySource = groupBy(paths, (path) => valueKey(path.steps.at(-2)?.state ?? path.state));
  for (const [source, group] of bySource) {
    it(`keeps each state's meaning through the ${group.length} transitions out of ${source}`, () => {
      for (const path of group) replayPath(path, start, checks);
    });
  }
});
