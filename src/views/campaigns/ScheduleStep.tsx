import {
  ActionIcon,
  Button,
  Chip,
  Group,
  Paper,
  SegmentedControl,
  Select,
  SimpleGrid,
  Stack,
  Text,
  TextInput,
} from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { useSelector } from '@xstate/react';
import { useTranslation } from 'react-i18next';
import { formatDateTime, languageOf } from '../../format/index.js';
import { nextSendAt } from '../../format/next-send.js';
import type { SendWhen } from '../../machines/support/campaign-draft.js';
import { campaignBodyOf } from '../../machines/support/campaign-draft.js';
import {
  CAMPAIGN_CATEGORIES,
  CAMPAIGN_LIMITS,
  WEEKDAYS,
  type CampaignScheduleFields,
  type RepeatOn,
  type Weekday,
} from '../../schemas/campaigns.js';
import { fieldMessage } from '../shared/field-message.js';
import type { CampaignEditorActor } from './campaign-editor-actor.js';

const WHEN: readonly SendWhen[] = ['now', 'once', 'repeating'];
const REPEATING: readonly RepeatOn[] = ['daily', 'weekly', 'monthly'];

/** The schedule in words: how often, on which days, at which times. */
export function useScheduleWords() {
  const { t } = useTranslation();
  return (schedule: CampaignScheduleFields): string => {
    const times = schedule.schedules.join(', ');
    if (schedule.repeat_on === 'once')
      return schedule.start
        ? t('campaigns.schedule.words.once', { date: schedule.start, time: schedule.schedules[0] ?? '09:00' })
        : t('campaigns.schedule.words.now');
    const days =
      schedule.repeat_on === 'weekly'
        ? schedule.selectedDays.map((day) => t(`campaigns.weekdays.${day}`)).join(', ')
        : '';
    return t(`campaigns.schedule.words.${schedule.repeat_on}`, { times: times || '09:00', days });
  };
}

/** The next send in the company's time zone, or what happens instead. */
export function NextSend({ schedule, timeZone }: { schedule: CampaignScheduleFields; timeZone: string }) {
  const { t, i18n } = useTranslation();
  const language = languageOf(i18n.language);
  // Shown relative to the moment the step is drawn; the server decides the real instant.
  const next = nextSendAt(schedule, Date.now(), timeZone);
  const immediate = schedule.repeat_on === 'once' && !schedule.start;
  return (
    <Text size="sm" data-testid="next-send">
      {immediate
        ? t('campaigns.schedule.sendsOnAction')
        : next
          ? t('campaigns.schedule.next', { when: formatDateTime(next, language, timeZone), zone: timeZone })
          : t('campaigns.schedule.noNext')}
    </Text>
  );
}

