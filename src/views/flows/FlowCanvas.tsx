import '@xyflow/react/dist/style.css';
import {
  applyEdgeChanges,
  applyNodeChanges,
  Background,
  Controls,
  type Edge,
  type EdgeChange,
  type FinalConnectionState,
  MarkerType,
  type NodeChange,
  ReactFlow,
  useReactFlow,
  useStore,
} from '@xyflow/react';
import { useSelector } from '@xstate/react';
import { type DragEvent, type KeyboardEvent, useEffect, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { neighbour, type FlowNodeType } from '../../machines/support/flow-edits.js';
import { FLOW_NODE_SIZE } from '../../visualiser/flow-layout.js';
import { canvasEdges, canvasNodes, linkOfConnection, linkOfEdge } from './flow-canvas-model.js';
import type { FlowBuilderActor } from './flow-builder-actor.js';
import { type FlowFlowNode, FlowNodeEnvironmentContext, FlowNodeView } from './FlowNodeView.js';
import { PALETTE_DRAG_TYPE } from './FlowPalette.js';

const NODE_TYPES = { flowNode: FlowNodeView };

/** How far Shift+arrow moves the selected step (px). */
const KEY_MOVE = 20;

/** How the view fits the nodes: on open and after a tidy-up. */
const FIT = { maxZoom: 1, padding: 0.2 } as const;

/** The node under a pointer, by its key: a link dropped on a step's body (not its handle) goes to it. */
function nodeAt(event: MouseEvent | TouchEvent): string | null {
  const point = 'changedTouches' in event ? event.changedTouches[0] : event;
  if (!point) return null;
  const element = document.elementFromPoint(point.clientX, point.clientY);
  return element?.closest('.react-flow__node')?.getAttribute('data-id') ?? null;
}

/**
 * The canvas (xyflow): the graph's nodes and links, drawn from the machine's state. Dragging a node moves it
 * (sent once, when dropped); drawing from a handle links; a palette entry dropped here adds a step there.
 * Keyboard: arrows move between steps, Shift+arrows move the selected step, Enter opens its settings (where
 * its links are chosen), Delete removes the selected step (or link). A tidy-up fits the view to the nodes; a
 * resize (a phone turned, a window made smaller) fits it again unless the user panned or zoomed it.
 */
export function FlowCanvas({
  actor,
  editable,
  formatMoney,
  onOpenSettings,
}: {
  actor: FlowBuilderActor;
  editable: boolean;
  formatMoney: (cents: number) => string;
  onOpenSettings: () => void;
}) {
  const { t } = useTranslation();
  const flow = useReactFlow();
  const items = useSelector(actor, (state) => state.context.items);
  const problems = useSelector(actor, (state) => state.context.problems);
  const unsettled = useSelector(actor, (state) => state.context.unsettled);
  const counts = useSelector(actor, (state) => state.context.counts);
  const selected = useSelector(actor, (state) => state.context.selected);
  const choices = useSelector(actor, (state) => state.context.choices);
  const [nodes, setNodes] = useState<FlowFlowNode[]>([]);
  const [edges, setEdges] = useState<Edge[]>([]);
  // The machine's graph is the truth; the local copies only carry a drag under way and xyflow's measurements.
  useEffect(() => {
    setNodes(canvasNodes(items, { problems, unsettled, counts, selected }));
  }, [items, problems, unsettled, counts, selected]);
  useEffect(() => {
    setEdges(
      canvasEdges(items, { yes: t('flows.builder.yes'), no: t('flows.builder.no') }).map((edge) => ({
        ...edge,
        markerEnd: { type: MarkerType.ArrowClosed, width: 18, height: 18 },
        style: { strokeWidth: 2 },
        labelStyle: { fontWeight: 700 },
      })),
    );
  }, [items, t]);
  const environment = useMemo(() => ({ choices, formatMoney }), [choices, formatMoney]);
  // Fit on open only a graph that has nodes: xyflow otherwise fits when the first step is dropped, and that
  // step jumped to the middle, under the steps dropped after it (their handles hidden, links impossible).
  const [fitOnOpen] = useState(() => items.length > 0);
  // Whether the user panned or zoomed the view: until then it is kept fitted when the canvas changes size.
  const userMoved = useRef(false);
  const hasNodes = items.length > 0;
  // A phone turned sideways or a window resized: the fitted view is fitted again once xyflow has measured the
  // pane at its new size (a timer raced that measure on a busy machine). Only when the window's size changed:
  // a panel opening beside the canvas leaves the view where it is.
  const paneSize = useStore((store) => `${store.width}x${store.height}`);
  const fittedWindow = useRef(`${window.innerWidth}x${window.innerHeight}`);
  useEffect(() => {
    const windowSize = `${window.innerWidth}x${window.innerHeight}`;
    if (windowSize === fittedWindow.current) return;
    fittedWindow.current = windowSize;
    if (hasNodes && !userMoved.current) void flow.fitView(FIT);
  }, [flow, hasNodes, paneSize]);
  // After a tidy-up the view fits the nodes' new places (taken from the layout itself, not xyflow's copy,
  // which may not have them yet), and is kept fitted again.
  useEffect(() => {
    const laidOut = actor.on('flow.laidOut', ({ positions }) => {
      userMoved.current = false;
      const points = Object.values(positions);
      if (points.length === 0) return;
      const x = Math.min(...points.map((point) => point.x));
      const y = Math.min(...points.map((point) => point.y));
      const width = Math.max(...points.map((point) => point.x)) + FLOW_NODE_SIZE.width - x;
      const height = Math.max(...points.map((point) => point.y)) + FLOW_NODE_SIZE.height * 1.5 - y;
      requestAnimationFrame(
        () => void flow.fitBounds({ x, y, width, height }, { padding: FIT.padding, duration: 200 }),
      );
    });
    return () => laidOut.unsubscribe();
  }, [actor, flow]);

  const onNodesChange = (changes: NodeChange<FlowFlowNode>[]) => {
    setNodes((current) => applyNodeChanges(changes, current));
    for (const change of changes) {
      if (change.type === 'select' && change.selected) actor.send({ type: 'node.select', key: change.id });
      if (change.type === 'position' && change.dragging === false && change.position)
        actor.send({ type: 'node.move', key: change.id, position: change.position });
    }
  };
  const onEdgesChange = (changes: EdgeChange[]) => setEdges((current) => applyEdgeChanges(changes, current));
  const onDrop = (event: DragEvent<HTMLDivElement>) => {
    const data = event.dataTransfer.getData(PALETTE_DRAG_TYPE);
    if (!data || !editable) return;
    event.preventDefault();
    const node = JSON.parse(data) as FlowNodeType;
    const position = flow.screenToFlowPosition({ x: event.clientX, y: event.clientY });
    actor.send({ type: 'node.add', node, position });
  };
  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    const arrows = { ArrowUp: 'up', ArrowDown: 'down', ArrowLeft: 'left', ArrowRight: 'right' } as const;
    const direction = arrows[event.key as keyof typeof arrows];
    if (direction && event.shiftKey) {
      event.preventDefault();
      const item = items.find((candidate) => candidate.key === selected);
      if (!item || !editable) return;
      const step = { up: [0, -1], down: [0, 1], left: [-1, 0], right: [1, 0] }[direction];
      actor.send({
        type: 'node.move',
        key: item.key,
        position: { x: item.position.x + step[0]! * KEY_MOVE, y: item.position.y + step[1]! * KEY_MOVE },
      });
    } else if (direction) {
      event.preventDefault();
      const next = neighbour(items, selected, direction);
      if (next !== null) {
        actor.send({ type: 'node.select', key: next });
        const item = items.find((candidate) => candidate.key === next);
        if (item) {
          userMoved.current = true;
          void flow.setCenter(item.position.x + 120, item.position.y + 48, { zoom: flow.getZoom() });
        }
      }
    } else if (event.key === 'Enter' && selected !== null) {
      event.preventDefault();
      onOpenSettings();
    } else if ((event.key === 'Delete' || event.key === 'Backspace') && editable) {
      const edge = edges.find((candidate) => candidate.selected);
      const link = edge ? linkOfEdge(edge.id) : null;
      if (link) actor.send({ type: 'edge.disconnect', ...link });
      else if (selected !== null) actor.send({ type: 'node.delete', key: selected });
      event.preventDefault();
    }
  };
  return (
    <FlowNodeEnvironmentContext.Provider value={environment}>
      <div
        style={{ width: '100%', height: '100%' }}
        tabIndex={0}
        role="application"
        aria-label={t('flows.builder.canvas')}
        aria-describedby="flow-keyboard-help"
        onKeyDown={onKeyDown}
        onDragOver={(event) => {
          event.preventDefault();
          event.dataTransfer.dropEffect = 'copy';
        }}
        onDrop={onDrop}
      >
        <ReactFlow<FlowFlowNode>
          nodes={nodes}
          edges={edges}
          nodeTypes={NODE_TYPES}
          onNodesChange={onNodesChange}
          onEdgesChange={onEdgesChange}
          onConnect={(connection) => {
            const link = linkOfConnection(connection);
            if (link && editable) actor.send({ type: 'edge.connect', ...link });
          }}
          onConnectEnd={(event, state: FinalConnectionState) => {
            // Dropped on a step's body rather than its handle: link to that step (not to a trigger or itself).
            if (state.isValid || !state.fromNode || state.fromHandle?.type !== 'source' || !editable) return;
            const target = nodeAt(event);
            const item = items.find((candidate) => candidate.key === target);
            if (!item || item.kind === 'trigger' || item.key === state.fromNode.id) return;
            const link = linkOfConnection({
              source: state.fromNode.id,
              sourceHandle: state.fromHandle.id ?? null,
              target: item.key,
            });
            if (link) actor.send({ type: 'edge.connect', ...link });
          }}
          connectionRadius={32}
          onPaneClick={() => actor.send({ type: 'node.select', key: null })}
          nodesDraggable={editable}
          nodesConnectable={editable}
          deleteKeyCode={null}
          // Only the user's own pan or zoom has an event; the app's fits have none.
          onMoveStart={(event) => {
            if (event) userMoved.current = true;
          }}
          fitView={fitOnOpen}
          fitViewOptions={FIT}
          minZoom={0.2}
          maxZoom={1.5}
        >
          <Background gap={24} />
          <Controls
            showInteractive={false}
            onZoomIn={() => void (userMoved.current = true)}
            onZoomOut={() => void (userMoved.current = true)}
            // The fit button brings back a view that follows the canvas's size.
            onFitView={() => void (userMoved.current = false)}
          />
        </ReactFlow>
      </div>
    </FlowNodeEnvironmentContext.Provider>
  );
}
