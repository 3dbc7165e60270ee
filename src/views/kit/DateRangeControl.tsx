import { Group, NativeSelect, Stack, Switch, Text, TextInput } from '@mantine/core';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { formatDate, languageOf } from '../../format/index.js';
import { daysIn, MAX_DASHBOARD_DAYS, previousPeriod } from '../../schemas/dashboard-query.js';
import { DATE_RANGE_PRESETS, rangeOfPreset, type DateRange } from '../../schemas/date-range.js';

const ISO_DAY = /^\d{4}-\d{2}-\d{2}$/;

/** Why two typed days are not a range, as a message key; null when they are one. */
function rangeProblem(from: string, to: string): 'reversed' | 'tooLong' | 'incomplete' | null {
  if (!ISO_DAY.test(from) || !ISO_DAY.test(to)) return 'incomplete';
  if (to < from) return 'reversed';
  return daysIn({ from, to }) > MAX_DASHBOARD_DAYS ? 'tooLong' : null;
}

/**
 * The dashboards' date range: a preset (native select, so a keyboard and a phone's own picker work), the two days
 * (typing either makes the range custom, sent once both make a range of at most two years) and the "Compare with
 * previous period" switch, with the previous period's days under it. Wraps onto several lines on a phone.
 */
export function DateRangeControl({
  range,
  compare,
  today,
  onRangeChange,
  onCompareChange,
}: {
  range: DateRange;
  compare: boolean;
  /** The user's today (`YYYY-MM-DD`), which the presets count from. */
  today: string;
  onRangeChange: (range: DateRange) => void;
  onCompareChange: (compare: boolean) => void;
}) {
  const { t, i18n } = useTranslation();
  const language = languageOf(i18n.language);
  // The days as typed: a half-typed range stays here until it is one.
  const [from, setFrom] = useState(range.from);
  const [to, setTo] = useState(range.to);
  useEffect(() => {
    setFrom(range.from);
    setTo(range.to);
  }, [range.from, range.to]);
  const problem = rangeProblem(from, to);
  const typed = (nextFrom: string, nextTo: string) => {
    setFrom(nextFrom);
    setTo(nextTo);
    if (rangeProblem(nextFrom, nextTo) === null)
      onRangeChange({ from: nextFrom, to: nextTo, preset: 'custom' });
  };
  const previous = previousPeriod(range);
  const error =
    problem === 'reversed'
      ? t('dashboardKit.range.reversed')
      : problem === 'tooLong'
        ? t('dashboardKit.range.tooLong', { days: MAX_DASHBOARD_DAYS })
        : undefined;
  return (
    <Stack gap={6} role="group" aria-label={t('dashboardKit.range.label')}>
      <Group gap="sm" align="flex-start" wrap="wrap">
        <NativeSelect
          label={t('dashboardKit.range.label')}
          value={range.preset}
          data={DATE_RANGE_PRESETS.map((preset) => ({
            value: preset,
            label: t(`dashboardKit.range.presets.${preset}`),
          }))}
          onChange={(event) => {
            const preset = event.currentTarget.value as DateRange['preset'];
            // "Custom" keeps the days shown, for the user to change.
            onRangeChange(preset === 'custom' ? { ...range, preset } : rangeOfPreset(preset, today));
          }}
          w={{ base: '100%', xs: 200 }}
        />
        <TextInput
          type="date"
          label={t('dashboardKit.range.from')}
          value={from}
          max={to || undefined}
          onChange={(event) => typed(event.currentTarget.value, to)}
          w={{ base: 'calc(50% - 6px)', xs: 160 }}
        />
        <TextInput
          type="date"
          label={t('dashboardKit.range.to')}
          value={to}
          min={from || undefined}
          error={error}
          onChange={(event) => typed(from, event.currentTarget.value)}
          w={{ base: 'calc(50% - 6px)', xs: 160 }}
        />
      </Group>
      <Group gap="sm" wrap="wrap">
        <Switch
          label={t('dashboardKit.range.compare')}
          checked={compare}
          onChange={(event) => onCompareChange(event.currentTarget.checked)}
        />
        {compare && (
          <Text size="xs" c="dimmed">
            {t('dashboardKit.range.previousPeriod', {
              from: formatDate(`${previous.from}T12:00:00`, language),
              to: formatDate(`${previous.to}T12:00:00`, language),
            })}
          </Text>
        )}
      </Group>
    </Stack>
  );
}
