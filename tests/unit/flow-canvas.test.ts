import i18next from 'i18next';
import { beforeAll, describe, expect, it } from 'vitest';
import { addNode, link, neighbour, removeNode } from '../../src/machines/support/flow-edits.js';
import type { FlowGraphItem } from '../../src/schemas/flows.js';
import en from '../../src/i18n/locales/en.json';
import {
  canvasEdges,
  canvasNodes,
  edgeId,
  linkOfConnection,
  linkOfEdge,
} from '../../src/views/flows/flow-canvas-model.js';
import { nodeSummary } from '../../src/views/flows/node-summary.js';
import { flowElkGraph, positionsFromElk } from '../../src/visualiser/flow-layout.js';
import { CHOICES, GRAPH } from '../machines/support/flow-fixtures.js';

const i18n = i18next.createInstance();
beforeAll(async () => {
  await i18n.init({
    lng: 'en',
    resources: { en: { translation: en } },
    interpolation: { escapeValue: false },
  });
});

/** A condition n4 after the email: yes → n5 (exit), no → nothing yet. */
const BRANCHED: FlowGraphItem[] = [
  ...GRAPH.slice(0, 2),
  { ...GRAPH[2]!, next_key: 'n4' },
  {
    key: 'n4',
    kind: 'action',
    settings: { type: 'condition', rule: { condition: 'visited_since_entering' } },
    position: { x: 0, y: 420 },
    next_key: 'n5',
    no_key: null,
  },
  {
    key: 'n5',
    kind: 'action',
    settings: { type: 'exit' },
    position: { x: 0, y: 560 },
    next_key: null,
    no_key: null,
  },
];

describe('the graph as xyflow nodes and edges', () => {
  it('draws one node per item with its problems, settings faults, counts and the selection', () => {
    const counts = { n2: { entered: 9, waiting: 4, completed: 5, exited: 0 } };
    const nodes = canvasNodes(GRAPH, {
      problems: [
        { key: 'n3', code: 'missing_template' },
        { key: null, code: 'no_trigger' },
      ],
      unsettled: ['n2'],
      counts,
      selected: 'n3',
    });
    expect(nodes.map((node) => [node.id, node.data.problems, node.selected])).toEqual([
      ['n1', [], false],
      ['n2', ['unsettled'], false],
      ['n3', ['missing_template'], true],
    ]);
    expect(nodes[1]!.data.counts).toEqual(counts.n2);
    expect(nodes[0]!.data.counts).toBeNull();
    expect(nodes[2]!.position).toEqual({ x: 0, y: 280 });
  });

  it('draws one edge per link, a condition’s labelled Yes and No, and reads them back', () => {
    const graph = BRANCHED.map((item) => (item.key === 'n4' ? { ...item, no_key: 'n1' } : item));
    const edges = canvasEdges(graph, { yes: 'Yes', no: 'No' });
    expect(edges).toEqual([
      { id: 'n1:next', source: 'n1', sourceHandle: 'next', target: 'n2' },
      { id: 'n2:next', source: 'n2', sourceHandle: 'next', target: 'n3' },
      { id: 'n3:next', source: 'n3', sourceHandle: 'next', target: 'n4' },
      { id: 'n4:next', source: 'n4', sourceHandle: 'next', target: 'n5', label: 'Yes' },
      { id: 'n4:no', source: 'n4', sourceHandle: 'no', target: 'n1', label: 'No' },
    ]);
    expect(linkOfEdge(edgeId('n4', 'no'))).toEqual({ source: 'n4', handle: 'no' });
    expect(linkOfEdge('xy-edge__n1-n2')).toBeNull();
    expect(linkOfConnection({ source: 'n4', sourceHandle: 'no', target: 'n5' })).toEqual({
      source: 'n4',
      handle: 'no',
      target: 'n5',
    });
    expect(linkOfConnection({ source: 'n1', sourceHandle: null, target: null })).toBeNull();
  });

  it('leaves out links to items that are gone', () => {
    const graph = [{ ...GRAPH[0]!, next_key: 'gone' }];
    expect(canvasEdges(graph, { yes: 'Yes', no: 'No' })).toEqual([]);
  });
});

