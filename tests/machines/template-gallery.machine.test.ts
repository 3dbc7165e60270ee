import { createTestModel } from '@xstate/graph';
import type { EventFromLogic } from 'xstate';
import { describe, expect, it } from 'vitest';
import { templateGalleryMachine } from '../../src/machines/template-gallery.machine.js';
import type { GalleryTemplate } from '../../src/schemas/email-templates.js';
import {
  pendingActor,
  reachedStates,
  replayPath,
  type Recording,
  type StateChecks,
} from './support/model-paths.js';
import { everyTransition, groupBy, valueKey } from './support/walk.js';

const STARTERS: GalleryTemplate[] = [
  { key: 'welcome', name: 'Welcome', description: 'Greets a new guest', export_html: '<mjml></mjml>' },
];
const SERVER_DOWN = { status: 500, code: 'internal', message: 'Something went wrong on our side' };

const SAMPLES: EventFromLogic<typeof templateGalleryMachine>[] = [
  { type: 'gallery.retry' },
  { type: 'xstate.done.actor.loadGallery', actorId: 'loadGallery', output: STARTERS },
  { type: 'xstate.error.actor.loadGallery', actorId: 'loadGallery', error: SERVER_DOWN },
];

const start = (recording: Recording) =>
  templateGalleryMachine.provide({ actors: { loadGallery: pendingActor('loadGallery', recording) } });

const checks: StateChecks = {
  loading: (snapshot, recording) => {
    expect(snapshot.hasTag('busy')).toBe(true);
    expect(recording.invoked.at(-1)).toEqual({ src: 'loadGallery', input: undefined });
  },
  ready: (snapshot) => {
    expect(snapshot.context).toEqual({ starters: STARTERS, problem: null });
  },
  failed: (snapshot) => {
    expect(snapshot.context.problem).toMatchObject({ code: 'internal' });
  },
};

function serializeState(snapshot: unknown): string {
  const { value, context } = snapshot as ReturnType<typeof templateGalleryMachine.getInitialSnapshot>;
  return JSON.stringify({ value, starters: context.starters.length, problem: context.problem !== null });
}

const model = createTestModel(templateGalleryMachine, { events: SAMPLES, serializeState });
const { transitions: paths } = everyTransition(templateGalleryMachine, model);

describe('template gallery machine (model)', () => {
  it('reaches every state', () => {
    expect(reachedStates(paths)).toEqual(['failed', 'loading', 'ready']);
  });

  it('loads once on start and again only on retry after a failure', () => {
    for (const path of paths) {
      const recording = replayPath(path, start, checks);
      const retries = path.steps.filter(
        (step, index) =>
          step.event.type === 'gallery.retry' && path.steps[index - 1]?.state.matches('failed'),
      ).length;
      expect(recording.invoked.filter((call) => call.src === 'loadGallery')).toHaveLength(1 + retries);
    }
  });

  const bySource = groupBy(paths, (path) => valueKey(path.steps.at(-2)?.state ?? path.state));
  for (const [source, group] of bySource) {
    it(`keeps each state's meaning through the ${group.length} transitions out of ${source}`, () => {
      for (const path of group) replayPath(path, start, checks);
    });
  }
});
