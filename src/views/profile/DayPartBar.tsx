import { Box, Group, Stack, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { formatCount, formatPercent, languageOf } from '../../format/index.js';
import type { DayPartMix } from '../../schemas/guest-metrics.js';

const PARTS = ['breakfast', 'lunch', 'dinner', 'late'] as const;

/** A colour per day part, from the theme's palette. */
const COLOURS: Record<(typeof PARTS)[number], string> = {
  breakfast: 'var(--mantine-color-yellow-5)',
  lunch: 'var(--mantine-color-orange-6)',
  dinner: 'var(--mantine-color-indigo-6)',
  late: 'var(--mantine-color-grape-8)',
};

/** The guest's visits by day part as one stacked bar with a legend (counts and shares); plain markup. */
export function DayPartBar({ dayParts }: { dayParts: DayPartMix }) {
  const { t, i18n } = useTranslation();
  const language = languageOf(i18n.language);
  const total = PARTS.reduce((sum, part) => sum + dayParts[part], 0);
  const share = (part: (typeof PARTS)[number]) => (total === 0 ? 0 : (dayParts[part] / total) * 100);
  const legend = PARTS.map((part) => ({
    part,
    text: t('profile.value.dayPartShare', {
      part: t(`profile.value.dayParts.${part}`),
      visits: formatCount(dayParts[part], language),
      share: formatPercent(share(part), { whole: true }),
    }),
  }));
  return (
    <Stack gap={6}>
      <Text size="sm" c="dimmed" id="profile-day-parts">
        {t('profile.value.dayPartsTitle')}
      </Text>
      <Box
        role="img"
        aria-labelledby="profile-day-parts"
        aria-describedby="profile-day-parts-legend"
        style={{
          display: 'flex',
          height: 14,
          borderRadius: 7,
          overflow: 'hidden',
          background: 'var(--mantine-color-default-border)',
        }}
      >
        {PARTS.filter((part) => dayParts[part] > 0).map((part) => (
          <Box key={part} data-part={part} style={{ width: `${share(part)}%`, background: COLOURS[part] }} />
        ))}
      </Box>
      <Group gap="sm" wrap="wrap" id="profile-day-parts-legend">
        {legend.map(({ part, text }) => (
          <Group key={part} gap={6} wrap="nowrap">
            <Box
              aria-hidden
              style={{ width: 10, height: 10, borderRadius: 2, background: COLOURS[part], flexShrink: 0 }}
            />
            <Text size="sm">{text}</Text>
          </Group>
        ))}
      </Group>
    </Stack>
  );
}
