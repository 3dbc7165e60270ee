import type { FlowGraphItem } from '../schemas/flows.js';
import type { ElkNodeLike } from './layout.js';

// Pure: a flow's graph as an ELK graph (top to bottom, a condition's yes path left of its no path) and ELK's
// answer back as node positions. The layout runs asynchronously in the builder's wiring (elkjs).

/** The size every flow node is drawn at on the canvas (px). */
export const FLOW_NODE_SIZE = { width: 240, height: 96 } as const;

/** The ELK graph of a flow: one box per node, one edge per link. */
export function flowElkGraph(items: readonly FlowGraphItem[]): ElkNodeLike {
  const keys = new Set(items.map((item) => item.key));
  return {
    id: 'flow',
    layoutOptions: {
      'elk.algorithm': 'layered',
      'elk.direction': 'DOWN',
      'elk.spacing.nodeNode': '60',
      'elk.layered.spacing.nodeNodeBetweenLayers': '70',
      'elk.layered.considerModelOrder.strategy': 'NODES_AND_EDGES',
    },
    children: items.map((item) => ({ id: item.key, ...FLOW_NODE_SIZE })),
    edges: items.flatMap((item) =>
      (['next', 'no'] as const)
        .map((handle) => ({ handle, target: handle === 'next' ? item.next_key : item.no_key }))
        .filter(({ target }) => target !== null && keys.has(target))
        .map(({ handle, target }) => ({
          id: `${item.key}:${handle}`,
          sources: [item.key],
          targets: [target as string],
        })),
    ),
  };
}

/** The node positions ELK chose, by key, rounded to whole pixels. */
export function positionsFromElk(graph: ElkNodeLike): Record<string, { x: number; y: number }> {
  return Object.fromEntries(
    (graph.children ?? []).map((child) => [
      child.id,
      { x: Math.round(child.x ?? 0), y: Math.round(child.y ?? 0) },
    ]),
  );
}
