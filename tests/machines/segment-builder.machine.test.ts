import { createTestModel } from '@xstate/graph';
import { createActor, initialTransition, transition, type EventFromLogic, type SnapshotFrom } from 'xstate';
import { describe, expect, it } from 'vitest';
import {
  segmentBuilderMachine,
  type BuilderCatalogue,
  type BuilderInput,
} from '../../src/machines/segment-builder.machine.js';
import type { DraftGroup } from '../../src/machines/support/segment-draft.js';
import type { SegmentType } from '../../src/schemas/segment-catalogue.js';
import {
  pendingActor,
  reachedStates,
  replayPath,
  type Recording,
  type StateChecks,
} from './support/model-paths.js';
import { groupBy, valueKey, type MachinePath } from './support/walk.js';

type Snapshot = SnapshotFrom<typeof segmentBuilderMachine>;
type BuilderEvent = EventFromLogic<typeof segmentBuilderMachine>;

const operator = (name: string, kind: string, range = false) => ({
  operator: name,
  label_key: `segmentRules.operators.${name}`,
  label: name,
  value_kind: kind as SegmentType['operators'][number]['value_kind'],
  range,
});
const window = [{ option: 'window_days' as const, label_key: 'w', label: 'In the last (days)' }];
// A catalogue as GET /campaigns/segment-types/ answers it, cut to the kinds the walk uses.
const TYPES: SegmentType[] = [
  {
    type: 'visit_count',
    label_key: 'v',
    label: 'Visits',
    live: true,
    operators: [operator('gte', 'count'), operator('between', 'count', true)],
    options: window,
  },
  {
    type: 'total_spend',
    label_key: 't',
    label: 'Total spend',
    live: true,
    operators: [operator('gte', 'dollars'), operator('between', 'dollars', true)],
    options: window,
  },
  {
    type: 'location',
    label_key: 'l',
    label: 'Visited location',
    live: true,
    operators: [operator('in', 'location_ids')],
    options: [{ option: 'group_ids', label_key: 'g', label: 'Location groups' }],
  },
  {
    type: 'received',
    label_key: 'r',
    label: 'Received',
    live: false,
    operators: [operator('any', 'campaign_ids')],
    options: window,
  },
];
const CATALOGUE: BuilderCatalogue = {
  types: TYPES,
  choices: {
    locations: [{ id: 3, name: 'Pier' }],
    groups: [{ id: 7, name: 'Coast' }],
    items: [],
    categories: [],
    lists: [],
  },
};
const PREVIEW = {
  all_customers: 120,
  all_customers_pct: 6,
  marketable_customers: 60,
  marketable_pct: 50,
  trackable_customers: 90,
  trackable_pct: 75,
};
const SERVER_DOWN = { status: 500, code: 'internal', message: 'Something went wrong on our side' };
const RULE_REFUSED = {
  status: 400,
  code: 'validation_failed',
  message: 'Please correct the highlighted fields.',
  fields: { 'segment_groups[0].segment_rules[0].value': 'must be a whole number from 0 to 1000000' },
};
const PICKER = { location_id: [3], location_group_id: [] };

/** The events the walk offers in a state: edits aimed at its first group and rule, at most two of each. */
function eventsOf(snapshot: Snapshot): BuilderEvent[] {
  const { groups } = snapshot.context;
  const group = groups[0];
  const rule = group?.rules[0];
  const at = group && rule ? { group: group.key, rule: rule.key } : null;
  return [
    { type: 'catalogue.retry' },
    // A call answers only while it runs.
    ...(snapshot.matches('loading')
      ? ([
          { type: 'xstate.done.actor.loadCatalogue', actorId: 'loadCatalogue', output: CATALOGUE },
          { type: 'xstate.error.actor.loadCatalogue', actorId: 'loadCatalogue', error: SERVER_DOWN },
        ] as BuilderEvent[])
      : []),
    ...(groups.length < 2 ? [{ type: 'group.add' } as const] : []),
    ...(group ? [{ type: 'group.remove', group: group.key } as const] : []),
    ...(group && group.rules.length < 2 ? [{ type: 'rule.add', group: group.key } as const] : []),
    ...(at
      ? ([
          { type: 'rule.remove', ...at },
          ...(group!.rules.length < 2 ? [{ type: 'rule.duplicate', ...at }] : []),
          { type: 'rule.type', ...at, value: rule!.type === 'visit_count' ? 'total_spend' : 'visit_count' },
          { type: 'rule.type', ...at, value: 'location' },
          { type: 'rule.operator', ...at, value: 'between' },
          { type: 'rule.value', ...at, value: 5 },
          { type: 'rule.value', ...at, value: null },
          { type: 'rule.window', ...at, value: 90 },
        ] as BuilderEvent[])
      : []),
    { type: 'edit.undo' },
    { type: 'picker.change', picker: PICKER },
    {
      type: 'errors.show',
      fields: {
        'segment_groups[0].segment_rules[0].value': {
          code: 'not_valid',
          message: 'must be a whole number from 0 to 1000000',
        },
      },
    },
    { type: 'count.due' },
    ...(snapshot.matches({ ready: 'counting' })
      ? ([
          { type: 'xstate.done.actor.previewCount', actorId: 'previewCount', output: PREVIEW },
          { type: 'xstate.error.actor.previewCount', actorId: 'previewCount', error: RULE_REFUSED },
          { type: 'xstate.error.actor.previewCount', actorId: 'previewCount', error: SERVER_DOWN },
        ] as BuilderEvent[])
      : []),
  ];
}

