import { createTestModel } from '@xstate/graph';
import { createActor, type EventFromLogic, type SnapshotFrom } from 'xstate';
import { describe, expect, it } from 'vitest';
import {
  applyEdit,
  flowBuilderMachine,
  type FlowBuilderInput,
  type SaveFlowRequest,
} from '../../src/machines/flow-builder.machine.js';
import { unsettledKeys } from '../../src/machines/support/flow-edits.js';
import { validateFlowGraph } from '../../src/schemas/flow-graph.js';
import { CHOICES, failure, FLOW, flowWith, GRAPH } from './support/flow-fixtures.js';
import {
  pendingActor,
  reachedStates,
  replayPath,
  type Recording,
  type StateChecks,
} from './support/model-paths.js';
import { everyTransition, groupBy, valueKey } from './support/walk.js';

type Event = EventFromLogic<typeof flowBuilderMachine>;
type Snapshot = SnapshotFrom<typeof flowBuilderMachine>;

const INPUT: FlowBuilderInput = { flowId: FLOW.id, newName: 'New flow', staffEmail: 'owner@harbor.example' };
const LOAD = { flow: FLOW, choices: CHOICES, counts: null };
const CHOSEN = {
  type: 'send_email' as const,
  template_id: 11,
  sender_id: null,
  subject: 'Hello',
  preheader: '',
};

const SAMPLES: Event[] = [
  { type: 'xstate.done.actor.loadFlow', actorId: 'loadFlow', output: LOAD },
  { type: 'xstate.error.actor.loadFlow', actorId: 'loadFlow', error: failure(500, 'internal') },
  { type: 'xstate.error.actor.loadFlow', actorId: 'loadFlow', error: failure(404, 'not_found') },
  { type: 'retry' },
  { type: 'node.add', node: { kind: 'delay', type: 'wait' }, position: null },
  { type: 'node.move', key: 'n2', position: { x: 40, y: 150 } },
  { type: 'edge.disconnect', source: 'n2', handle: 'next' },
  { type: 'edge.connect', source: 'n2', handle: 'next', target: 'n3' },
  { type: 'node.settings', key: 'n3', settings: CHOSEN },
  { type: 'node.settings', key: 'n2', settings: { type: 'wait', amount: 0, unit: 'days' } },
  { type: 'node.delete', key: 'n3' },
  { type: 'flow.fields', fields: { name: 'Welcome back' } },
  { type: 'undo' },
  { type: 'redo' },
  { type: 'xstate.done.actor.layOutGraph', actorId: 'layOutGraph', output: { n1: { x: 0, y: 0 } } },
  { type: 'node.select', key: 'n2' },
  { type: 'layout.request' },
  { type: 'save' },
  { type: 'publish' },
  { type: 'pause' },
  { type: 'resume' },
  { type: 'conflict.reload' },
  { type: 'conflict.overwrite' },
  { type: 'problem.dismiss' },
  { type: 'xstate.done.actor.saveFlow', actorId: 'saveFlow', output: flowWith('draft', 5) },
  { type: 'xstate.done.actor.saveFlow', actorId: 'saveFlow', output: flowWith('live', 6) },
  { type: 'xstate.done.actor.saveFlow', actorId: 'saveFlow', output: flowWith('paused', 7) },
  { type: 'xstate.error.actor.saveFlow', actorId: 'saveFlow', error: failure(409, 'flow_conflict') },
  { type: 'xstate.error.actor.saveFlow', actorId: 'saveFlow', error: failure(400, 'flow_invalid') },
  { type: 'xstate.error.actor.saveFlow', actorId: 'saveFlow', error: failure(500, 'internal') },
];

const start = (recording: Recording) =>
  flowBuilderMachine.provide({
    actors: {
      loadFlow: pendingActor('loadFlow', recording),
      saveFlow: pendingActor('saveFlow', recording),
      layOutGraph: pendingActor('layOutGraph', recording),
    },
  });

