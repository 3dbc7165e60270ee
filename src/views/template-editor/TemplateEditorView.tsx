import {
  ActionIcon,
  Alert,
  Box,
  Button,
  FileButton,
  Group,
  Loader,
  Menu,
  Modal,
  SegmentedControl,
  Select,
  Stack,
  Text,
  TextInput,
  Title,
  Tooltip,
} from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { useSelector } from '@xstate/react';
import { lazy, Suspense, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { ActorRefFrom } from 'xstate';
import { formatCurrency } from '../../format/index.js';
import { EDITOR_IMAGE_TYPES, type templateEditorMachine } from '../../machines/template-editor.machine.js';
import { LIMITS } from '../../schemas/constants.js';
import { MERGE_TAG_NAMES } from '../../schemas/email-templates.js';
import { fieldMessage } from '../shared/field-message.js';
import { problemMessage } from '../shared/problem-message.js';
import { emailBlocks, type BlockTexts } from './email-blocks.js';
import type { CanvasController, PreviewDevice } from './GrapesCanvas.js';

/** The template editor's running actor, as the view reads it. */
export type TemplateEditorActor = ActorRefFrom<typeof templateEditorMachine>;

// GrapesJS (~700 KB) loads with the editor's canvas, never with another screen.
const GrapesCanvas = lazy(() => import('./GrapesCanvas.js'));

/** Undo and redo arrows (inline SVG: no icon font). */
function ArrowIcon({ flip }: { flip?: boolean }) {
  return (
    <svg
      width="18"
      height="18"
      viewBox="0 0 24 24"
      aria-hidden="true"
      transform={flip ? 'scale(-1 1)' : undefined}
    >
      <path
        d="M9 14 4 9l5-5M4 9h10.5a5.5 5.5 0 0 1 0 11H11"
        fill="none"
        stroke="currentColor"
        strokeWidth="2"
        strokeLinecap="round"
        strokeLinejoin="round"
      />
    </svg>
  );
}

/**
 * /editor-template and /editor-template/{id}: the template's name, the starter picker (new templates), the
 * merge-tag picker, image upload, the desktop/phone switch, undo/redo and Save above the GrapesJS canvas with
 * its block panel; the save's and upload's problems in words; the leave confirmation.
 */
export function TemplateEditorView({
  actor,
  onLeaveAnswer,
}: {
  actor: TemplateEditorActor;
  /** The leave dialog's answer, for the router's blocker. */
  onLeaveAnswer: (leave: boolean) => void;
}) {
  const { t } = useTranslation();
  const compact = useMediaQuery('(max-width: 48em)') ?? false;
  const canvas = useRef<CanvasController | null>(null);
  const [device, setDevice] = useState<PreviewDevice>('desktop');
  const [tagHint, setTagHint] = useState(false);
  const loading = useSelector(actor, (state) => state.matches('loading'));
  const loadFailed = useSelector(actor, (state) => state.matches('loadFailed'));
  const context = useSelector(actor, (state) => state.context);
  const isNew = context.id === null;
  const saving = useSelector(actor, (state) => state.matches({ ready: { document: 'saving' } }));
  const saved = useSelector(actor, (state) => state.matches({ ready: { document: 'saved' } }));
  const failed = useSelector(actor, (state) => state.matches({ ready: { document: 'failed' } }));
  const confirmingLeave = useSelector(actor, (state) =>
    state.matches({ ready: { document: 'confirmingLeave' } }),
  );
  const unsaved = useSelector(actor, (state) => state.hasTag('unsaved'));
  const uploading = useSelector(actor, (state) => state.hasTag('uploading'));

  const blockTexts = useMemo<BlockTexts>(
    () => ({
      categories: {
        layout: t('templateEditor.blocks.categories.layout'),
        content: t('templateEditor.blocks.categories.content'),
        restaurant: t('templateEditor.blocks.categories.restaurant'),
      },
      labels: {
        oneColumn: t('templateEditor.blocks.labels.oneColumn'),
        twoColumns: t('templateEditor.blocks.labels.twoColumns'),
        threeColumns: t('templateEditor.blocks.labels.threeColumns'),
        text: t('templateEditor.blocks.labels.text'),
        image: t('templateEditor.blocks.labels.image'),
        button: t('templateEditor.blocks.labels.button'),
        divider: t('templateEditor.blocks.labels.divider'),
        spacer: t('templateEditor.blocks.labels.spacer'),
        social: t('templateEditor.blocks.labels.social'),
        offer: t('templateEditor.blocks.labels.offer'),
      },
      menuItemLabel: (name) => t('templateEditor.blocks.menuItem', { name }),
      locationLabel: (name) => t('templateEditor.blocks.location', { name }),
      sample: {
        text: t('templateEditor.blocks.sample.text'),
        heading: t('templateEditor.blocks.sample.heading'),
        button: t('templateEditor.blocks.sample.button'),
        imageAlt: t('templateEditor.blocks.sample.imageAlt'),
        offerHeadline: t('templateEditor.blocks.sample.offerHeadline'),
        offerCode: t('templateEditor.blocks.sample.offerCode'),
        offerExpiry: t('templateEditor.blocks.sample.offerExpiry'),
        hours: t('templateEditor.blocks.sample.hours'),
      },
      price: (amount) => formatCurrency(amount),
    }),
    [t],
  );
  const origin = window.location.origin;
  const blocks = useMemo(
    () => emailBlocks(blockTexts, context.catalogue, origin),
    [blockTexts, context.catalogue, origin],
  );

  if (loading)
    return (
      <Group gap="xs">
        <Loader size="sm" />
        <Text>{t('templateEditor.loading')}</Text>
      </Group>
    );
  if (loadFailed)
    return (
      <Alert color="red" title={t('templateEditor.loadFailed')}>
        <Stack gap="xs" align="flex-start">
          <Text size="sm">{problemMessage(t, 'templateEditor', context.problem)}</Text>
          <Button size="xs" variant="light" onClick={() => actor.send({ type: 'editor.retry' })}>
            {t('templateEditor.retry')}
          </Button>
        </Stack>
      </Alert>
    );

  const nameLabel = t('templateEditor.name');
  const designProblem = context.problem?.fields.export_html?.message ?? null;
  const uploadProblem = context.uploadProblem;
  const status = saving
    ? t('templateEditor.status.saving')
    : unsaved
      ? t('templateEditor.status.unsaved')
      : saved
        ? t('templateEditor.status.saved')
        : null;

  return (
    <Stack gap="sm">
      <Title order={2}>{isNew ? t('templateEditor.titles.create') : t('templateEditor.titles.edit')}</Title>
      <Group gap="sm" align="flex-end" wrap="wrap">
        <TextInput
          label={nameLabel}
          value={context.name}
          onChange={(event) => actor.send({ type: 'name.change', value: event.currentTarget.value })}
          maxLength={LIMITS.nameMaxLength}
          error={fieldMessage(t, context.fieldErrors.name, nameLabel)}
          withAsterisk
          w={compact ? '100%' : 260}
        />
        {isNew && context.catalogue.starters.length > 0 && (
          <Select
            label={t('templateEditor.starter.label')}
            placeholder={t('templateEditor.starter.placeholder')}
            data={context.catalogue.starters.map((starter) => ({ value: starter.key, label: starter.name }))}
            value={null}
            onChange={(key) => key && actor.send({ type: 'starter.pick', key })}
            w={compact ? '100%' : 200}
          />
        )}
        <Menu position="bottom-start" withinPortal>
          <Menu.Target>
            <Button variant="default">{t('templateEditor.mergeTags.button')}</Button>
          </Menu.Target>
          <Menu.Dropdown>
            {MERGE_TAG_NAMES.map((tag) => (
              <Menu.Item
                key={tag}
                onClick={() => setTagHint(!(canvas.current?.insertMergeTag(tag) ?? false))}
                rightSection={<Text size="xs" c="dimmed">{`{{${tag}}}`}</Text>}
              >
                {t(`templateEditor.mergeTags.labels.${tag}`)}
              </Menu.Item>
            ))}
          </Menu.Dropdown>
        </Menu>
        <FileButton
          accept={EDITOR_IMAGE_TYPES.join(',')}
          onChange={(file) => file && actor.send({ type: 'image.upload', file })}
        >
          {(props) => (
            <Button {...props} variant="default" loading={uploading}>
              {t('templateEditor.images.upload')}
            </Button>
          )}
        </FileButton>
        <SegmentedControl
          aria-label={t('templateEditor.device.label')}
          value={device}
          onChange={(value) => setDevice(value === 'phone' ? 'phone' : 'desktop')}
          data={[
            { value: 'desktop', label: t('templateEditor.device.desktop') },
            { value: 'phone', label: t('templateEditor.device.phone') },
          ]}
        />
        <Group gap={4}>
          <Tooltip label={t('templateEditor.undo')}>
            <ActionIcon
              variant="default"
              size="lg"
              aria-label={t('templateEditor.undo')}
              disabled={!context.canUndo}
              onClick={() => canvas.current?.undo()}
            >
              <ArrowIcon />
            </ActionIcon>
          </Tooltip>
          <Tooltip label={t('templateEditor.redo')}>
            <ActionIcon
              variant="default"
              size="lg"
              aria-label={t('templateEditor.redo')}
              disabled={!context.canRedo}
              onClick={() => canvas.current?.redo()}
            >
              <ArrowIcon flip />
            </ActionIcon>
          </Tooltip>
        </Group>
        <Button onClick={() => actor.send({ type: 'template.save' })} loading={saving}>
          {t('templateEditor.save')}
        </Button>
        {status && (
          <Text size="sm" c="dimmed" role="status">
            {status}
          </Text>
        )}
      </Group>
      {tagHint && (
        <Alert
          color="blue"
          withCloseButton
          closeButtonLabel={t('templateEditor.close')}
          onClose={() => setTagHint(false)}
        >
          {t('templateEditor.mergeTags.hint')}
        </Alert>
      )}
      {failed && (
        <Alert
          color="red"
          title={t('templateEditor.saveFailed')}
          withCloseButton
          closeButtonLabel={t('templateEditor.close')}
          onClose={() => actor.send({ type: 'problem.dismiss' })}
        >
          {designProblem
            ? t('templateEditor.designProblem', { message: designProblem })
            : problemMessage(t, 'templateEditor', context.problem)}
        </Alert>
      )}
      {uploadProblem && (
        <Alert
          color="red"
          withCloseButton
          closeButtonLabel={t('templateEditor.close')}
          onClose={() => actor.send({ type: 'upload.dismiss' })}
        >
          {uploadProblem.reason === 'type'
            ? t('templateEditor.images.wrongType')
            : uploadProblem.reason === 'size'
              ? t('templateEditor.images.tooLarge')
              : t('templateEditor.images.failed', {
                  message: problemMessage(t, 'templateEditor', uploadProblem.problem),
                })}
        </Alert>
      )}
      <Box h={compact ? 900 : 'calc(100dvh - 230px)'} mih={520}>
        <Suspense
          fallback={
            <Group gap="xs">
              <Loader size="sm" />
              <Text>{t('templateEditor.loading')}</Text>
            </Group>
          }
        >
          <GrapesCanvas
            loaded={context.loaded}
            blocks={blocks}
            device={device}
            origin={origin}
            compact={compact}
            texts={{
              blocks: t('templateEditor.blocks.title'),
              canvas: t('templateEditor.canvas'),
              settings: t('templateEditor.settings'),
              nothingSelected: t('templateEditor.nothingSelected'),
            }}
            onCommand={(command) => actor.send(command)}
            controllerRef={canvas}
          />
        </Suspense>
      </Box>
      <Modal
        opened={confirmingLeave}
        onClose={() => onLeaveAnswer(false)}
        title={t('templateEditor.leave.title')}
        centered
      >
        <Stack gap="md">
          <Text size="sm">{t('templateEditor.leave.message')}</Text>
          <Group justify="flex-end">
            <Button variant="default" onClick={() => onLeaveAnswer(false)} data-autofocus>
              {t('templateEditor.leave.stay')}
            </Button>
            <Button color="red" onClick={() => onLeaveAnswer(true)}>
              {t('templateEditor.leave.leave')}
            </Button>
          </Group>
        </Stack>
      </Modal>
    </Stack>
  );
}
