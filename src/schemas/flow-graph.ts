import type { FlowGraphItem, FlowProblem } from './flows.js';

/**
 * Why a flow's graph cannot be published, one problem per node it concerns (docs/flows.md, "Validation"). The
 * builder shows these on the nodes as the marketer edits; `PUT /campaigns/flows/{id}/` with `status: 'live'`
 * refuses a graph with any (400 `flow_invalid`). Pure, so the browser and the server agree.
 */
export function validateFlowGraph(items: readonly FlowGraphItem[]): FlowProblem[] {
  const problems: FlowProblem[] = [];
  const byKey = new Map(items.map((item) => [item.key, item]));
  const triggers = items.filter((item) => item.kind === 'trigger');
  if (triggers.length === 0) problems.push({ key: null, code: 'no_trigger' });
  for (const extra of triggers.slice(1)) problems.push({ key: extra.key, code: 'many_triggers' });

  for (const item of items) {
    const isCondition = item.kind === 'action' && item.settings.type === 'condition';
    for (const target of [item.next_key, item.no_key]) {
      if (target !== null && !byKey.has(target)) problems.push({ key: item.key, code: 'unknown_target' });
      if (target !== null && byKey.get(target)?.kind === 'trigger') {
        problems.push({ key: item.key, code: 'trigger_not_first' });
      }
    }
    if (!isCondition && item.no_key !== null) problems.push({ key: item.key, code: 'no_path_on_plain_item' });
    if (isCondition && (item.next_key === null || item.no_key === null)) {
      problems.push({ key: item.key, code: 'dangling_branch' });
    }
    if (item.kind === 'action' && item.settings.type === 'send_email') {
      if (item.settings.template_id === null) problems.push({ key: item.key, code: 'missing_template' });
      if (item.settings.subject.trim() === '') problems.push({ key: item.key, code: 'missing_subject' });
    }
  }

  const first = triggers[0];
  if (first !== undefined) {
    const reached = reachableFrom(first.key, byKey);
    for (const item of items) {
      if (!reached.has(item.key)) problems.push({ key: item.key, code: 'unreachable' });
    }
  }
  for (const key of loopsWithoutDelay(items, byKey)) problems.push({ key, code: 'loop_without_delay' });
  return problems;
}

/** The items a walk along next and no links reaches from `start` (itself included). */
export function reachableFrom(start: string, byKey: ReadonlyMap<string, FlowGraphItem>): Set<string> {
  const seen = new Set<string>();
  const stack = [start];
  while (stack.length > 0) {
    const key = stack.pop()!;
    const item = byKey.get(key);
    if (item === undefined || seen.has(key)) continue;
    seen.add(key);
    if (item.next_key !== null) stack.push(item.next_key);
    if (item.no_key !== null) stack.push(item.no_key);
  }
  return seen;
}

/**
 * One key per cycle that passes no delay: a person would go round it at once, forever. Found as the cycles of
 * the graph with the delays taken out (a depth-first walk; a back edge closes a cycle).
 */
function loopsWithoutDelay(
  items: readonly FlowGraphItem[],
  byKey: ReadonlyMap<string, FlowGraphItem>,
): string[] {
  const state = new Map<string, 'open' | 'done'>();
  const found: string[] = [];
  const walk = (key: string): void => {
    state.set(key, 'open');
    const item = byKey.get(key)!;
    for (const target of [item.next_key, item.no_key]) {
      const next = target === null ? undefined : byKey.get(target);
      if (next === undefined || next.kind === 'delay') continue;
      const seen = state.get(next.key);
      if (seen === 'open') found.push(next.key);
      else if (seen === undefined) walk(next.key);
    }
    state.set(key, 'done');
  };
  for (const item of items) if (item.kind !== 'delay' && !state.has(item.key)) walk(item.key);
  return found;
}