/** The schedule step: send now, once at a day and time, or repeating; the categories; the next send. */
export function ScheduleStep({ actor, timeZone }: { actor: CampaignEditorActor; timeZone: string }) {
  const { t } = useTranslation();
  const schedule = useSelector(actor, (state) => state.context.draft.schedule);
  const draft = useSelector(actor, (state) => state.context.draft);
  const fieldErrors = useSelector(actor, (state) => state.context.fieldErrors);
  const busy = useSelector(actor, (state) => state.hasTag('busy'));
  const words = useScheduleWords();
  // Three choices side by side do not fit a phone in every language: stacked there.
  const narrow = useMediaQuery('(max-width: 36em)');
  const change = (next: Partial<typeof schedule>) => actor.send({ type: 'schedule.change', schedule: next });
  const saved = campaignBodyOf(draft);
  const savedSchedule: CampaignScheduleFields = {
    start: saved.start ?? null,
    end: saved.end ?? null,
    repeat_on: saved.repeat_on ?? 'once',
    selectedDays: saved.selectedDays ?? [],
    schedules: saved.schedules ?? [],
    categories: saved.categories ?? [],
  };
  const times = schedule.schedules.length ? schedule.schedules : [''];
  const labels = {
    start: schedule.when === 'once' ? t('campaigns.schedule.day') : t('campaigns.schedule.start'),
    end: t('campaigns.schedule.end'),
    time: t('campaigns.schedule.time'),
  };
  const setTime = (index: number, value: string) => {
    const next = [...times];
    next[index] = value;
    change({ schedules: next.filter((time, at) => time !== '' || at < next.length - 1) });
  };
  return (
    <SimpleGrid cols={{ base: 1, md: 3 }} spacing="lg">
      <Stack gap="md" style={{ gridColumn: 'span 2' }}>
        <SegmentedControl
          aria-label={t('campaigns.schedule.when')}
          data={WHEN.map((value) => ({ value, label: t(`campaigns.schedule.modes.${value}`) }))}
          value={schedule.when}
          onChange={(value) => {
            const when = value;
            change({
              when,
              repeat_on: when === 'repeating' && schedule.repeat_on === 'once' ? 'daily' : schedule.repeat_on,
              schedules: when !== 'now' && schedule.schedules.length === 0 ? ['09:00'] : schedule.schedules,
            });
          }}
          disabled={busy}
          orientation={narrow ? 'vertical' : 'horizontal'}
          fullWidth
        />
        {schedule.when === 'repeating' && (
          <Select
            label={t('campaigns.schedule.repeat')}
            data={REPEATING.map((value) => ({ value, label: t(`campaigns.repeat.${value}`) }))}
            value={schedule.repeat_on === 'once' ? 'daily' : schedule.repeat_on}
            onChange={(value) => value && change({ repeat_on: value })}
            allowDeselect={false}
            disabled={busy}
          />
        )}
        {schedule.when === 'repeating' && schedule.repeat_on === 'weekly' && (
          <Stack gap={4}>
            <Text size="sm" fw={500} id="weekday-label">
              {t('campaigns.schedule.weekdays')}
            </Text>
            <Group gap="xs" role="group" aria-labelledby="weekday-label">
              {WEEKDAYS.map((day) => {
                const on = schedule.selectedDays.includes(day);
                return (
                  <Button
                    key={day}
                    size="xs"
                    variant={on ? 'filled' : 'default'}
                    aria-pressed={on}
                    onClick={() =>
                      change({
                        selectedDays: on
                          ? schedule.selectedDays.filter((other) => other !== day)
                          : WEEKDAYS.filter(
                              (other: Weekday) => other === day || schedule.selectedDays.includes(other),
                            ),
                      })
                    }
                    disabled={busy}
                  >
                    {t(`campaigns.weekdays.${day}`)}
                  </Button>
                );
              })}
            </Group>
            {fieldErrors.selectedDays && (
              <Text size="xs" c="red">
                {fieldMessage(t, fieldErrors.selectedDays, t('campaigns.schedule.weekdays'))}
              </Text>
            )}
          </Stack>
        )}
        {schedule.when !== 'now' && (
          <Group grow align="flex-start" wrap="wrap">
            <TextInput
              type="date"
              label={labels.start}
              value={schedule.start ?? ''}
              onChange={(event) => change({ start: event.currentTarget.value || null })}
              withAsterisk={schedule.when === 'once'}
              error={fieldMessage(t, fieldErrors.start, labels.start)}
              disabled={busy}
              miw={160}
            />
            {schedule.when === 'repeating' && (
              <TextInput
                type="date"
                label={labels.end}
                value={schedule.end ?? ''}
                onChange={(event) => change({ end: event.currentTarget.value || null })}
                error={fieldMessage(t, fieldErrors.end, labels.end)}
                disabled={busy}
                miw={160}
              />
            )}
          </Group>
        )}
        {schedule.when !== 'now' && (
          <Stack gap="xs">
            {(schedule.when === 'once' ? times.slice(0, 1) : times).map((time, index) => (
              <Group key={index} gap="xs" align="flex-end" wrap="nowrap">
                <TextInput
                  type="time"
                  label={schedule.when === 'once' || index === 0 ? labels.time : undefined}
                  aria-label={t('campaigns.schedule.timeN', { n: index + 1 })}
                  value={time}
                  onChange={(event) => setTime(index, event.currentTarget.value)}
                  error={fieldMessage(
                    t,
                    fieldErrors[`schedules.${index}`] ?? (index === 0 ? fieldErrors.schedules : undefined),
                    labels.time,
                  )}
                  disabled={busy}
                  w={160}
                />
                {schedule.when === 'repeating' && times.length > 1 && (
                  <ActionIcon
                    variant="subtle"
                    color="red"
                    aria-label={t('campaigns.schedule.removeTime', { time })}
                    onClick={() => change({ schedules: times.filter((_, at) => at !== index) })}
                    disabled={busy}
                  >
                    ×
                  </ActionIcon>
                )}
              </Group>
            ))}
            {schedule.when === 'repeating' && (
              <Group>
                <Button
                  size="xs"
                  variant="subtle"
                  onClick={() => change({ schedules: [...times, '12:00'] })}
                  disabled={busy || times.length >= CAMPAIGN_LIMITS.maxSchedules}
                >
                  {t('campaigns.schedule.addTime', { max: CAMPAIGN_LIMITS.maxSchedules })}
                </Button>
              </Group>
            )}
          </Stack>
        )}
        <Stack gap={4}>
          <Text size="sm" fw={500} id="category-label">
            {t('campaigns.fields.categories')}
          </Text>
          <Chip.Group
            multiple
            value={schedule.categories}
            onChange={(values) => change({ categories: values })}
          >
            <Group gap="xs" role="group" aria-labelledby="category-label">
              {CAMPAIGN_CATEGORIES.map((category) => (
                <Chip key={category} value={category} size="sm" disabled={busy}>
                  {t(`campaigns.categories.${category}`)}
                </Chip>
              ))}
            </Group>
          </Chip.Group>
        </Stack>
      </Stack>
      <Paper withBorder p="md" radius="md" style={{ alignSelf: 'start' }} aria-live="polite">
        <Stack gap="xs">
          <Text fw={600}>{t('campaigns.schedule.summary')}</Text>
          <Text size="sm">{words(savedSchedule)}</Text>
          <NextSend schedule={savedSchedule} timeZone={timeZone} />
          <Text size="xs" c="dimmed">
            {t('campaigns.schedule.zone', { zone: timeZone })}
          </Text>
        </Stack>
      </Paper>
    </SimpleGrid>
  );
}
