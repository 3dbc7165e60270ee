import { Anchor, Button, Group, Paper, SimpleGrid, Stack, Text } from '@mantine/core';
import { useSelector } from '@xstate/react';
import { useTranslation } from 'react-i18next';
import { formatCount, languageOf } from '../../format/index.js';
import type { CampaignStep, EditorChoice } from '../../machines/campaign-update-mode.machine.js';
import { campaignBodyOf } from '../../machines/support/campaign-draft.js';
import type { CampaignScheduleFields } from '../../schemas/campaigns.js';
import type { CampaignEditorActor } from './campaign-editor-actor.js';
import { NextSend, useScheduleWords } from './ScheduleStep.js';

const namesOf = (ids: readonly number[], choices: readonly EditorChoice[] | undefined) =>
  ids.map((id) => choices?.find((choice) => choice.id === id)?.name ?? `#${id}`).join(', ');

/**
 * Everything about a campaign in one place: its audience (with the count), content and schedule, each with a
 * link back to its step while it is a draft (`editable`), read-only once sent.
 */
export function CampaignSummaryPanel({
  actor,
  timeZone,
  editable,
}: {
  actor: CampaignEditorActor;
  timeZone: string;
  editable: boolean;
}) {
  const { t, i18n } = useTranslation();
  const language = languageOf(i18n.language);
  const draft = useSelector(actor, (state) => state.context.draft);
  const choices = useSelector(actor, (state) => state.context.choices);
  const count = useSelector(actor, (state) => state.context.count);
  const counting = useSelector(actor, (state) => state.hasTag('counting'));
  const words = useScheduleWords();
  const body = campaignBodyOf(draft);
  const schedule: CampaignScheduleFields = {
    start: body.start ?? null,
    end: body.end ?? null,
    repeat_on: body.repeat_on ?? 'once',
    selectedDays: body.selectedDays ?? [],
    schedules: body.schedules ?? [],
    categories: body.categories ?? [],
  };
  const { audience, content } = draft;
  const sender = choices?.senders.find((entry) => entry.id === content.sender_id);
  const template = choices?.templates.find((entry) => entry.id === content.template_id);
  const none = t('campaigns.review.none');
  const editLink = (step: CampaignStep) =>
    editable ? (
      <Button size="xs" variant="subtle" onClick={() => actor.send({ type: 'step.go', step })}>
        {t('campaigns.review.editStep', { step: t(`campaigns.steps.${step}`) })}
      </Button>
    ) : null;
  const row = (label: string, value: string) => (
    <Group gap="xs" wrap="nowrap" align="flex-start">
      <Text size="sm" c="dimmed" miw={120}>
        {label}
      </Text>
      <Text size="sm" style={{ wordBreak: 'break-word' }}>
        {value || none}
      </Text>
    </Group>
  );
  const section = (step: CampaignStep, children: React.ReactNode) => (
    <Paper withBorder p="md" radius="md">
      <Stack gap="xs">
        <Group justify="space-between" wrap="nowrap">
          <Text fw={600}>{t(`campaigns.steps.${step}`)}</Text>
          {editLink(step)}
        </Group>
        {children}
      </Stack>
    </Paper>
  );
  return (
    <SimpleGrid cols={{ base: 1, md: 3 }} spacing="md">
      {section(
        'audience',
        <>
          {row(t('campaigns.fields.name'), draft.name)}
          {row(t('campaigns.audience.segments'), namesOf(audience.segment_ids, choices?.segments))}
          {row(t('campaigns.audience.lists'), namesOf(audience.list_ids, choices?.lists))}
          {(audience.location_ids.length > 0 || audience.location_group_ids.length > 0) &&
            row(
              t('campaigns.review.onlyAt'),
              [
                namesOf(audience.location_ids, choices?.locations),
                namesOf(audience.location_group_ids, choices?.groups),
              ]
                .filter(Boolean)
                .join(', '),
            )}
          {editable &&
            row(
              t('campaigns.review.recipients'),
              counting
                ? t('campaigns.audience.counting')
                : count
                  ? t('campaigns.audience.recipients', {
                      formatted: formatCount(count.recipients, language),
                    })
                  : '',
            )}
        </>,
      )}
      {section(
        'content',
        <>
          {row(t('campaigns.fields.template'), template?.name ?? '')}
          {row(t('campaigns.fields.subject'), content.subject)}
          {row(t('campaigns.fields.preheader'), content.preheader)}
          {row(t('campaigns.fields.sender'), sender ? `${sender.name} <${sender.email}>` : '')}
          {row(
            t('campaigns.fields.tracking'),
            content.tracking ? t('campaigns.review.trackingOn') : t('campaigns.review.trackingOff'),
          )}
        </>,
      )}
      {section(
        'schedule',
        <>
          <Text size="sm">{words(schedule)}</Text>
          {editable && <NextSend schedule={schedule} timeZone={timeZone} />}
          {row(
            t('campaigns.fields.categories'),
            schedule.categories.map((category) => t(`campaigns.categories.${category}`)).join(', '),
          )}
        </>,
      )}
    </SimpleGrid>
  );
}

/** A link to where a refused send's problem is fixed: a step of the editor, or the account settings. */
export function FixLink({
  field,
  actor,
  onOpenSettings,
}: {
  field: string;
  actor: CampaignEditorActor;
  onOpenSettings: () => void;
}) {
  const { t } = useTranslation();
  const step = stepOfField(field);
  if (step === 'settings')
    return (
      <Anchor component="button" type="button" onClick={onOpenSettings}>
        {t('campaigns.review.fixSettings')}
      </Anchor>
    );
  if (!step) return null;
  return (
    <Anchor component="button" type="button" onClick={() => actor.send({ type: 'step.go', step })}>
      {t('campaigns.review.fixStep', { step: t(`campaigns.steps.${step}`) })}
    </Anchor>
  );
}

/** Where a field named by the server is edited. */
export function stepOfField(field: string): CampaignStep | 'settings' | null {
  if (field.startsWith('postal_address')) return 'settings';
  if (field === 'name' || field.startsWith('audience') || field.endsWith('_ids')) return 'audience';
  if (
    ['template_id', 'sender_id', 'subject', 'preheader', 'tracking', 'sender'].some((name) =>
      field.startsWith(name),
    )
  )
    return 'content';
  if (
    ['start', 'end', 'repeat_on', 'selectedDays', 'schedules', 'categories'].some((name) =>
      field.startsWith(name),
    )
  )
    return 'schedule';
  return null;
}
