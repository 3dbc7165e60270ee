import { type ChartNode, type MachineChart, mergedEdges } from './graph.js';

// Pure: a chart as an ELK graph (nested, compound states containing their children) and ELK's answer back
// as positions. The layout itself runs asynchronously in the screen (elkjs), not here.

/** Where a state is drawn, relative to its parent state (the root relative to the canvas). */
export interface Box {
  x: number;
  y: number;
  width: number;
  height: number;
}

/** The part of ELK's JSON graph this module writes and reads. */
export interface ElkNodeLike {
  id: string;
  x?: number;
  y?: number;
  width?: number;
  height?: number;
  layoutOptions?: Record<string, string>;
  children?: ElkNodeLike[];
  edges?: {
    id: string;
    sources: string[];
    targets: string[];
    labels?: { text: string; width: number; height: number }[];
  }[];
}

const CHAR_WIDTH = 7.5;
const LINE_HEIGHT = 16;
/** At most this many of a state's own (targetless) events are listed inside it. */
export const INTERNAL_SHOWN = 4;

/** The size a leaf state is drawn at: wide enough for its name and the events it handles in place. */
export function leafSize(node: ChartNode): { width: number; height: number } {
  const shown = node.internal.slice(0, INTERNAL_SHOWN);
  const longest = Math.max(node.key.length + 4, ...shown.map((line) => line.length));
  const lines = shown.length + (node.internal.length > INTERNAL_SHOWN ? 1 : 0);
  return {
    width: Math.max(150, Math.ceil(longest * CHAR_WIDTH) + 32),
    height: 48 + lines * LINE_HEIGHT + (node.tags.length > 0 ? LINE_HEIGHT : 0),
  };
}

/** Room at the top of a compound state for its name, badges and own events. */
function compoundPadding(node: ChartNode): string {
  const lines = Math.min(node.internal.length, INTERNAL_SHOWN + 1) + (node.tags.length > 0 ? 1 : 0);
  return `[top=${44 + lines * LINE_HEIGHT},left=16,bottom=16,right=16]`;
}

/** True when one state contains the other (ELK does not lay out edges between a state and its own children). */
function nested(chart: MachineChart, a: string, b: string): boolean {
  const parents = new Map(chart.nodes.map((node) => [node.id, node.parentId]));
  const isAncestor = (ancestor: string, of: string) => {
    for (let current = parents.get(of) ?? null; current !== null; current = parents.get(current) ?? null)
      if (current === ancestor) return true;
    return false;
  };
  return a === b || isAncestor(a, b) || isAncestor(b, a);
}

/** The chart as ELK's input: layered top to bottom, hierarchy laid out as one, edge labels given room. */
export function toElkGraph(chart: MachineChart): ElkNodeLike {
  const byParent = new Map<string | null, ChartNode[]>();
  for (const node of chart.nodes) byParent.set(node.parentId, [...(byParent.get(node.parentId) ?? []), node]);
  const build = (node: ChartNode): ElkNodeLike => {
    const children = byParent.get(node.id) ?? [];
    if (children.length === 0) return { id: node.id, ...leafSize(node) };
    return {
      id: node.id,
      layoutOptions: {
        'elk.padding': compoundPadding(node),
        'elk.direction': node.kind === 'parallel' ? 'RIGHT' : 'DOWN',
      },
      children: children.map(build),
    };
  };
  const roots = byParent.get(null) ?? [];
  return {
    id: '__canvas',
    layoutOptions: {
      'elk.algorithm': 'layered',
      'elk.direction': 'DOWN',
      'elk.hierarchyHandling': 'INCLUDE_CHILDREN',
      'elk.layered.spacing.nodeNodeBetweenLayers': '70',
      'elk.spacing.nodeNode': '40',
      'elk.spacing.edgeLabel': '4',
    },
    children: roots.map(build),
    edges: mergedEdges(chart)
      .filter((edge) => !nested(chart, edge.source, edge.target))
      .map((edge) => ({
        id: edge.id,
        sources: [edge.source],
        targets: [edge.target],
        labels: [{ text: edge.label, width: Math.ceil(edge.label.length * 6.5) + 8, height: LINE_HEIGHT }],
      })),
  };
}

/** ELK's answer as each state's box, relative to its parent. */
export function boxesFromElk(graph: ElkNodeLike): Map<string, Box> {
  const boxes = new Map<string, Box>();
  const walk = (node: ElkNodeLike) => {
    for (const child of node.children ?? []) {
      boxes.set(child.id, {
        x: child.x ?? 0,
        y: child.y ?? 0,
        width: child.width ?? 150,
        height: child.height ?? 48,
      });
      walk(child);
    }
  };
  walk(graph);
  return boxes;
}

/**
 * A plain layout without ELK, should it fail: each state's children in a column inside it. Every state
 * still shows, nested as in the machine.
 */
export function fallbackBoxes(chart: MachineChart): Map<string, Box> {
  const boxes = new Map<string, Box>();
  const byParent = new Map<string | null, ChartNode[]>();
  for (const node of chart.nodes) byParent.set(node.parentId, [...(byParent.get(node.parentId) ?? []), node]);
  const size = (node: ChartNode): { width: number; height: number } => {
    const children = byParent.get(node.id) ?? [];
    if (children.length === 0) return leafSize(node);
    let y = 44 + Math.min(node.internal.length, INTERNAL_SHOWN + 1) * LINE_HEIGHT;
    let width = 150;
    for (const child of children) {
      const childSize = size(child);
      boxes.set(child.id, { x: 16, y, ...childSize });
      y += childSize.height + 24;
      width = Math.max(width, childSize.width + 32);
    }
    return { width, height: y };
  };
  for (const root of byParent.get(null) ?? []) boxes.set(root.id, { x: 0, y: 0, ...size(root) });
  return boxes;
}
