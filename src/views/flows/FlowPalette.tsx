import { Button, Stack, Text, Title } from '@mantine/core';
import type { DragEvent } from 'react';
import { useTranslation } from 'react-i18next';
import type { FlowNodeType } from '../../machines/support/flow-edits.js';
import { FLOW_TRIGGER_TYPES } from '../../schemas/flows.js';

/** The drag data type of a palette entry (its FlowNodeType as JSON). */
export const PALETTE_DRAG_TYPE = 'application/x-regulars-flow-node';

const PALETTE_BUTTON_STYLES = {
  label: { whiteSpace: 'normal', textAlign: 'start', lineHeight: 1.3, overflow: 'visible' },
} as const;

/** The palette's groups, in order: triggers, actions, delays, conditions, exit. */
export const PALETTE_GROUPS: readonly { group: string; types: readonly FlowNodeType[] }[] = [
  { group: 'trigger', types: FLOW_TRIGGER_TYPES.map((type) => ({ kind: 'trigger' as const, type })) },
  {
    group: 'action',
    types: (
      ['send_email', 'add_to_list', 'remove_from_list', 'update_field', 'notify_staff', 'webhook'] as const
    ).map((type) => ({ kind: 'action' as const, type })),
  },
  {
    group: 'delay',
    types: (['wait', 'wait_until'] as const).map((type) => ({ kind: 'delay' as const, type })),
  },
  { group: 'condition', types: [{ kind: 'action', type: 'condition' }] },
  { group: 'exit', types: [{ kind: 'action', type: 'exit' }] },
];

/**
 * The steps a flow is built from, grouped: each can be dragged onto the canvas, or clicked (or Enter) to
 * go below the selected step. Steps that need a list, segment or location the company lacks are disabled.
 */
export function FlowPalette({
  available,
  disabled,
  onAdd,
}: {
  /** Whether a type can be added now (its default settings exist). */
  available: (node: FlowNodeType) => boolean;
  disabled: boolean;
  onAdd: (node: FlowNodeType) => void;
}) {
  const { t } = useTranslation();
  const startDrag = (event: DragEvent<HTMLButtonElement>, node: FlowNodeType) => {
    event.dataTransfer.setData(PALETTE_DRAG_TYPE, JSON.stringify(node));
    event.dataTransfer.effectAllowed = 'copy';
  };
  return (
    <Stack gap="sm" component="nav" aria-label={t('flows.builder.palette')}>
      <Title order={3} size="h5">
        {t('flows.builder.palette')}
      </Title>
      <Text size="xs" c="dimmed">
        {t('flows.builder.paletteHint')}
      </Text>
      {PALETTE_GROUPS.map(({ group, types }) => (
        <Stack key={group} gap={4} role="group" aria-label={t(`flows.builder.groups.${group}`)}>
          <Text size="xs" fw={700} tt="uppercase">
            {t(`flows.builder.groups.${group}`)}
          </Text>
          {types.map((node) => {
            const usable = available(node);
            return (
              <Button
                key={node.type}
                size="compact-sm"
                variant="default"
                justify="flex-start"
                // Long names ("Spend passes an amount", and longer in de and fr) wrap rather than being cut.
                h="auto"
                mih={28}
                py={4}
                styles={PALETTE_BUTTON_STYLES}
                draggable={!disabled && usable}
                disabled={disabled || !usable}
                title={usable ? undefined : t('flows.builder.needsChoice')}
                data-palette={node.type}
                onDragStart={(event) => startDrag(event, node)}
                onClick={() => onAdd(node)}
              >
                {t(`flows.types.${node.type}`)}
              </Button>
            );
          })}
        </Stack>
      ))}
    </Stack>
  );
}