const start = (recording: Recording) =>
  segmentBuilderMachine.provide({
    actors: {
      loadCatalogue: pendingActor('loadCatalogue', recording),
      previewCount: pendingActor('previewCount', recording),
    },
    // The path sends the count's event itself.
    delays: { countDelay: 2 ** 30 },
  });

/** Whether a rule lacks its value, worked out here from the catalogue above (not by the builder's helper). */
function lacks(rule: DraftGroup['rules'][number]): boolean {
  const spec = TYPES.find((type) => type.type === rule.type)!.operators.find(
    (op) => op.operator === rule.operator,
  )!;
  if (spec.range) return !Array.isArray(rule.value) || (rule.value as unknown[]).some((end) => end === null);
  if (spec.value_kind.endsWith('_ids')) return !Array.isArray(rule.value) || rule.value.length === 0;
  return rule.value === null;
}

/** What holds in every state once the catalogue is in: a well-formed, frozen draft. */
function draftIsWellFormed(snapshot: Snapshot) {
  const { groups } = snapshot.context;
  const keys = groups.flatMap((group) => [group.key, ...group.rules.map((rule) => rule.key)]);
  expect(new Set(keys).size).toBe(keys.length);
  // Immer froze it: no action changed it in place.
  expect(Object.isFrozen(groups)).toBe(true);
  for (const rule of groups.flatMap((group) => group.rules)) {
    const type = TYPES.find((entry) => entry.type === rule.type)!;
    const spec = type.operators.find((entry) => entry.operator === rule.operator);
    expect(spec, `${rule.type} has ${rule.operator}`).toBeDefined();
    if (spec!.range) expect(Array.isArray(rule.value)).toBe(true);
    if (spec!.value_kind === 'location_ids') expect(Array.isArray(rule.value)).toBe(true);
    // Options only on types that take them.
    if (!type.options.some((option) => option.option === 'window_days')) expect(rule.window_days).toBeNull();
  }
}

const checks: StateChecks = {
  loading: (snapshot, recording) => {
    expect(snapshot.hasTag('busy')).toBe(true);
    expect(recording.invoked.at(-1)?.src).toBe('loadCatalogue');
  },
  failed: (snapshot) => {
    expect(snapshot.context.problem).toMatchObject({ code: 'internal' });
    expect(snapshot.context.types).toBeNull();
  },
  ready: (snapshot) => {
    expect(snapshot.context.types).toEqual(TYPES);
    draftIsWellFormed(snapshot as Snapshot);
  },
  'ready.waiting': (snapshot) => {
    // A count under way was stopped by the edit: its answer can no longer arrive.
    expect(snapshot.children.previewCount).toBeUndefined();
  },
  'ready.counting': (snapshot, recording) => {
    const { groups, picker } = snapshot.context as Snapshot['context'];
    expect(recording.invoked.at(-1)).toEqual({
      src: 'previewCount',
      input: {
        picker,
        segment_groups: groups.map((group) => ({
          ...(group.id === null ? {} : { id: group.id }),
          segment_rules: group.rules.map(({ type, operator, value, window_days, group_ids }) => ({
            type,
            operator,
            value,
            ...(window_days === null ? {} : { window_days }),
            ...(group_ids.length ? { group_ids } : {}),
          })),
        })),
      },
    });
    expect(groups.flatMap((group) => group.rules).some(lacks)).toBe(false);
  },
  'ready.incomplete': (snapshot) => {
    const { groups, count } = snapshot.context as Snapshot['context'];
    expect(groups.flatMap((group) => group.rules).some(lacks)).toBe(true);
    expect(count).toBeNull();
  },
  'ready.counted': (snapshot) => {
    expect(snapshot.context.count).toEqual(PREVIEW);
    expect(snapshot.context.problem).toBeNull();
  },
  'ready.refused': (snapshot) => {
    const { groups, ruleErrors } = snapshot.context as Snapshot['context'];
    const first = groups[0]?.rules[0];
    // The problem sits on the rule its path names, by the rule's key.
    if (first) expect(ruleErrors[first.key]?.value?.message).toBe('must be a whole number from 0 to 1000000');
  },
  'ready.unavailable': (snapshot) => {
    expect(snapshot.context.problem).toMatchObject({ code: 'internal' });
  },
};

