import {
  FLOW_LIMITS,
  FlowActionSettingsSchema,
  FlowDelaySettingsSchema,
  FlowTriggerSettingsSchema,
  type FlowActionType,
  type FlowGraphItem,
  type FlowItemKind,
  type FlowTriggerType,
} from '../../schemas/flows.js';
import type { EditorChoices } from '../campaign-update-mode.machine.js';

// Pure edits of a flow's draft graph, written against immer drafts (they change the array they are given),
// shared by the builder machine and its tests. Keys are chosen here, never by the server.

/** Which of a node's two ways out a link leaves by: `next` (a condition's yes) or `no`. */
export type FlowHandle = 'next' | 'no';

/** One node type the palette offers: its kind and its settings' type. */
export type FlowNodeType =
  | { kind: 'trigger'; type: FlowTriggerType }
  | { kind: 'action'; type: FlowActionType }
  | { kind: 'delay'; type: 'wait' | 'wait_until' };

/** Where a node sits on the canvas. */
export interface FlowPoint {
  x: number;
  y: number;
}

/** How far below its parent a node added with the keyboard or a click is put. */
export const NODE_GAP_Y = 140;

/** A key no item of the graph has yet: `n1`, `n2` … */
export function freshKey(items: readonly FlowGraphItem[]): string {
  const taken = new Set(items.map((item) => item.key));
  let index = items.length + 1;
  while (taken.has(`n${index}`)) index += 1;
  return `n${index}`;
}

/**
 * The settings a new node starts with: valid for its schema (so the draft saves), with the first list,
 * segment or location on offer; null when the node needs a choice the company has none of. An email
 * starts without a template, which is the problem the builder shows until one is picked.
 */
export function defaultSettings(
  node: FlowNodeType,
  choices: EditorChoices,
  staffEmail: string,
): FlowGraphItem['settings'] | null {
  const list = choices.lists[0]?.id;
  const segment = choices.segments[0]?.id;
  const location = choices.locations[0]?.id;
  if (node.kind === 'delay')
    return node.type === 'wait'
      ? { type: 'wait', amount: 1, unit: 'days' }
      : { type: 'wait_until', weekday: 'mon', time: '10:00' };
  if (node.kind === 'trigger') {
    switch (node.type) {
      case 'joined_list':
        return list === undefined ? null : { type: node.type, list_id: list };
      case 'nth_visit':
        return { type: node.type, visit_number: 2 };
      case 'visit_at_location':
        return location === undefined ? null : { type: node.type, location_id: location };
      case 'no_visit_for':
        return { type: node.type, days: 30 };
      case 'birthday':
        return { type: node.type, days_before: 7 };
      case 'spend_passes':
        return { type: node.type, amount_cents: 10_000 };
      case 'entered_segment':
        return segment === undefined ? null : { type: node.type, segment_id: segment };
      default:
        return { type: node.type };
    }
  }
  switch (node.type) {
    case 'send_email':
      return { type: 'send_email', template_id: null, sender_id: null, subject: '', preheader: '' };
    case 'add_to_list':
    case 'remove_from_list':
      return list === undefined ? null : { type: node.type, list_id: list };
    case 'update_field':
      return { type: 'update_field', field: 'first_name', value: '' };
    case 'notify_staff':
      return { type: 'notify_staff', emails: [staffEmail], subject: 'New guest in a flow', message: '' };
    case 'webhook':
      return { type: 'webhook', url: 'https://example.com/webhook' };
    case 'condition':
      return { type: 'condition', rule: { condition: 'visited_since_entering' } };
    case 'exit':
      return { type: 'exit' };
  }
}

/** The schema a node kind's settings are checked with. */
const SETTINGS_SCHEMAS = {
  trigger: FlowTriggerSettingsSchema,
  action: FlowActionSettingsSchema,
  delay: FlowDelaySettingsSchema,
} as const;

/** The keys of the nodes whose settings their schema refuses (a value typed half-way), which cannot be saved. */
export function unsettledKeys(items: readonly FlowGraphItem[]): string[] {
  return items
    .filter((item) => !SETTINGS_SCHEMAS[item.kind].safeParse(item.settings).success)
    .map((item) => item.key);
}

/** True when the node ends a path: an exit, which nothing may follow. */
export function isExit(item: FlowGraphItem): boolean {
  return item.kind === 'action' && item.settings.type === 'exit';
}

/** True for a condition, the only node with a `no` way out. */
export function isCondition(item: FlowGraphItem): boolean {
  return item.kind === 'action' && item.settings.type === 'condition';
}