describe('node summaries', () => {
  const summary = (item: FlowGraphItem) =>
    nodeSummary(i18n.t.bind(i18n), item, CHOICES, (cents) => `$${(cents / 100).toFixed(2)}`);
  const withSettings = (kind: FlowGraphItem['kind'], settings: unknown) =>
    ({ ...GRAPH[0]!, kind, settings }) as FlowGraphItem;

  it('says what each step does in a line', () => {
    expect(summary(GRAPH[1]!)).toBe('Wait 2 days');
    expect(summary(withSettings('delay', { type: 'wait', amount: 1, unit: 'hours' }))).toBe('Wait 1 hour');
    expect(summary(GRAPH[2]!)).toBe('No template chosen');
    expect(summary(withSettings('action', { ...GRAPH[2]!.settings, template_id: 11 }))).toBe(
      'Send “Welcome”',
    );
    expect(summary(withSettings('action', { ...GRAPH[2]!.settings, template_id: 99 }))).toBe(
      'Send “(deleted)”',
    );
    expect(summary(withSettings('trigger', { type: 'joined_list', list_id: 5 }))).toBe('Joins “Newsletter”');
    expect(summary(withSettings('trigger', { type: 'spend_passes', amount_cents: 12_500 }))).toBe(
      'Spend passes $125.00',
    );
    expect(summary(withSettings('trigger', { type: 'birthday', days_before: 0 }))).toBe('On the birthday');
    expect(summary(withSettings('delay', { type: 'wait_until', weekday: 'fri', time: '10:00' }))).toBe(
      'Wait until Friday 10:00',
    );
    expect(summary(BRANCHED[3]!)).toBe('Visited since entering?');
    expect(
      summary(
        withSettings('action', { type: 'condition', rule: { condition: 'in_segment', segment_id: 3 } }),
      ),
    ).toBe('In “Regulars”?');
    expect(summary(withSettings('action', { type: 'webhook', url: 'https://hooks.example.com/a?b=1' }))).toBe(
      'POST to hooks.example.com',
    );
  });
});

describe('graph edits', () => {
  it('adds below a condition on its free No path once Yes is taken', () => {
    const items = structuredClone(BRANCHED);
    const key = addNode(items, { kind: 'action', settings: { type: 'exit' } }, null, 'n4');
    expect(key).toBe('n6');
    expect(items.find((item) => item.key === 'n4')!.no_key).toBe('n6');
    expect(items.at(-1)!.position).toEqual({ x: 260, y: 560 });
  });

  it('never links out of an exit, and removing a node removes the links into it', () => {
    const items = structuredClone(BRANCHED);
    expect(link(items, 'n5', 'next', 'n1')).toBe(false);
    removeNode(items, 'n4');
    expect(items.find((item) => item.key === 'n3')!.next_key).toBeNull();
  });

  it('moves between nodes with the arrow keys along the links', () => {
    expect(neighbour(BRANCHED, 'n2', 'down')).toBe('n3');
    expect(neighbour(BRANCHED, 'n2', 'up')).toBe('n1');
    expect(neighbour(BRANCHED, null, 'down')).toBe('n1');
    expect(neighbour(BRANCHED, 'n1', 'left')).toBeNull();
  });
});

describe('auto-layout input and answer', () => {
  it('gives ELK every node and link, and reads positions back by key', () => {
    const graph = flowElkGraph(BRANCHED);
    expect(graph.children?.map((child) => child.id)).toEqual(['n1', 'n2', 'n3', 'n4', 'n5']);
    expect(graph.edges?.map((edge) => edge.id)).toEqual(['n1:next', 'n2:next', 'n3:next', 'n4:next']);
    expect(
      positionsFromElk({ id: 'flow', children: [{ id: 'n1', x: 10.4, y: 20.6 }, { id: 'n2' }] }),
    ).toEqual({ n1: { x: 10, y: 21 }, n2: { x: 0, y: 0 } });
  });
});
