import { Badge, Group, Stack, Text } from '@mantine/core';
import { Handle, type Node, type NodeProps, Position } from '@xyflow/react';
import { createContext, useContext } from 'react';
import { useTranslation } from 'react-i18next';
import type { EditorChoices } from '../../machines/campaign-update-mode.machine.js';
import { FLOW_NODE_SIZE } from '../../visualiser/flow-layout.js';
import type { FlowNodeData } from './flow-canvas-model.js';
import { nodeSummary, nodeTypeName } from './node-summary.js';

/** What every node of the canvas reads besides its own data: the pickers' names and the money format. */
export interface FlowNodeEnvironment {
  choices: EditorChoices;
  formatMoney: (cents: number) => string;
}

/** Given by the canvas to its nodes (xyflow renders them, so props cannot reach them). */
export const FlowNodeEnvironmentContext = createContext<FlowNodeEnvironment | null>(null);

/** The drawn flow node's xyflow type. */
export type FlowFlowNode = Node<FlowNodeData, 'flowNode'>;

const KIND_COLOUR = { trigger: 'grape', action: 'blue', delay: 'orange' } as const;

const handleStyle = { width: 12, height: 12, background: 'var(--mantine-color-gray-7)' };

/**
 * One step of a flow: its kind and type, what it does in one line ("Wait 2 days"), its problems (red, in the
 * user's language) and, on a live flow, its counts. A condition has a Yes and a No handle; a trigger takes no
 * link in and an exit none out.
 */
export function FlowNodeView({ data, selected, isConnectable }: NodeProps<FlowFlowNode>) {
  const { t } = useTranslation();
  const environment = useContext(FlowNodeEnvironmentContext);
  const { item, problems, counts } = data;
  const condition = item.kind === 'action' && item.settings.type === 'condition';
  const exit = item.kind === 'action' && item.settings.type === 'exit';
  const colour = condition ? 'teal' : KIND_COLOUR[item.kind];
  const side = selected
    ? 'var(--mantine-color-blue-7)'
    : problems.length > 0
      ? 'var(--mantine-color-red-7)'
      : 'light-dark(var(--mantine-color-gray-5), var(--mantine-color-dark-3))';
  const summary = environment ? nodeSummary(t, item, environment.choices, environment.formatMoney) : '';
  return (
    <div
      data-node-key={item.key}
      data-node-type={item.settings.type}
      data-problems={problems.join(' ')}
      style={{
        width: FLOW_NODE_SIZE.width,
        minHeight: FLOW_NODE_SIZE.height,
        boxSizing: 'border-box',
        padding: '8px 12px',
        borderRadius: 10,
        background: 'light-dark(var(--mantine-color-white), var(--mantine-color-dark-6))',
        // Longhands only: React re-setting a `border` shorthand on selection wiped the kind's coloured top.
        borderStyle: 'solid',
        borderWidth: '6px 2px 2px',
        borderColor: `var(--mantine-color-${colour}-7) ${side} ${side} ${side}`,
        boxShadow: selected ? '0 0 0 3px var(--mantine-color-blue-2)' : '0 1px 3px rgba(0,0,0,0.12)',
      }}
    >
      {item.kind !== 'trigger' && (
        <Handle type="target" position={Position.Top} style={handleStyle} isConnectable={isConnectable} />
      )}
      <Stack gap={4}>
        <Group gap={6} justify="space-between" wrap="nowrap">
          <Text size="xs" fw={700} tt="uppercase">
            {t(`flows.builder.kind.${item.kind}`)}
          </Text>
          {problems.length > 0 && (
            <Badge color="red" variant="filled" size="sm" aria-label={t('flows.builder.problemsOf')}>
              {problems.length}
            </Badge>
          )}
        </Group>
        <Text size="sm" fw={600} lh={1.25}>
          {nodeTypeName(t, item)}
        </Text>
        <Text size="sm" lh={1.3} style={{ overflowWrap: 'anywhere' }}>
          {summary}
        </Text>
        {problems.map((code) => (
          <Text key={code} size="xs" c="red.9" lh={1.25} data-problem={code}>
            {t(`flows.problems.${code}`)}
          </Text>
        ))}
        {counts && (
          <Text size="xs" c="dimmed" data-counts>
            {t('flows.builder.counts', counts)}
          </Text>
        )}
      </Stack>
      {condition ? (
        <>
          <Handle
            type="source"
            id="next"
            isConnectable={isConnectable}
            position={Position.Bottom}
            style={{ ...handleStyle, left: '30%' }}
          />
          <Handle
            type="source"
            id="no"
            position={Position.Bottom}
            style={{ ...handleStyle, left: '70%' }}
            isConnectable={isConnectable}
          />
          <Group justify="space-between" px="lg" mt={4}>
            <Text size="xs" fw={700} c="teal.9">
              {t('flows.builder.yes')}
            </Text>
            <Text size="xs" fw={700} c="red.9">
              {t('flows.builder.no')}
            </Text>
          </Group>
        </>
      ) : (
        !exit && (
          <Handle
            type="source"
            id="next"
            position={Position.Bottom}
            style={handleStyle}
            isConnectable={isConnectable}
          />
        )
      )}
    </div>
  );
}
