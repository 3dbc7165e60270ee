import { createTestModel } from '@xstate/graph';
import type { EventFromLogic } from 'xstate';
import { describe, expect, it } from 'vitest';
import { templateThumbnailsMachine } from '../../src/machines/template-thumbnails.machine.js';
import {
  pendingActor,
  reachedStates,
  replayPath,
  type Recording,
  type StateChecks,
} from './support/model-paths.js';
import { everyTransition, groupBy, valueKey } from './support/walk.js';

const HTML = '<!doctype html><p>Hello Alex</p>';
const SERVER_DOWN = { status: 500, code: 'internal', message: 'Something went wrong on our side' };

const SAMPLES: EventFromLogic<typeof templateThumbnailsMachine>[] = [
  { type: 'thumbnail.visible', id: 1 },
  { type: 'thumbnail.visible', id: 2 },
  { type: 'thumbnail.visible', id: 3 },
  { type: 'xstate.done.actor.loadThumbnail', actorId: 'loadThumbnail', output: HTML },
  { type: 'xstate.error.actor.loadThumbnail', actorId: 'loadThumbnail', error: SERVER_DOWN },
];

const start = (recording: Recording) =>
  templateThumbnailsMachine.provide({ actors: { loadThumbnail: pendingActor('loadThumbnail', recording) } });

const checks: StateChecks = {
  idle: (snapshot) => {
    // Nothing waits while nothing loads.
    expect(snapshot.context.queue).toEqual([]);
  },
  loading: (snapshot, recording) => {
    const { queue, shown } = snapshot.context;
    // The first asked and not yet shown is the one loading; no template is asked twice.
    expect(recording.invoked.at(-1)).toEqual({ src: 'loadThumbnail', input: queue[0] });
    expect(new Set(queue).size).toBe(queue.length);
    for (const id of queue) expect(shown[id]).toBeUndefined();
  },
};

const model = createTestModel(templateThumbnailsMachine, { events: SAMPLES });
const { transitions: paths } = everyTransition(templateThumbnailsMachine, model);

describe('template thumbnails machine (model)', () => {
  it('reaches every state', () => {
    expect(reachedStates(paths)).toEqual(['idle', 'loading']);
  });

  it('asks the server once per template, in the order the cards came into view', () => {
    for (const path of paths) {
      const recording = replayPath(path, start, checks);
      const asked = recording.invoked.map((call) => call.input as number);
      const seen = [
        ...new Set(
          path.steps.flatMap((step) => (step.event.type === 'thumbnail.visible' ? [step.event.id] : [])),
        ),
      ];
      expect(new Set(asked).size).toBe(asked.length);
      expect(asked).toEqual(seen.slice(0, asked.length));
    }
  });

  it('keeps each answer as the HTML, or "failed"', () => {
    for (const path of paths) {
      const { shown } = path.state.context;
      for (const value of Object.values(shown)) expect([HTML, 'failed']).toContain(value);
    }
  });

  const bySource = groupBy(paths, (path) => valueKey(path.steps.at(-2)?.state ?? path.state));
  for (const [source, group] of bySource) {
    it(`keeps each state's meaning through the ${group.length} transitions out of ${source}`, () => {
      for (const path of group) replayPath(path, start, checks);
    });
  }
});