// Keyed on the state value and a few facts of the context (not the graph itself: every add makes a new one),
// so the walk ends; the checks below hold on whatever graph a path built.
const serializeState = (snapshot: Snapshot) => {
  const context = snapshot.context;
  return JSON.stringify({
    value: snapshot.value,
    status: context.flow?.status ?? null,
    unsaved: context.edits !== context.savedEdits,
    settled: context.unsettled.length === 0,
    publishable: context.problems.length === 0,
  });
};

const lastSave = (recording: Recording) =>
  recording.invoked.filter((call) => call.src === 'saveFlow').at(-1)?.input as SaveFlowRequest | undefined;

const every = (snapshot: Snapshot) => {
  const context = snapshot.context;
  // The problems shown are always the validator's for the graph shown.
  expect(context.problems).toEqual(validateFlowGraph(context.items));
  if (context.selected !== null) expect(context.items.map((item) => item.key)).toContain(context.selected);
  expect(new Set(context.items.map((item) => item.key)).size).toBe(context.items.length);
};

const checks: StateChecks = {
  loading: (snapshot, recording) => {
    expect(snapshot.hasTag('busy')).toBe(true);
    expect(recording.invoked.at(-1)).toEqual({ src: 'loadFlow', input: { flowId: 21, newName: 'New flow' } });
  },
  loadFailed: (snapshot) => {
    expect(snapshot.hasTag('editable')).toBe(false);
    // Its message shows until dismissed.
    if (snapshot.context.problem) expect(snapshot.context.problem).toMatchObject({ code: 'internal' });
  },
  notFound: (snapshot) => {
    // Only the server's 404 leads here; nothing can be edited and nothing is asked again.
    expect(snapshot.hasTag('editable')).toBe(false);
    expect(snapshot.hasTag('busy')).toBe(false);
    expect(snapshot.context.problem?.code).not.toBe('not_found');
  },
  clean: (snapshot) => {
    every(snapshot);
    expect(snapshot.context.edits).toBe(snapshot.context.savedEdits);
    expect(snapshot.hasTag('unsaved')).toBe(false);
  },
  dirty: (snapshot) => {
    every(snapshot);
    expect(snapshot.hasTag('unsaved')).toBe(true);
    expect(snapshot.context.edits).not.toBe(snapshot.context.savedEdits);
  },
  saved: (snapshot) => {
    every(snapshot);
    expect(snapshot.context.edits).toBe(snapshot.context.savedEdits);
    expect(snapshot.context.problem).toBeNull();
  },
  saving: (snapshot, recording) => {
    every(snapshot);
    const sent = lastSave(recording)!;
    expect(sent.overwrite).toBe(false);
    expect(sent.body.status).toBeUndefined();
    expect(sent.body.revision).toBe(snapshot.context.revision);
    // Only settings the schemas take are sent (edits may go on while the save is under way).
    expect(unsettledKeys(sent.body.items as never)).toEqual([]);
  },
  overwriting: (snapshot, recording) => {
    every(snapshot);
    expect(lastSave(recording)!.overwrite).toBe(true);
  },
  publishing: (snapshot, recording) => {
    every(snapshot);
    const sent = lastSave(recording)!;
    expect(sent.body.status).toBe('live');
    expect(sent.body.items).toBeDefined();
    // A graph with problems is never sent to be published.
    expect(validateFlowGraph(sent.body.items as never)).toEqual([]);
  },
  changingStatus: (snapshot, recording) => {
    every(snapshot);
    const sent = lastSave(recording)!;
    expect(sent.body).toEqual({ status: snapshot.context.requestedStatus });
    expect(['paused', 'live']).toContain(snapshot.context.requestedStatus);
  },
  conflict: (snapshot) => {
    every(snapshot);
    expect(snapshot.hasTag('unsaved')).toBe(true);
  },
};

const model = createTestModel(flowBuilderMachine, {
  events: SAMPLES,
  input: INPUT,
  serializeState: serializeState,
});
const { transitions: paths } = everyTransition(flowBuilderMachine, model as never);

