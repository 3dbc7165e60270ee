import { Group, Paper, Skeleton, Text } from '@mantine/core';
import { GAIN_TEXT, LOSS_TEXT } from '../shell/contrast.js';
import { useContext } from 'react';
import { useTranslation } from 'react-i18next';
import { ComparisonContext } from './comparison.js';
import { changeOf, formatFigure, type FigureFormat } from './figure-format.js';

/**
 * One headline figure of a dashboard and its change against the previous period: an arrow and the change in
 * percent (green up, red down), "—" when there is nothing to compare (no figure before); nothing of a previous
 * period when the dashboard does not compare (`ComparisonContext`, or `previous` undefined).
 * A skeleton stands in while the first figures load; a figure there is none of (an average of no checks) is "—".
 */
export function KpiCard({
  label,
  value,
  previous,
  format,
  loading,
}: {
  label: string;
  value: number | null;
  /** The previous period's figure; null: none to compare ("—"); undefined: no comparison (nothing shown). */
  previous?: number | null;
  format: FigureFormat;
  loading: boolean;
}) {
  const { t, i18n } = useTranslation();
  const compared = useContext(ComparisonContext) && previous !== undefined;
  const change = changeOf(value, previous);
  const previousText = formatFigure(previous ?? null, format, i18n.language);
  const changeText = change === null ? '' : formatFigure(Math.abs(change), 'percent', i18n.language);
  const direction = change === null ? null : change > 0.005 ? 'up' : change < -0.005 ? 'down' : 'same';
  const spoken =
    direction === null
      ? t('dashboardKit.kpi.noPrevious')
      : t(`dashboardKit.kpi.${direction}`, { change: changeText, previous: previousText });
  return (
    // The card is a size container, so the figure shrinks with a narrow card (two to a row on a phone).
    <Paper withBorder radius="md" p="md" aria-busy={loading} style={{ containerType: 'inline-size' }}>
      <Text size="sm" c="dimmed" fw={500}>
        {label}
      </Text>
      {loading && value === null ? (
        <Skeleton height={30} mt={6} width="70%" />
      ) : (
        <Text
          fw={700}
          lh={1.3}
          style={{ fontSize: 'clamp(1rem, 11cqi, 1.625rem)', overflowWrap: 'anywhere' }}
          data-figure
        >
          {value === null ? '—' : formatFigure(value, format, i18n.language)}
        </Text>
      )}
      {compared && (
        <Group gap={6} mt={4} wrap="nowrap" title={spoken} data-kpi-change>
          {direction === null ? (
            <Text size="sm" c="dimmed" aria-label={spoken}>
              —
            </Text>
          ) : (
            <Text
              size="sm"
              fw={600}
              c={direction === 'up' ? GAIN_TEXT : direction === 'down' ? LOSS_TEXT : 'dimmed'}
              aria-label={spoken}
              data-change={direction}
            >
              {direction === 'up' ? '▲' : direction === 'down' ? '▼' : '■'} {changeText}
            </Text>
          )}
          <Text size="xs" c="dimmed" aria-hidden>
            {t('dashboardKit.kpi.vsPrevious')}
          </Text>
        </Group>
      )}
    </Paper>
  );
}
