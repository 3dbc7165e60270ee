import type { FlowHandle } from '../../machines/support/flow-edits.js';
import type { FlowGraphItem, FlowNodeCountsResult, FlowProblemCode } from '../../schemas/flows.js';

/** The counts of one node on a live flow. */
export type NodeCounts = FlowNodeCountsResult['counts'][string];

/** What one drawn flow node carries (xyflow's `data`). */
export interface FlowNodeData extends Record<string, unknown> {
  item: FlowGraphItem;
  /** The validation problems that name this node, plus `unsettled` for settings the schema refuses. */
  problems: (FlowProblemCode | 'unsettled')[];
  counts: NodeCounts | null;
}

/** An xyflow node of the builder (only the fields it reads and writes). */
export interface FlowCanvasNode {
  id: string;
  type: 'flowNode';
  position: { x: number; y: number };
  data: FlowNodeData;
  selected: boolean;
}

/** An xyflow edge of the builder: one per link, its handle naming which way out it leaves by. */
export interface FlowCanvasEdge {
  id: string;
  source: string;
  sourceHandle: FlowHandle;
  target: string;
  /** A condition's ways out are labelled Yes and No. */
  label?: string;
}

/** The graph's nodes as the canvas draws them, with their problems, counts and the selection. */
export function canvasNodes(
  items: readonly FlowGraphItem[],
  options: {
    problems: readonly { key: string | null; code: FlowProblemCode }[];
    unsettled: readonly string[];
    counts: FlowNodeCountsResult['counts'] | null;
    selected: string | null;
  },
): FlowCanvasNode[] {
  return items.map((item) => {
    const codes: FlowNodeData['problems'] = options.problems
      .filter((problem) => problem.key === item.key)
      .map((problem) => problem.code);
    if (options.unsettled.includes(item.key)) codes.push('unsettled');
    return {
      id: item.key,
      type: 'flowNode',
      position: item.position,
      data: { item, problems: [...new Set(codes)], counts: options.counts?.[item.key] ?? null },
      selected: item.key === options.selected,
    };
  });
}

/** The graph's links as edges; a condition's are labelled with `labels`. */
export function canvasEdges(
  items: readonly FlowGraphItem[],
  labels: { yes: string; no: string },
): FlowCanvasEdge[] {
  const keys = new Set(items.map((item) => item.key));
  return items.flatMap((item) => {
    const condition = item.kind === 'action' && item.settings.type === 'condition';
    const edges: FlowCanvasEdge[] = [];
    if (item.next_key !== null && keys.has(item.next_key))
      edges.push({
        id: edgeId(item.key, 'next'),
        source: item.key,
        sourceHandle: 'next',
        target: item.next_key,
        ...(condition ? { label: labels.yes } : {}),
      });
    if (item.no_key !== null && keys.has(item.no_key))
      edges.push({
        id: edgeId(item.key, 'no'),
        source: item.key,
        sourceHandle: 'no',
        target: item.no_key,
        label: labels.no,
      });
    return edges;
  });
}

/** An edge's id: its source and way out, so removing it names the link to undo. */
export function edgeId(source: string, handle: FlowHandle): string {
  return `${source}:${handle}`;
}

/** The link an edge id names, or null for an id the builder did not make. */
export function linkOfEdge(id: string): { source: string; handle: FlowHandle } | null {
  const match = /^(.+):(next|no)$/.exec(id);
  return match ? { source: match[1]!, handle: match[2] as FlowHandle } : null;
}

/** A connection drawn on the canvas as the builder's link, or null when it is not one (no target). */
export function linkOfConnection(connection: {
  source: string | null;
  sourceHandle?: string | null;
  target: string | null;
}): { source: string; handle: FlowHandle; target: string } | null {
  if (!connection.source || !connection.target) return null;
  return {
    source: connection.source,
    handle: connection.sourceHandle === 'no' ? 'no' : 'next',
    target: connection.target,
  };
}