/** The way out a new node below `parent` takes: its free `next`, else a condition's free `no`, else none. */
export function freeHandle(parent: FlowGraphItem): FlowHandle | null {
  if (isExit(parent)) return null;
  if (parent.next_key === null) return 'next';
  if (isCondition(parent) && parent.no_key === null) return 'no';
  return null;
}

/** Keeps a point on the canvas the schema accepts. */
function clampPoint(point: FlowPoint): FlowPoint {
  const clamp = (value: number) =>
    Math.round(Math.min(FLOW_LIMITS.maxCoordinate, Math.max(-FLOW_LIMITS.maxCoordinate, value)));
  return { x: clamp(point.x), y: clamp(point.y) };
}

/**
 * Adds a node. Without a position it goes below `below` (the selected node) and is linked from its free
 * way out; the first node of an empty canvas goes to the origin. Answers the new key.
 */
export function addNode(
  items: FlowGraphItem[],
  node: { kind: FlowItemKind; settings: FlowGraphItem['settings'] },
  position: FlowPoint | null,
  below: string | null,
): string {
  const key = freshKey(items);
  const parent = below === null ? undefined : items.find((item) => item.key === below);
  const handle = parent === undefined ? null : freeHandle(parent);
  const at =
    position ??
    (parent
      ? { x: parent.position.x + (handle === 'no' ? 260 : 0), y: parent.position.y + NODE_GAP_Y }
      : { x: 0, y: items.length * NODE_GAP_Y });
  items.push({
    key,
    kind: node.kind,
    settings: node.settings,
    position: clampPoint(at),
    next_key: null,
    no_key: null,
  } as FlowGraphItem);
  if (parent && handle && position === null) link(items, parent.key, handle, key);
  return key;
}

/** Points `source`'s way out at `target` (null: unlinks it). A `no` link only leaves a condition. */
export function link(
  items: FlowGraphItem[],
  source: string,
  handle: FlowHandle,
  target: string | null,
): boolean {
  const from = items.find((item) => item.key === source);
  if (!from || source === target) return false;
  if (target !== null && !items.some((item) => item.key === target)) return false;
  if (handle === 'no' && !isCondition(from)) return false;
  if (target !== null && isExit(from)) return false;
  if (handle === 'next') from.next_key = target;
  else from.no_key = target;
  return true;
}

/** Removes a node and every link into it. */
export function removeNode(items: FlowGraphItem[], key: string): void {
  const index = items.findIndex((item) => item.key === key);
  if (index < 0) return;
  items.splice(index, 1);
  for (const item of items) {
    if (item.next_key === key) item.next_key = null;
    if (item.no_key === key) item.no_key = null;
  }
}

/** Moves nodes (a drag, or the auto-layout's answer). */
export function placeNodes(items: FlowGraphItem[], positions: Readonly<Record<string, FlowPoint>>): void {
  for (const item of items) {
    const point = positions[item.key];
    if (point) item.position = clampPoint(point);
  }
}

/**
 * Replaces a node's settings; a condition that stops being one loses its `no` path, and an exit its next.
 * Settings of another kind's schema are refused (the panel only sends its node's).
 */
export function setSettings(
  items: FlowGraphItem[],
  key: string,
  settings: FlowGraphItem['settings'],
): boolean {
  const item = items.find((candidate) => candidate.key === key);
  if (!item) return false;
  (item as { settings: FlowGraphItem['settings'] }).settings = settings;
  if (!isCondition(item)) item.no_key = null;
  if (isExit(item)) item.next_key = null;
  return true;
}

/** The node a keyboard arrow goes to: down follows `next` (else `no`), up goes to a node linking here, sideways to the nearest node on that side. */
export function neighbour(
  items: readonly FlowGraphItem[],
  from: string | null,
  direction: 'up' | 'down' | 'left' | 'right',
): string | null {
  const current = items.find((item) => item.key === from);
  if (!current) return items[0]?.key ?? null;
  if (direction === 'down') return current.next_key ?? current.no_key ?? null;
  if (direction === 'up')
    return items.find((item) => item.next_key === current.key || item.no_key === current.key)?.key ?? null;
  const sign = direction === 'right' ? 1 : -1;
  const candidates = items
    .filter((item) => (item.position.x - current.position.x) * sign > 0)
    .sort(
      (a, b) =>
        Math.abs(a.position.y - current.position.y) - Math.abs(b.position.y - current.position.y) ||
        Math.abs(a.position.x - current.position.x) - Math.abs(b.position.x - current.position.x),
    );
  return candidates[0]?.key ?? null;
}
