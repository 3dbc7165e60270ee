import '@xyflow/react/dist/style.css';
import { Badge, Group, Text } from '@mantine/core';
import { useElementSize } from '@mantine/hooks';
import {
  Controls,
  type Edge,
  Handle,
  MarkerType,
  MiniMap,
  type Node,
  type NodeProps,
  Position,
  ReactFlow,
} from '@xyflow/react';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { type ChartNode, type MachineChart, mergedEdges } from '../../../visualiser/graph.js';
import { type Box, INTERNAL_SHOWN } from '../../../visualiser/layout.js';
import {
  chartBounds,
  LEGIBLE_ZOOM,
  OPENING_MAX_ZOOM,
  openingView,
  PANEL_PADDING,
  panelHeight,
} from '../../../visualiser/viewport.js';
import { MUTED_TEXT } from '../../shell/contrast.js';

/** What one drawn state carries. */
interface StateData extends Record<string, unknown> {
  node: ChartNode;
  compound: boolean;
  active: boolean;
}

type StateFlowNode = Node<StateData, 'state'>;

const ACTIVE = 'var(--mantine-color-teal-7)';

/** One state: its name and badges (initial, parallel, region, final), its tags and the events it handles in place. */
function StateNodeView({ data }: NodeProps<StateFlowNode>) {
  const { t } = useTranslation();
  const { node, compound, active } = data;
  const parallelChild = node.region;
  return (
    <div
      data-state-id={node.id}
      data-active={active ? 'true' : 'false'}
      data-kind={node.kind}
      style={{
        width: '100%',
        height: '100%',
        boxSizing: 'border-box',
        padding: '6px 10px',
        borderRadius: 10,
        border: `${active ? 3 : 1.5}px ${parallelChild ? 'dashed' : 'solid'} ${
          active ? ACTIVE : 'light-dark(var(--mantine-color-gray-6), var(--mantine-color-dark-2))'
        }`,
        outline: node.kind === 'final' ? '1.5px solid var(--mantine-color-gray-6)' : undefined,
        outlineOffset: 2,
        background: compound
          ? 'light-dark(rgba(241, 243, 245, 0.6), rgba(37, 38, 43, 0.6))'
          : active
            ? 'light-dark(var(--mantine-color-teal-0), var(--mantine-color-dark-5))'
            : 'light-dark(#fff, var(--mantine-color-dark-6))',
        color: 'light-dark(var(--mantine-color-black), var(--mantine-color-white))',
        fontSize: 12,
      }}
    >
      <Handle type="target" position={Position.Top} isConnectable={false} />
      <Group gap={4} wrap="nowrap">
        {node.initial && !node.region && (
          <span aria-label={t('visualiser.chart.initial')} title={t('visualiser.chart.initial')}>
            ●
          </span>
        )}
        <Text span fw={700} size="sm">
          {node.key}
        </Text>
        {node.kind === 'parallel' && (
          <Badge size="xs" variant="outline" color="grape">
            {t('visualiser.chart.parallel')}
          </Badge>
        )}
        {node.region && (
          <Badge size="xs" variant="outline" color="grape">
            {t('visualiser.chart.region')}
          </Badge>
        )}
        {node.kind === 'final' && (
          <Badge size="xs" variant="outline" color="gray">
            {t('visualiser.chart.final')}
          </Badge>
        )}
        {node.kind === 'history' && (
          <Badge size="xs" variant="outline" color="gray">
            {t('visualiser.chart.history')}
          </Badge>
        )}
        {active && (
          <Badge size="xs" color="teal.9">
            {t('visualiser.chart.active')}
          </Badge>
        )}
      </Group>
      {node.tags.length > 0 && (
        <Text size="xs" c={MUTED_TEXT} lh="16px">
          {node.tags.map((tag) => `#${tag}`).join(' ')}
        </Text>
      )}
      {node.internal.slice(0, INTERNAL_SHOWN).map((label) => (
        <Text key={label} size="xs" lh="16px" ff="monospace" c={MUTED_TEXT} truncate="end">
          ↻ {label}
        </Text>
      ))}
      {node.internal.length > INTERNAL_SHOWN && (
        <Text size="xs" lh="16px" c={MUTED_TEXT}>
          +{node.internal.length - INTERNAL_SHOWN}
        </Text>
      )}
      <Handle type="source" position={Position.Bottom} isConnectable={false} />
    </div>
  );
}

const NODE_TYPES = { state: StateNodeView };

/** A state's fill in the minimap. */
function minimapColor(data: StateData): string {
  if (data.compound) return 'rgba(206, 212, 218, 0.35)';
  return data.active ? '#099268' : '#868e96';
}

/** A panel narrower than this is a phone's: it gets a lower panel and a smaller minimap. */
const NARROW_PANEL = 560;

/**
 * A machine's statechart drawn with @xyflow/react: compound states contain their children, parallel
 * regions are dashed, the initial state carries a dot, edges read `event [guard]` (`always` and `after`
 * ones dashed), and the active states of the chosen live actor are highlighted. Pans and zooms, so it
 * works on a phone. It opens fitted to its panel, never below a legible zoom, with zoom controls and a
 * minimap.
 */
