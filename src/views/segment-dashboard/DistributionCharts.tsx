import { Paper, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import type { ApexOptions } from 'apexcharts';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import type { SegmentDashboardV2 } from '../../schemas/segment-dashboard.js';
import { formatCount, languageOf } from '../../format/index.js';
import { LazyChart } from '../kit/LazyChart.js';
import { spendBucketLabel, visitBucketLabel } from './bucket-labels.js';

const HEIGHT = 240;

/**
 * A bar chart's options: categories along the axis, whole member counts, horizontal when asked. The value axis
 * has at most one tick per member (no fractional ticks rounding to the same figure) and a few at most.
 */
function barOptions(
  categories: string[],
  horizontal: boolean,
  language: string,
  largest: number,
): ApexOptions {
  const count = (value: number) => formatCount(Math.round(value), language);
  const ticks = Math.max(1, Math.min(largest, horizontal ? 3 : 4));
  const valueAxis = { min: 0, max: Math.max(largest, 1), tickAmount: ticks, forceNiceScale: largest > ticks };
  return {
    chart: { type: 'bar' },
    plotOptions: { bar: { horizontal, borderRadius: 3, columnWidth: '70%', barHeight: '70%' } },
    xaxis: {
      categories,
      ...(horizontal ? { ...valueAxis, labels: { show: false } } : {}),
    },
    yaxis: horizontal ? { labels: { maxWidth: 160 } } : { ...valueAxis, labels: { formatter: count } },
    // Beside long location names a horizontal chart has no room for value ticks: each bar carries its count.
    dataLabels: { enabled: horizontal, formatter: (value: number) => count(value) },
    tooltip: { y: { formatter: count } },
  };
}

const largestOf = (bars: ReadonlyArray<{ count: number }>) => Math.max(0, ...bars.map((bar) => bar.count));

/**
 * The members by visits, by spend and by location, a bar chart each (ApexCharts through the chart kit, loaded
 * with the first chart), with how many members they are over.
 */
export function DistributionCharts({
  distributions,
}: {
  distributions: SegmentDashboardV2['distributions'];
}) {
  const { t, i18n } = useTranslation();
  const language = languageOf(i18n.language);
  const members = t('segmentDashboard.charts.members');
  const charts = useMemo(() => {
    const visits = distributions.visits.map((bucket) => visitBucketLabel(t, bucket, language));
    const spend = distributions.spend.map((bucket) => spendBucketLabel(t, bucket));
    const places = distributions.locations.map((location) => location.name);
    return [
      {
        key: 'visits',
        title: t('segmentDashboard.charts.visits'),
        label: t('segmentDashboard.charts.visitsLabel'),
        options: barOptions(visits, false, language, largestOf(distributions.visits)),
        data: distributions.visits.map((bucket) => bucket.count),
      },
      {
        key: 'spend',
        title: t('segmentDashboard.charts.spend'),
        label: t('segmentDashboard.charts.spendLabel'),
        options: barOptions(spend, false, language, largestOf(distributions.spend)),
        data: distributions.spend.map((bucket) => bucket.count),
      },
      {
        key: 'locations',
        title: t('segmentDashboard.charts.locations'),
        label: t('segmentDashboard.charts.locationsLabel'),
        options: barOptions(places, true, language, largestOf(distributions.locations)),
        data: distributions.locations.map((location) => location.count),
      },
    ];
  }, [distributions, t, language]);
  return (
    <Stack gap="xs">
      <Text size="sm" c="dimmed">
        {t('segmentDashboard.charts.over', { members: formatCount(distributions.members, language) })}
      </Text>
      <SimpleGrid cols={{ base: 1, md: 3 }} spacing="md">
        {charts.map((chart) => (
          <Paper key={chart.key} withBorder radius="md" p="md">
            <Title order={3} size="h5" mb="xs">
              {chart.title}
            </Title>
            <LazyChart
              type="bar"
              height={HEIGHT}
              ariaLabel={chart.label}
              options={chart.options}
              series={[{ name: members, data: chart.data }]}
            />
          </Paper>
        ))}
      </SimpleGrid>
    </Stack>
  );
}
