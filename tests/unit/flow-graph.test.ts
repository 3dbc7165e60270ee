import { describe, expect, it } from 'vitest';
import { validateFlowGraph } from '../../src/schemas/flow-graph.js';
import { FlowDelaySettingsSchema, FlowGraphSchema, type FlowGraphItem } from '../../src/schemas/flows.js';

const at = { x: 0, y: 0 };
const trigger = (key: string, next: string | null): FlowGraphItem => ({
  key,
  kind: 'trigger',
  settings: { type: 'first_visit' },
  position: at,
  next_key: next,
  no_key: null,
});
const wait = (key: string, next: string | null): FlowGraphItem => ({
  key,
  kind: 'delay',
  settings: { type: 'wait', amount: 2, unit: 'days' },
  position: at,
  next_key: next,
  no_key: null,
});
const email = (key: string, next: string | null, templateId: number | null = 7): FlowGraphItem => ({
  key,
  kind: 'action',
  settings: {
    type: 'send_email',
    template_id: templateId,
    sender_id: null,
    subject: 'Welcome',
    preheader: '',
  },
  position: at,
  next_key: next,
  no_key: null,
});
const visitedSince = (key: string, yes: string | null, no: string | null): FlowGraphItem => ({
  key,
  kind: 'action',
  settings: { type: 'condition', rule: { condition: 'visited_since_entering' } },
  position: at,
  next_key: yes,
  no_key: no,
});
const exit = (key: string): FlowGraphItem => ({
  key,
  kind: 'action',
  settings: { type: 'exit' },
  position: at,
  next_key: null,
  no_key: null,
});

describe('validateFlowGraph', () => {
  it('accepts the welcome and win-back flow of the issue', () => {
    const graph = [
      trigger('t', 'w1'),
      wait('w1', 'welcome'),
      email('welcome', 'w2'),
      wait('w2', 'visited'),
      visitedSince('visited', 'done', 'winback'),
      email('winback', null),
      exit('done'),
    ];
    expect(FlowGraphSchema.parse(graph)).toHaveLength(7);
    expect(validateFlowGraph(graph)).toEqual([]);
  });

  it('names the flow when it has no trigger and each extra trigger by key', () => {
    expect(validateFlowGraph([email('e', null)])).toEqual([{ key: null, code: 'no_trigger' }]);
    expect(validateFlowGraph([trigger('a', null), trigger('b', null)])).toContainEqual({
      key: 'b',
      code: 'many_triggers',
    });
  });

  it('finds a branch without both paths, a missing template and an unknown target', () => {
    const problems = validateFlowGraph([
      trigger('t', 'c'),
      visitedSince('c', 'e', null),
      email('e', 'ghost', null),
    ]);
    expect(problems).toContainEqual({ key: 'c', code: 'dangling_branch' });
    expect(problems).toContainEqual({ key: 'e', code: 'missing_template' });
    expect(problems).toContainEqual({ key: 'e', code: 'unknown_target' });
  });

  it('refuses a loop without a delay and accepts the same loop through a wait', () => {
    const tight = [trigger('t', 'a'), email('a', 'c'), visitedSince('c', 'x', 'a'), exit('x')];
    expect(validateFlowGraph(tight)).toContainEqual({ key: 'a', code: 'loop_without_delay' });
    const paced = [
      trigger('t', 'a'),
      email('a', 'c'),
      visitedSince('c', 'x', 'w'),
      wait('w', 'a'),
      exit('x'),
    ];
    expect(validateFlowGraph(paced)).toEqual([]);
  });

  it('marks nodes the trigger never reaches and links back into the trigger', () => {
    const problems = validateFlowGraph([trigger('t', 'a'), email('a', 't'), email('island', null)]);
    expect(problems).toContainEqual({ key: 'island', code: 'unreachable' });
    expect(problems).toContainEqual({ key: 'a', code: 'trigger_not_first' });
  });
});

describe('a wait delay', () => {
  it('waits at most a year, whatever the unit, and names amount when longer', () => {
    expect(FlowDelaySettingsSchema.safeParse({ type: 'wait', amount: 365, unit: 'days' }).success).toBe(true);
    expect(
      FlowDelaySettingsSchema.safeParse({ type: 'wait', amount: 365 * 24 * 60, unit: 'minutes' }).success,
    ).toBe(true);
    const tooLong = FlowDelaySettingsSchema.safeParse({ type: 'wait', amount: 366 * 24, unit: 'hours' });
    expect(tooLong.success).toBe(false);
    expect(tooLong.error?.issues[0]?.path).toEqual(['amount']);
  });
});
