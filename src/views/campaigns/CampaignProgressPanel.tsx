import { Alert, Button, Group, Modal, Paper, Progress, SimpleGrid, Stack, Text } from '@mantine/core';
import { useSelector } from '@xstate/react';
import { useTranslation } from 'react-i18next';
import { formatCount, formatDateTime, formatPercent, languageOf } from '../../format/index.js';
import { CAMPAIGN_LIMITS } from '../../schemas/campaigns.js';
import { problemMessage } from '../shared/problem-message.js';
import type { CampaignEditorActor } from './campaign-editor-actor.js';

/**
 * A campaign after its send: the status, the live progress (queued, sent, failed, suppressed; opened,
 * clicked), polled while it sends, and pause, resume, cancel (confirmed) and, while scheduled, edit.
 */
export function CampaignProgressPanel({
  actor,
  canWrite,
  timeZone,
}: {
  actor: CampaignEditorActor;
  canWrite: boolean;
  timeZone: string;
}) {
  const { t, i18n } = useTranslation();
  const language = languageOf(i18n.language);
  const campaign = useSelector(actor, (state) => state.context.campaign);
  const progress = useSelector(actor, (state) => state.context.progress);
  const polling = useSelector(actor, (state) => state.hasTag('polling'));
  const acting = useSelector(actor, (state) => state.matches({ live: 'acting' }));
  const confirmingCancel = useSelector(actor, (state) => state.matches({ live: 'confirmingCancel' }));
  const problem = useSelector(actor, (state) => state.context.problem);
  const can = {
    pause: useSelector(actor, (state) => state.can({ type: 'campaign.pause' })),
    resume: useSelector(actor, (state) => state.can({ type: 'campaign.resume' })),
    cancel: useSelector(actor, (state) => state.can({ type: 'campaign.cancel' })),
    edit: useSelector(actor, (state) => state.can({ type: 'campaign.edit' })),
  };
  const counts = progress?.counts ?? campaign?.counts;
  const count = (value: number) => formatCount(value, language);
  const done = counts ? counts.sent + counts.failed + counts.suppressed + counts.cancelled : 0;
  const total = counts ? done + counts.queued + counts.sending : 0;
  const sent = counts?.sent ?? 0;
  const figures = counts
    ? [
        ['queued', counts.queued + counts.sending],
        ['sent', counts.sent],
        ['failed', counts.failed],
        ['suppressed', counts.suppressed],
        ['opened', progress?.opened ?? 0],
        ['clicked', progress?.clicked ?? 0],
      ]
    : [];
  return (
    <Stack gap="md">
      {problem && (
        <Alert
          color="red"
          withCloseButton
          closeButtonLabel={t('kit.close')}
          onClose={() => actor.send({ type: 'problem.dismiss' })}
        >
          {problemMessage(t, 'campaigns', problem)}
        </Alert>
      )}
      <Paper withBorder p="md" radius="md">
        <Stack gap="sm">
          <Group justify="space-between" wrap="wrap">
            <Text fw={600}>{t('campaigns.progress.title')}</Text>
            {polling && (
              <Text size="xs" c="dimmed">
                {t('campaigns.progress.live', { seconds: CAMPAIGN_LIMITS.progressPollSeconds })}
              </Text>
            )}
          </Group>
          {campaign?.next_run_at && (
            <Text size="sm">
              {t('campaigns.progress.nextRun', {
                when: formatDateTime(campaign.next_run_at, language, timeZone),
              })}
            </Text>
          )}
          {total > 0 && (
            <>
              <Progress
                value={(done / total) * 100}
                aria-label={t('campaigns.progress.bar', { done: count(done), total: count(total) })}
                animated={polling}
              />
              <Text size="sm" data-testid="progress-done">
                {t('campaigns.progress.bar', { done: count(done), total: count(total) })}
              </Text>
            </>
          )}
          <SimpleGrid cols={{ base: 2, sm: 3, lg: 6 }} spacing="sm">
            {figures.map(([key, value]) => (
              <Paper key={key as string} bg="var(--mantine-color-gray-light)" p="sm" radius="sm">
                <Text size="xs" c="dimmed">
                  {t(`campaigns.progress.${key as string}`)}
                </Text>
                <Text fw={700} size="lg" data-testid={`progress-${key as string}`}>
                  {count(value as number)}
                </Text>
                {(key === 'opened' || key === 'clicked') && sent > 0 && (
                  <Text size="xs" c="dimmed">
                    {formatPercent(((value as number) / sent) * 100)}
                  </Text>
                )}
              </Paper>
            ))}
          </SimpleGrid>
          {canWrite && (can.pause || can.resume || can.cancel || can.edit) && (
            <Group gap="sm">
              {can.edit && (
                <Button
                  variant="light"
                  onClick={() => actor.send({ type: 'campaign.edit' })}
                  disabled={acting}
                >
                  {t('campaigns.actions.edit')}
                </Button>
              )}
              {can.pause && (
                <Button
                  variant="light"
                  onClick={() => actor.send({ type: 'campaign.pause' })}
                  loading={acting}
                >
                  {t('campaigns.actions.pause')}
                </Button>
              )}
              {can.resume && (
                <Button
                  variant="light"
                  onClick={() => actor.send({ type: 'campaign.resume' })}
                  loading={acting}
                >
                  {t('campaigns.actions.resume')}
                </Button>
              )}
              {can.cancel && (
                <Button
                  variant="subtle"
                  color="red"
                  onClick={() => actor.send({ type: 'campaign.cancel' })}
                  disabled={acting}
                >
                  {t('campaigns.actions.cancel')}
                </Button>
              )}
            </Group>
          )}
        </Stack>
      </Paper>
      <Modal
        opened={confirmingCancel}
        onClose={() => actor.send({ type: 'cancel.dismiss' })}
        title={t('campaigns.dialog.cancelTitle')}
      >
        <Stack gap="md">
          <Text size="sm">{t('campaigns.dialog.cancelConfirm', { name: campaign?.name ?? '' })}</Text>
          <Group justify="flex-end">
            <Button variant="default" onClick={() => actor.send({ type: 'cancel.dismiss' })} data-autofocus>
              {t('campaigns.dialog.keepSending')}
            </Button>
            <Button color="red" onClick={() => actor.send({ type: 'cancel.confirm' })}>
              {t('campaigns.actions.cancel')}
            </Button>
          </Group>
        </Stack>
      </Modal>
    </Stack>
  );
}
