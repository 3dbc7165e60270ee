import { Alert, Box, Button, Group, Loader, Modal, Stack, Text, Title } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { ReactFlowProvider } from '@xyflow/react';
import { useSelector } from '@xstate/react';
import { useCallback, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { defaultSettings, type FlowNodeType } from '../../machines/support/flow-edits.js';
import type { LeaveGuard } from '../campaigns/CampaignEditorView.js';
import { problemMessage } from '../shared/problem-message.js';
import { FlowCanvas } from './FlowCanvas.js';
import type { FlowBuilderActor } from './flow-builder-actor.js';
import { FlowPalette } from './FlowPalette.js';
import { FlowSettingsDialog } from './FlowSettingsDialog.js';
import { FlowStatusBadge } from './FlowStatusBadge.js';
import { nodeSummary, nodeTypeName } from './node-summary.js';
import { NodeSettingsPanel } from './NodeSettingsPanel.js';

/** True when the key press is typing in a field (undo there is the field's own). */
function typing(target: EventTarget | null): boolean {
  return (
    target instanceof HTMLElement &&
    (target.isContentEditable || /^(INPUT|TEXTAREA|SELECT)$/.test(target.tagName))
  );
}

/**
 * /flows/builder/{id}: the palette, the canvas and the selected step's settings, with the save state,
 * undo and redo, tidy-up (auto-layout), the flow's settings, publish, pause and resume; the problems that
 * stop publishing are drawn on the steps. A phone stacks the three.
 */
export function FlowBuilderView({
  actor,
  canWrite,
  formatMoney,
  leaveGuard,
  onBackToList,
}: {
  actor: FlowBuilderActor;
  canWrite: boolean;
  formatMoney: (cents: number) => string;
  leaveGuard: LeaveGuard;
  onBackToList: () => void;
}) {
  const { t } = useTranslation();
  const phone = useMediaQuery('(max-width: 48em)');
  const loading = useSelector(actor, (state) => state.matches('loading'));
  const loadFailed = useSelector(actor, (state) => state.matches('loadFailed'));
  const conflict = useSelector(actor, (state) => state.matches('conflict'));
  const editableState = useSelector(actor, (state) => state.hasTag('editable'));
  const busy = useSelector(actor, (state) => state.hasTag('busy'));
  const saveState = useSelector(actor, (state) =>
    state.matches('saving') || state.matches('overwriting') || state.matches('publishing')
      ? 'saving'
      : state.matches('dirty')
        ? 'dirty'
        : state.matches('saved')
          ? 'saved'
          : 'clean',
  );
  const context = useSelector(actor, (state) => state.context);
  const { fields, flow, problems, unsettled, publishRefused, problem, choices, staffEmail } = context;
  const selectedItem = context.items.find((item) => item.key === context.selected) ?? null;
  const editable = editableState && canWrite;
  const [settingsOpen, setSettingsOpen] = useState(false);
  const panel = useRef<HTMLDivElement>(null);
  const openSettings = useCallback(() => {
    const field = panel.current?.querySelector<HTMLElement>('input, textarea, button');
    panel.current?.scrollIntoView({ block: 'nearest' });
    field?.focus();
  }, []);
  // Undo and redo anywhere on the page but in a text field.
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (!(event.ctrlKey || event.metaKey) || typing(event.target) || !editable) return;
      const key = event.key.toLowerCase();
      if (key === 'z' || key === 'y') {
        event.preventDefault();
        actor.send({ type: key === 'y' || event.shiftKey ? 'redo' : 'undo' });
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [actor, editable]);
  const available = (node: FlowNodeType) => defaultSettings(node, choices, staffEmail) !== null;
  const status = flow?.status ?? 'draft';
  if (loading)
    return (
      <Group gap="xs">
        <Loader size="sm" />
        <Text size="sm">{t('flows.builder.newName')}</Text>
      </Group>
    );
  if (loadFailed)
    return (
      <Alert color="red" title={t('flows.builder.loadFailed')}>
        <Stack gap="sm" align="flex-start">
          <Text size="sm">{problemMessage(t, 'flows', problem)}</Text>
          <Group>
            <Button onClick={() => actor.send({ type: 'retry' })}>{t('flows.builder.retry')}</Button>
            <Button variant="subtle" onClick={onBackToList}>
              {t('flows.builder.backToList')}
            </Button>
          </Group>
        </Stack>
      </Alert>
    );
  const saveText = t(`flows.builder.${saveState}`);
  return (
    <Stack gap="sm">
      <Group justify="space-between" wrap="wrap" gap="sm">
        <Group gap="sm" wrap="wrap">
          <Title order={2}>{fields.name.trim() || t('flows.builder.newName')}</Title>
          <FlowStatusBadge status={status} />
          <Text size="sm">
            {flow?.version ? t('flows.versionNumber', { version: flow.version }) : t('flows.notPublished')}
            {flow?.has_unpublished_changes && status !== 'draft' ? ` · ${t('flows.unpublished')}` : ''}
          </Text>
          <Text size="sm" c="dimmed" role="status" data-save-state={saveState}>
            {saveText}
          </Text>
        </Group>
        <Button variant="subtle" onClick={onBackToList}>
          {t('flows.builder.backToList')}
        </Button>
      </Group>
      {canWrite ? (
        <Group gap="xs" wrap="wrap">
          <Button
            size="xs"
            variant="default"
            disabled={!editable || context.past.length === 0}
            onClick={() => actor.send({ type: 'undo' })}
          >
            {t('flows.builder.undo')}
          </Button>
          <Button
            size="xs"
            variant="default"
            disabled={!editable || context.future.length === 0}
            onClick={() => actor.send({ type: 'redo' })}
          >
            {t('flows.builder.redo')}
          </Button>
          <Button
            size="xs"
            variant="default"
            disabled={!editable || context.items.length === 0}
            onClick={() => actor.send({ type: 'layout.request' })}
          >
            {t('flows.builder.layout')}
          </Button>
          <Button size="xs" variant="default" onClick={() => setSettingsOpen(true)}>
            {t('flows.builder.settings')}
          </Button>
          <Button
            size="xs"
            disabled={saveState !== 'dirty' || busy}
            loading={saveState === 'saving'}
            onClick={() => actor.send({ type: 'save' })}
          >
            {t('flows.builder.save')}
          </Button>
          <Button
            size="xs"
            disabled={
              busy ||
              conflict ||
              (status === 'live' && !flow?.has_unpublished_changes && saveState !== 'dirty')
            }
            onClick={() => actor.send({ type: 'publish' })}
          >
            {status === 'draft' ? t('flows.builder.publish') : t('flows.builder.publishChanges')}
          </Button>
          {status === 'live' && (
            <Button
              size="xs"
              color="yellow"
              variant="light"
              c="var(--mantine-color-text)"
              disabled={busy}
              onClick={() => actor.send({ type: 'pause' })}
            >
              {t('flows.builder.pause')}
            </Button>
          )}
          {status === 'paused' && (
            <Button size="xs" variant="light" disabled={busy} onClick={() => actor.send({ type: 'resume' })}>
              {t('flows.builder.resume')}
            </Button>
          )}
        </Group>
      ) : (
        <Text size="sm">{t('flows.builder.readOnly')}</Text>
      )}
      {problem && (
        <Alert
          color="red"
          withCloseButton
          closeButtonLabel={t('kit.close')}
          onClose={() => actor.send({ type: 'problem.dismiss' })}
        >
          {problemMessage(t, 'flows', problem)}
        </Alert>
      )}
      {publishRefused && (
        <Alert
          color="red"
          withCloseButton
          closeButtonLabel={t('kit.close')}
          onClose={() => actor.send({ type: 'problem.dismiss' })}
        >
          {t('flows.builder.publishRefused')}
        </Alert>
      )}
      {unsettled.length > 0 && <Alert color="yellow">{t('flows.builder.unsettled')}</Alert>}
      <Text size="sm" c={problems.length > 0 ? 'red.9' : 'dimmed'} data-problem-count={problems.length}>
        {problems.length > 0 ? t('flows.builder.problemsCount', { count: problems.length }) : ''}
        {problems
          .filter((item) => item.key === null)
          .map((item) => ` ${t(`flows.problems.${item.code}`)}`)
          .join('')}
      </Text>
      <Box
        style={{
          display: 'grid',
          gap: 'var(--mantine-spacing-md)',
          gridTemplateColumns: phone ? '1fr' : '200px minmax(0, 1fr) 300px',
          alignItems: 'start',
        }}
      >
        <Box style={phone ? { maxHeight: 220, overflowY: 'auto' } : { maxHeight: '70vh', overflowY: 'auto' }}>
          <FlowPalette
            available={available}
            disabled={!editable}
            onAdd={(node) => actor.send({ type: 'node.add', node, position: null })}
          />
        </Box>
        <Stack gap={4}>
          <Box
            style={{
              height: phone ? 440 : '70vh',
              minHeight: 420,
              border: '1px solid light-dark(var(--mantine-color-gray-4), var(--mantine-color-dark-4))',
              borderRadius: 8,
              position: 'relative',
            }}
          >
            <ReactFlowProvider>
              <FlowCanvas
                actor={actor}
                editable={editable}
                formatMoney={formatMoney}
                onOpenSettings={openSettings}
              />
            </ReactFlowProvider>
            {context.items.length === 0 && (
              <Text
                size="sm"
                style={{ position: 'absolute', top: 16, left: 16, right: 16, pointerEvents: 'none' }}
              >
                {t('flows.builder.emptyCanvas')}
              </Text>
            )}
          </Box>
          <Text id="flow-keyboard-help" size="xs" c="dimmed">
            {t('flows.builder.keyboardHelp')}
          </Text>
        </Stack>
        <NodeSettingsPanel
          ref={panel}
          item={selectedItem}
          choices={choices}
          disabled={!editable}
          targets={context.items
            .filter((item) => item.kind !== 'trigger')
            .map((item) => ({
              value: item.key,
              label: `${nodeTypeName(t, item)}: ${nodeSummary(t, item, choices, formatMoney)}`,
            }))}
          onLink={(handle, target) =>
            selectedItem &&
            actor.send(
              target === null
                ? { type: 'edge.disconnect', source: selectedItem.key, handle }
                : { type: 'edge.connect', source: selectedItem.key, handle, target },
            )
          }
          onChange={(settings) =>
            selectedItem && actor.send({ type: 'node.settings', key: selectedItem.key, settings })
          }
          onDelete={() => selectedItem && actor.send({ type: 'node.delete', key: selectedItem.key })}
        />
      </Box>
      <FlowSettingsDialog
        actor={actor}
        opened={settingsOpen}
        disabled={!editable}
        onClose={() => setSettingsOpen(false)}
      />
      <Modal
        opened={conflict}
        onClose={() => undefined}
        withCloseButton={false}
        title={t('flows.builder.conflictTitle')}
      >
        <Stack gap="md">
          <Text size="sm">{t('flows.builder.conflict')}</Text>
          <Group justify="flex-end">
            <Button variant="default" onClick={() => actor.send({ type: 'conflict.reload' })}>
              {t('flows.builder.reload')}
            </Button>
            <Button color="red" onClick={() => actor.send({ type: 'conflict.overwrite' })}>
              {t('flows.builder.overwrite')}
            </Button>
          </Group>
        </Stack>
      </Modal>
      <Modal opened={leaveGuard.blocked} onClose={leaveGuard.stay} title={t('flows.builder.unsavedTitle')}>
        <Stack gap="md">
          <Text size="sm">{t('flows.builder.unsaved')}</Text>
          <Group justify="flex-end">
            <Button variant="default" onClick={leaveGuard.stay} data-autofocus>
              {t('flows.builder.stay')}
            </Button>
            <Button color="red" onClick={leaveGuard.leave}>
              {t('flows.builder.leave')}
            </Button>
          </Group>
        </Stack>
      </Modal>
    </Stack>
  );
}