/** Model states: where, the draft's shape, and what is shown. */
function serializeState(snapshot: unknown): string {
  const { value, context } = snapshot as Snapshot;
  return JSON.stringify({
    value,
    groups: context.groups.length,
    rules: context.groups[0]?.rules.length ?? 0,
    lacking: context.groups.some((group) => group.rules.some(lacks)),
  });
}

const model = createTestModel(segmentBuilderMachine, { events: eventsOf, serializeState, input: {} });
const paths = transitionsOf(model);

/**
 * Every transition of the model: the shortest path to each model state (breadth first, by the model's own
 * serializer) extended by each event the model offers there; as ./support/walk.ts does, with the builder's
 * input given to the first snapshot.
 */
function transitionsOf(of: typeof model): MachinePath<typeof segmentBuilderMachine>[] {
  const [initial] = initialTransition(segmentBuilderMachine, {});
  const first = {
    state: initial,
    steps: [{ state: initial, event: { type: 'xstate.init' } as unknown as BuilderEvent }],
    weight: 0,
  };
  const reached = [first];
  const seen = new Set([serializeState(initial)]);
  const all: MachinePath<typeof segmentBuilderMachine>[] = [];
  for (let index = 0; index < reached.length; index += 1) {
    const path = reached[index]!;
    for (const event of eventsOf(path.state)) {
      const [next] = transition(segmentBuilderMachine, path.state, event);
      const extended = {
        state: next,
        steps: [...path.steps, { state: next, event }],
        weight: path.weight + 1,
      };
      all.push(extended);
      const key = of.options.serializeState!(next, undefined, undefined);
      if (seen.has(key)) continue;
      seen.add(key);
      reached.push(extended);
    }
  }
  return all;
}

