import { Alert, Button, Group, Progress, Stack, Text, Tooltip } from '@mantine/core';
import { useSelector } from '@xstate/react';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import type { ActorRefFrom } from 'xstate';
import {
  exportPercent,
  exportTotal,
  type segmentDashboardMachine,
} from '../../machines/segment-dashboard.machine.js';
import { formatCount, languageOf } from '../../format/index.js';
import { problemMessage } from '../shared/problem-message.js';

/** The segment dashboard panel's actor. */
export type SegmentDashboardActor = ActorRefFrom<typeof segmentDashboardMachine>;

/**
 * The panel's actions: the CSV export with its progress (rows received against the segment's size) and a
 * cancel, what came of it, and "send a campaign" shown disabled with the reason until campaigns exist.
 */
export function ExportControls({
  actor,
  background,
}: {
  actor: SegmentDashboardActor;
  /** "Export in the background", beside the direct export (the background exports' own actor). */
  background?: ReactNode;
}) {
  const { t, i18n } = useTranslation();
  const language = languageOf(i18n.language);
  const exporting = useSelector(actor, (state) => state.matches({ export: 'exporting' }));
  const saved = useSelector(actor, (state) => state.matches({ export: 'saved' }));
  const failed = useSelector(actor, (state) => state.matches({ export: 'failed' }));
  const ready = useSelector(actor, (state) => state.context.dashboard !== null);
  const rows = useSelector(actor, (state) => state.context.exportRows);
  const total = useSelector(actor, (state) => exportTotal(state.context));
  const percent = useSelector(actor, (state) => exportPercent(state.context));
  const problem = useSelector(actor, (state) => state.context.exportProblem);
  const rowsText = formatCount(rows, language);
  return (
    <Stack gap="sm">
      <Group gap="sm" wrap="wrap">
        {exporting ? (
          <Button variant="default" onClick={() => actor.send({ type: 'export.cancel' })}>
            {t('segmentDashboard.export.cancel')}
          </Button>
        ) : (
          <Button disabled={!ready} onClick={() => actor.send({ type: 'export.start' })}>
            {t('segmentDashboard.export.start')}
          </Button>
        )}
        {background}
        <Tooltip label={t('segmentDashboard.campaign.unavailable')} withArrow multiline w={240}>
          {/* A disabled button hears no pointer: the wrapper carries the reason, read by screen readers too. */}
          <span tabIndex={0} aria-describedby="segment-campaign-reason">
            <Button variant="light" disabled>
              {t('segmentDashboard.campaign.send')}
            </Button>
          </span>
        </Tooltip>
        <Text id="segment-campaign-reason" size="xs" c="dimmed">
          {t('segmentDashboard.campaign.unavailable')}
        </Text>
      </Group>
      {exporting && (
        <Stack gap={4} aria-live="polite">
          <Progress
            value={percent ?? 100}
            animated={percent === null}
            striped={percent === null}
            aria-label={t('segmentDashboard.export.start')}
          />
          <Text size="sm" c="dimmed">
            {total === null
              ? t('segmentDashboard.export.progressUnknown', { rows: rowsText })
              : t('segmentDashboard.export.progress', {
                  rows: rowsText,
                  total: formatCount(total, language),
                })}
          </Text>
        </Stack>
      )}
      {saved && (
        <Alert
          color="teal"
          withCloseButton
          closeButtonLabel={t('segmentDashboard.export.dismiss')}
          onClose={() => actor.send({ type: 'export.dismiss' })}
        >
          {t('segmentDashboard.export.saved', { rows: rowsText })}
        </Alert>
      )}
      {failed && (
        <Alert
          color="red"
          title={t('segmentDashboard.export.failed')}
          withCloseButton
          closeButtonLabel={t('segmentDashboard.export.dismiss')}
          onClose={() => actor.send({ type: 'export.dismiss' })}
        >
          {problemMessage(t, 'segmentDashboard', problem)}
        </Alert>
      )}
    </Stack>
  );
}