describe('flow builder machine (model)', () => {
  it('reaches every state', () => {
    expect(reachedStates(paths)).toEqual([
      'changingStatus',
      'clean',
      'conflict',
      'dirty',
      'loadFailed',
      'loading',
      'notFound',
      'overwriting',
      'publishing',
      'saved',
      'saving',
    ]);
  });

  const bySource = groupBy(paths, (path) => valueKey(path.steps.at(-2)?.state ?? path.state));
  for (const [source, group] of bySource) {
    it(`keeps each state's meaning through the ${group.length} transitions out of ${source}`, () => {
      for (const path of group) replayPath(path, start, checks, INPUT);
    });
  }
});

/** A builder loaded with the fixture flow, its calls recorded. */
function opened() {
  const recording: Recording = { invoked: [], emitted: [] };
  const actor = createActor(start(recording), { input: INPUT });
  actor.start();
  actor.send({ type: 'xstate.done.actor.loadFlow', actorId: 'loadFlow', output: LOAD });
  return { actor, recording };
}

describe('flow builder edits', () => {
  it('adds a step below the selected one and links it from there', () => {
    const { actor } = opened();
    actor.send({ type: 'node.select', key: 'n3' });
    actor.send({ type: 'node.add', node: { kind: 'action', type: 'exit' }, position: null });
    const { items, selected } = actor.getSnapshot().context;
    expect(items).toHaveLength(4);
    expect(items[2]!.next_key).toBe('n4');
    expect(items[3]).toMatchObject({ key: 'n4', settings: { type: 'exit' }, position: { x: 0, y: 420 } });
    expect(selected).toBe('n4');
  });

  it('shows the missing template until one is chosen, and undo brings it back', () => {
    const { actor } = opened();
    const codes = () =>
      actor.getSnapshot().context.problems.map((problem) => `${problem.key}:${problem.code}`);
    expect(codes()).toEqual(['n3:missing_template', 'n3:missing_subject']);
    actor.send({ type: 'node.settings', key: 'n3', settings: CHOSEN });
    expect(codes()).toEqual([]);
    expect(actor.getSnapshot().value).toBe('dirty');
    actor.send({ type: 'undo' });
    expect(codes()).toEqual(['n3:missing_template', 'n3:missing_subject']);
    expect(actor.getSnapshot().context.items).toEqual(GRAPH);
    actor.send({ type: 'redo' });
    expect(actor.getSnapshot().context.items[2]!.settings).toEqual(CHOSEN);
  });

  it('deletes a step with the links into it', () => {
    const { actor } = opened();
    actor.send({ type: 'node.delete', key: 'n2' });
    const { items } = actor.getSnapshot().context;
    expect(items.map((item) => item.key)).toEqual(['n1', 'n3']);
    expect(items[0]!.next_key).toBeNull();
  });

  it('refuses a No link from anything but a condition, and a link to itself', () => {
    const { actor } = opened();
    const before = actor.getSnapshot().context;
    actor.send({ type: 'edge.connect', source: 'n2', handle: 'no', target: 'n3' });
    actor.send({ type: 'edge.connect', source: 'n2', handle: 'next', target: 'n2' });
    expect(actor.getSnapshot().context).toBe(before);
    expect(actor.getSnapshot().value).toBe('clean');
  });

  it('stays dirty when the marketer edits while a save is under way', () => {
    const { actor } = opened();
    actor.send({ type: 'node.move', key: 'n2', position: { x: 10, y: 10 } });
    actor.send({ type: 'save' });
    actor.send({ type: 'node.move', key: 'n2', position: { x: 20, y: 20 } });
    actor.send({ type: 'xstate.done.actor.saveFlow', actorId: 'saveFlow', output: flowWith('draft', 5) });
    expect(actor.getSnapshot().value).toBe('dirty');
    expect(actor.getSnapshot().context.revision).toBe(5);
    actor.send({ type: 'save' });
    actor.send({ type: 'xstate.done.actor.saveFlow', actorId: 'saveFlow', output: flowWith('draft', 6) });
    expect(actor.getSnapshot().value).toBe('saved');
  });

  it('on a conflict overwrites with the marketer’s graph, or reloads theirs', () => {
    const { actor, recording } = opened();
    actor.send({ type: 'node.settings', key: 'n3', settings: CHOSEN });
    actor.send({ type: 'save' });
    actor.send({
      type: 'xstate.error.actor.saveFlow',
      actorId: 'saveFlow',
      error: failure(409, 'flow_conflict'),
    });
    expect(actor.getSnapshot().value).toBe('conflict');
    actor.send({ type: 'conflict.overwrite' });
    const sent = lastSave(recording)!;
    expect(sent.overwrite).toBe(true);
    expect((sent.body.items as typeof GRAPH)[2]!.settings).toEqual(CHOSEN);
    actor.send({
      type: 'xstate.error.actor.saveFlow',
      actorId: 'saveFlow',
      error: failure(409, 'flow_conflict'),
    });
    actor.send({ type: 'conflict.reload' });
    expect(actor.getSnapshot().value).toBe('loading');
  });

  it('refuses to publish a graph with problems, and publishes once they are fixed', () => {
    const { actor, recording } = opened();
    actor.send({ type: 'publish' });
    expect(actor.getSnapshot().value).toBe('clean');
    expect(actor.getSnapshot().context.publishRefused).toBe(true);
    actor.send({ type: 'node.settings', key: 'n3', settings: CHOSEN });
    expect(actor.getSnapshot().context.publishRefused).toBe(false);
    actor.send({ type: 'publish' });
    expect(lastSave(recording)!.body).toMatchObject({ status: 'live', revision: 4, name: 'Welcome' });
    actor.send({ type: 'xstate.done.actor.saveFlow', actorId: 'saveFlow', output: flowWith('live', 5) });
    expect(actor.getSnapshot().value).toBe('saved');
    expect(actor.getSnapshot().context.flow?.status).toBe('live');
  });

  it('does not add a step that needs a list when the company has none', () => {
    const { actor } = opened();
    const context = actor.getSnapshot().context;
    const without = { ...context, choices: { ...CHOICES, lists: [] } };
    const event = {
      type: 'node.add' as const,
      node: { kind: 'action' as const, type: 'add_to_list' as const },
      position: null,
    };
    expect(applyEdit(without, event)).toBe(without);
    expect(applyEdit(context, event).items.at(-1)?.settings).toEqual({ type: 'add_to_list', list_id: 5 });
  });

  it('announces a new draft once made, so the address becomes its id', () => {
    const recording: Recording = { invoked: [], emitted: [] };
    const actor = createActor(start(recording), { input: { ...INPUT, flowId: null } });
    actor.on('*', (event) => recording.emitted.push(event));
    actor.start();
    expect(recording.invoked[0]).toEqual({ src: 'loadFlow', input: { flowId: null, newName: 'New flow' } });
    actor.send({ type: 'xstate.done.actor.loadFlow', actorId: 'loadFlow', output: LOAD });
    expect(recording.emitted).toEqual([{ type: 'flow.created', id: 21 }]);
  });

  it('announces a tidy-up with the layout’s positions (the canvas fits its view to them), also when nothing moved', () => {
    const recording: Recording = { invoked: [], emitted: [] };
    const actor = createActor(start(recording), { input: INPUT });
    actor.on('flow.laidOut', (event) => recording.emitted.push(event));
    actor.start();
    actor.send({ type: 'xstate.done.actor.loadFlow', actorId: 'loadFlow', output: LOAD });
    const items = actor.getSnapshot().context.items;
    const moved = Object.fromEntries(items.map((item, index) => [item.key, { x: 12, y: 12 + 166 * index }]));
    actor.send({ type: 'layout.request' });
    actor.send({ type: 'xstate.done.actor.layOutGraph', actorId: 'layOutGraph', output: moved });
    expect(actor.getSnapshot().context.items.map((item) => item.position)).toEqual(Object.values(moved));
    expect(actor.getSnapshot().hasTag('unsaved')).toBe(items.length > 0);
    // The same answer again moves nothing, and is still announced.
    actor.send({ type: 'xstate.done.actor.layOutGraph', actorId: 'layOutGraph', output: moved });
    expect(recording.emitted).toEqual([
      { type: 'flow.laidOut', positions: moved },
      { type: 'flow.laidOut', positions: moved },
    ]);
  });
});