describe('segment builder machine (model)', () => {
  it('reaches every state', () => {
    expect(reachedStates(paths)).toEqual([
      'failed',
      'loading',
      'ready.counted',
      'ready.counting',
      'ready.incomplete',
      'ready.refused',
      'ready.unavailable',
      'ready.waiting',
    ]);
  });

  it('starts a new segment with one visits rule, and a saved one from its rules with their group ids', () => {
    const fresh = createActor(start({ invoked: [], emitted: [] }), { input: {} }).start();
    fresh.send({
      type: 'xstate.done.actor.loadCatalogue',
      actorId: 'loadCatalogue',
      output: CATALOGUE,
    } as never);
    expect(fresh.getSnapshot().context.groups).toMatchObject([
      { id: null, rules: [{ type: 'visit_count', operator: 'gte', value: 1, window_days: null }] },
    ]);
    const saved: BuilderInput = {
      groups: [
        { id: 41, segment_rules: [{ type: 'total_spend', operator: 'gte', value: 100, window_days: 30 }] },
      ],
    };
    const recording: Recording = { invoked: [], emitted: [] };
    const again = createActor(start(recording).provide({ delays: { countDelay: 0 } }), {
      input: saved,
    }).start();
    again.send({
      type: 'xstate.done.actor.loadCatalogue',
      actorId: 'loadCatalogue',
      output: CATALOGUE,
    } as never);
    again.send({ type: 'count.due' });
    expect(recording.invoked.at(-1)).toEqual({
      src: 'previewCount',
      input: {
        picker: { location_id: [], location_group_id: [] },
        segment_groups: [
          { id: 41, segment_rules: [{ type: 'total_spend', operator: 'gte', value: 100, window_days: 30 }] },
        ],
      },
    });
    fresh.stop();
    again.stop();
  });

  it('keeps a pick made while the catalogue loads for its first count, and shows problems naming no rule', () => {
    const recording: Recording = { invoked: [], emitted: [] };
    const actor = createActor(start(recording).provide({ delays: { countDelay: 0 } }), { input: {} }).start();
    actor.send({ type: 'picker.change', picker: PICKER });
    actor.send({
      type: 'xstate.done.actor.loadCatalogue',
      actorId: 'loadCatalogue',
      output: CATALOGUE,
    } as never);
    actor.send({ type: 'count.due' });
    expect(recording.invoked.at(-1)).toMatchObject({ src: 'previewCount', input: { picker: PICKER } });

    const groupProblem = { code: 'not_valid' as const, message: 'Unknown segment_groups[1].id: 9' };
    const ruleProblem = { code: 'not_valid' as const, message: 'must be a whole number from 0 to 1000000' };
    actor.send({
      type: 'errors.show',
      fields: {
        'segment_groups[1].id': groupProblem,
        'segment_groups[0].segment_rules[0].value': ruleProblem,
      },
    });
    const { setErrors, ruleErrors, groups } = actor.getSnapshot().context;
    expect(setErrors).toEqual({ 'segment_groups[1].id': groupProblem });
    expect(ruleErrors).toEqual({ [groups[0]!.rules[0]!.key]: { value: ruleProblem } });
    actor.send({ type: 'group.add' });
    expect(actor.getSnapshot().context.setErrors).toEqual({});
    actor.stop();
  });

  it('keeps a value across types of the same kind, resets it otherwise, and undoes edits one by one', () => {
    const actor = createActor(start({ invoked: [], emitted: [] }), { input: {} }).start();
    actor.send({
      type: 'xstate.done.actor.loadCatalogue',
      actorId: 'loadCatalogue',
      output: CATALOGUE,
    } as never);
    const group = actor.getSnapshot().context.groups[0]!.key;
    const rule = actor.getSnapshot().context.groups[0]!.rules[0]!.key;
    const at = { group, rule };
    const first = () => actor.getSnapshot().context.groups[0]!.rules[0]!;
    actor.send({ type: 'rule.value', ...at, value: 3 });
    actor.send({ type: 'rule.window', ...at, value: 90 });
    actor.send({ type: 'rule.operator', ...at, value: 'between' });
    expect(first()).toMatchObject({ operator: 'between', value: [null, null], window_days: 90 });
    actor.send({ type: 'rule.value', ...at, value: [2, 4] });
    // Visits between → spend between: same shape, the kind differs (count → dollars): reset.
    actor.send({ type: 'rule.type', ...at, value: 'total_spend' });
    expect(first()).toMatchObject({
      type: 'total_spend',
      operator: 'between',
      value: [null, null],
      window_days: 90,
    });
    // A location takes no window: dropped.
    actor.send({ type: 'rule.type', ...at, value: 'location' });
    expect(first()).toMatchObject({ type: 'location', operator: 'in', value: [], window_days: null });
    actor.send({ type: 'edit.undo' });
    expect(first()).toMatchObject({ type: 'total_spend', operator: 'between', window_days: 90 });
    actor.send({ type: 'edit.undo' });
    actor.send({ type: 'edit.undo' });
    expect(first()).toMatchObject({ type: 'visit_count', operator: 'between', value: [null, null] });
    actor.send({ type: 'edit.undo' });
    actor.send({ type: 'edit.undo' });
    expect(first()).toMatchObject({ type: 'visit_count', operator: 'gte', value: 3, window_days: null });
    actor.stop();
  });

  it('duplicates a group with fresh keys and the same rules', () => {
    const actor = createActor(start({ invoked: [], emitted: [] }), { input: {} }).start();
    actor.send({
      type: 'xstate.done.actor.loadCatalogue',
      actorId: 'loadCatalogue',
      output: CATALOGUE,
    } as never);
    const group = actor.getSnapshot().context.groups[0]!;
    actor.send({ type: 'rule.value', group: group.key, rule: group.rules[0]!.key, value: 7 });
    actor.send({ type: 'group.duplicate', group: group.key });
    const [one, two] = actor.getSnapshot().context.groups;
    expect(two!.key).not.toBe(one!.key);
    expect(two!.rules[0]!.key).not.toBe(one!.rules[0]!.key);
    expect(two!.rules.map(({ key: _key, ...rest }) => rest)).toEqual(
      one!.rules.map(({ key: _key, ...rest }) => rest),
    );
    actor.stop();
  });

  const bySource = groupBy(paths, (path) => valueKey(path.steps.at(-2)?.state ?? path.state));
  for (const [source, group] of bySource) {
    it(`keeps each state's meaning through the ${group.length} transitions out of ${source}`, () => {
      for (const path of group) replayPath(path, start, checks, {});
    });
  }
});