export function StatechartView({
  chart,
  boxes,
  active,
}: {
  chart: MachineChart;
  boxes: ReadonlyMap<string, Box>;
  active: ReadonlySet<string>;
}) {
  const { t } = useTranslation();
  const parents = useMemo(() => new Set(chart.nodes.map((node) => node.parentId)), [chart]);
  const nodes = useMemo(
    (): StateFlowNode[] =>
      chart.nodes.map((node) => {
        const box = boxes.get(node.id) ?? { x: 0, y: 0, width: 150, height: 48 };
        return {
          id: node.id,
          type: 'state',
          position: { x: box.x, y: box.y },
          width: box.width,
          height: box.height,
          ...(node.parentId ? { parentId: node.parentId, extent: 'parent' as const } : {}),
          data: { node, compound: parents.has(node.id), active: active.has(node.id) },
          draggable: false,
          selectable: false,
          zIndex: node.depth,
        };
      }),
    [chart, boxes, active, parents],
  );
  // Transitions between the same two states share one arrow and one label.
  const edges = useMemo(
    (): Edge[] =>
      mergedEdges(chart).map((edge) => ({
        id: edge.id,
        source: edge.source,
        target: edge.target,
        label: edge.label,
        type: 'smoothstep',
        markerEnd: { type: MarkerType.ArrowClosed },
        zIndex: 100,
        style: edge.kind === 'event' ? undefined : { strokeDasharray: '6 4' },
        labelStyle: { fontSize: 12, fontFamily: 'monospace', fill: '#1a1b1e' },
        labelBgStyle: { fill: '#fff', fillOpacity: 0.92 },
        labelBgPadding: [4, 2] as [number, number],
        focusable: false,
      })),
    [chart],
  );
  const bounds = useMemo(
    () =>
      chartBounds(
        chart.nodes
          .filter((node) => node.parentId === null)
          .flatMap((node) => {
            const box = boxes.get(node.id);
            return box ? [box] : [];
          }),
      ),
    [chart, boxes],
  );
  // The panel is as tall as the chart at its opening zoom (no empty band), within a phone's or a desktop's limit.
  const { ref, width } = useElementSize();
  const narrow = width < NARROW_PANEL;
  const height =
    width > 0 ? panelHeight(bounds, width, { minHeight: 200, maxHeight: narrow ? 440 : 560 }) : 200;
  // Fitted by React Flow when the chart fits at a legible zoom, else opened legible from its top-left.
  const opening = openingView(bounds, { width, height });
  const legend = t('visualiser.chart.legend');
  return (
    <div ref={ref} style={{ width: '100%', height }} data-testid="statechart-panel">
      {width > 0 && (
        <ReactFlow
          // A panel resized by more than a few pixels (a phone turned) opens the chart anew for its size.
          key={Math.round(width / 40)}
          nodes={nodes}
          edges={edges}
          nodeTypes={NODE_TYPES}
          fitView={opening.kind === 'fit'}
          fitViewOptions={{ padding: `${PANEL_PADDING}px`, minZoom: LEGIBLE_ZOOM, maxZoom: OPENING_MAX_ZOOM }}
          {...(opening.kind === 'corner' ? { defaultViewport: opening.viewport } : {})}
          minZoom={0.1}
          maxZoom={2}
          nodesDraggable={false}
          nodesConnectable={false}
          nodesFocusable={false}
          edgesFocusable={false}
          elementsSelectable={false}
          // The attribution link fails AA contrast in its default grey; the library is credited in package.json.
          proOptions={{ hideAttribution: true }}
          ariaLabelConfig={{
            'node.a11yDescription.default': legend,
            'node.a11yDescription.keyboardDisabled': legend,
            'edge.a11yDescription.default': legend,
            'controls.ariaLabel': t('visualiser.chart.controls'),
            'controls.zoomIn.ariaLabel': t('visualiser.chart.zoomIn'),
            'controls.zoomOut.ariaLabel': t('visualiser.chart.zoomOut'),
            'controls.fitView.ariaLabel': t('visualiser.chart.fitView'),
            'minimap.ariaLabel': t('visualiser.chart.minimap'),
          }}
        >
          <Controls
            showInteractive={false}
            // The fit button shows the whole chart, however small.
            fitViewOptions={{ padding: `${PANEL_PADDING}px`, maxZoom: OPENING_MAX_ZOOM }}
          />
          <MiniMap
            pannable
            zoomable
            style={narrow ? { width: 110, height: 80 } : { width: 180, height: 120 }}
            // Compound states stay pale so the states inside them show; an active leaf is teal.
            nodeColor={(node) => minimapColor(node.data as StateData)}
            nodeStrokeColor="#495057"
            nodeStrokeWidth={2}
            maskColor="rgba(240, 242, 245, 0.6)"
          />
        </ReactFlow>
      )}
    </div>
  );
}
