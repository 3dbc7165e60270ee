import {
  Alert,
  Badge,
  Button,
  Drawer,
  Group,
  Paper,
  Progress,
  Skeleton,
  Stack,
  Text,
  VisuallyHidden,
} from '@mantine/core';
import { useSelector } from '@xstate/react';
import { useTranslation } from 'react-i18next';
import type { ActorRefFrom } from 'xstate';
import { formatCount, formatDate, formatDateTime, languageOf } from '../../format/index.js';
import { exportShare, type segmentExportsMachine } from '../../machines/segment-exports.machine.js';
import {
  SEGMENT_EXPORT_RETENTION_DAYS,
  type SegmentExport,
  type SegmentExportStatus,
} from '../../schemas/segment-exports.js';
import { LoadFailedAlert } from '../shared/LoadFailedAlert.js';
import { problemMessage } from '../shared/problem-message.js';

/** The background exports actor of /segments. */
export type SegmentExportsActor = ActorRefFrom<typeof segmentExportsMachine>;

const STATUS_COLOURS: Record<SegmentExportStatus, string> = {
  queued: 'gray',
  running: 'blue',
  done: 'teal',
  failed: 'red',
};

/**
 * The "Exports" drawer of /segments: the company's background exports, newest first, each with its status,
 * progress against the segment's size, when it started and how long its file is kept, a download button once
 * ready and why it failed otherwise; skeletons before the first answer, a retry after a failure, and an empty
 * state saying where exports come from. It only sends events; the machine polls while an export runs.
 */
export function SegmentExportsDrawer({
  actor,
  opened,
  onClose,
  fullScreen,
}: {
  actor: SegmentExportsActor;
  opened: boolean;
  onClose: () => void;
  fullScreen: boolean;
}) {
  const { t } = useTranslation();
  const exports = useSelector(actor, (state) => state.context.exports);
  const loaded = useSelector(actor, (state) => state.context.loaded);
  const failed = useSelector(actor, (state) => state.matches({ list: 'failed' }));
  const polling = useSelector(actor, (state) => state.hasTag('polling'));
  const problem = useSelector(actor, (state) => state.context.problem);
  const notice = useSelector(actor, (state) => state.context.notice);
  const noticeProblem = useSelector(actor, (state) => state.context.noticeProblem);
  return (
    <Drawer
      opened={opened}
      onClose={onClose}
      position="right"
      size={fullScreen ? '100%' : 'lg'}
      title={t('segmentExports.title')}
      closeButtonProps={{ 'aria-label': t('segmentExports.close') }}
    >
      <Stack gap="md">
        <Text size="sm" c="dimmed">
          {t('segmentExports.intro', { days: SEGMENT_EXPORT_RETENTION_DAYS })}
        </Text>
        {notice === 'downloadFailed' && (
          <Alert
            color="red"
            title={t('segmentExports.downloadFailed')}
            withCloseButton
            closeButtonLabel={t('kit.close')}
            onClose={() => actor.send({ type: 'notice.dismiss' })}
          >
            {problemMessage(t, 'segmentExports', noticeProblem)}
          </Alert>
        )}
        {failed && (
          <LoadFailedAlert
            title={t('segmentExports.loadFailed')}
            message={problemMessage(t, 'segmentExports', problem)}
            retryLabel={t('segmentExports.retry')}
            onRetry={() => actor.send({ type: 'exports.refresh' })}
          />
        )}
        {!loaded && !failed && (
          <Stack gap="sm" aria-label={t('segmentExports.loading')}>
            {[0, 1, 2].map((index) => (
              <Skeleton key={index} height={96} radius="md" />
            ))}
          </Stack>
        )}
        {loaded && exports.length === 0 && (
          <Text c="dimmed" data-testid="segment-exports-empty">
            {t('segmentExports.empty')}
          </Text>
        )}
        <Stack gap="sm">
          {exports.map((item) => (
            <ExportCard key={item.id} actor={actor} item={item} />
          ))}
        </Stack>
        {polling && (
          <Text size="xs" c="dimmed">
            {t('segmentExports.refreshing')}
          </Text>
        )}
      </Stack>
    </Drawer>
  );
}

/** One export: segment, status, progress, dates, and its download or failure. */
function ExportCard({ actor, item }: { actor: SegmentExportsActor; item: SegmentExport }) {
  const { t, i18n } = useTranslation();
  const language = languageOf(i18n.language);
  const downloading = useSelector(actor, (state) => state.context.downloading?.id ?? null);
  const busy = useSelector(actor, (state) => state.hasTag('downloading'));
  const share = exportShare(item);
  const rows = formatCount(item.rows_written, language);
  const name = item.segment_name;
  return (
    <Paper withBorder radius="md" p="sm" data-testid={`segment-export-${item.id}`}>
      <Stack gap={6}>
        <Group justify="space-between" wrap="nowrap" gap="sm" align="flex-start">
          <Text fw={500} style={{ overflowWrap: 'anywhere' }}>
            {name}
          </Text>
          {/* A status change is announced; the row counts, which change at every look, are not. */}
          <Badge
            color={STATUS_COLOURS[item.status]}
            variant="dot"
            style={{ flexShrink: 0 }}
            aria-live="polite"
          >
            <VisuallyHidden>{name}: </VisuallyHidden>
            {t(`segmentExports.status.${item.status}`)}
          </Badge>
        </Group>
        {(item.status === 'queued' || item.status === 'running') && (
          <Progress
            value={share ?? 100}
            striped={share === null || item.status === 'queued'}
            animated={share === null || item.status === 'queued'}
            aria-label={t('segmentExports.progressLabel', { name })}
          />
        )}
        {item.status !== 'failed' && (
          <Text size="sm">
            {item.total === null || item.status === 'done'
              ? t('segmentExports.progressUnknown', { rows })
              : t('segmentExports.progress', { rows, total: formatCount(item.total, language) })}
          </Text>
        )}
        {item.status === 'failed' && item.failure && (
          <Text size="sm" c="red">
            {t(`segmentExports.failure.${item.failure}`, {
              defaultValue: t('segmentExports.failure.export_failed'),
            })}
          </Text>
        )}
        <Group justify="space-between" align="flex-end" gap="sm">
          <Stack gap={0}>
            <Text size="xs" c="dimmed">
              {t('segmentExports.table.created')}: {formatDateTime(item.created_at, language)}
            </Text>
            <Text size="xs" c="dimmed">
              {t('segmentExports.table.expires')}: {formatDate(item.expires_at, language)}
            </Text>
          </Stack>
          {item.status === 'done' && (
            <Button
              size="xs"
              disabled={busy && downloading !== item.id}
              loading={downloading === item.id}
              onClick={() => actor.send({ type: 'export.download', item })}
              aria-label={t('segmentExports.downloadOf', { name })}
            >
              {t('segmentExports.download')}
            </Button>
          )}
        </Group>
      </Stack>
    </Paper>
  );
}
