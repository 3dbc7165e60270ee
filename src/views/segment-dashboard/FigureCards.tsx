import { Badge, Group, Paper, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { SegmentCache } from '../../schemas/segment-records.js';
import { formatCount, formatCurrency, formatPercent, languageOf } from '../../format/index.js';

/** The three audiences of a segment's cached figures. */
const AUDIENCES = ['all', 'marketable', 'trackable'] as const;
type Audience = (typeof AUDIENCES)[number];

/** One audience's figures read from the flat segmentcache. */
function figuresOf(cache: SegmentCache, audience: Audience) {
  const count = audience === 'all' ? cache.all_customers : cache[`${audience}_customers`];
  const share = audience === 'all' ? cache.all_customers_pct : cache[`${audience}_pct`];
  return {
    count,
    share,
    clv: cache[`${audience}_clv`],
    annualClv: cache[`${audience}_annual_clv`],
    clf: cache[`${audience}_clf`],
    recency: cache[`${audience}_recency`],
  };
}

/**
 * The cached figures of all, marketable and trackable members, a card each: count and share, average CLV and
 * annual CLV, expected visits and days since the last visit; "computing" instead of the zeroed defaults.
 */
export function FigureCards({ cache, computing }: { cache: SegmentCache; computing: boolean }) {
  const { t, i18n } = useTranslation();
  const language = languageOf(i18n.language);
  const decimal = new Intl.NumberFormat(i18n.language, { maximumFractionDigits: 1 });
  return (
    <SimpleGrid cols={{ base: 1, sm: 3 }} spacing="md">
      {AUDIENCES.map((audience) => {
        const figures = figuresOf(cache, audience);
        const shareKey = audience === 'all' ? 'shareOfCompany' : 'shareOfSegment';
        return (
          <Paper key={audience} withBorder radius="md" p="md">
            <Stack gap={6}>
              <Title order={3} size="h5">
                {t(`segmentDashboard.audiences.${audience}`)}
              </Title>
              {computing ? (
                <Badge variant="light" color="gray" w="fit-content">
                  {t('segmentDashboard.computing')}
                </Badge>
              ) : (
                <>
                  {/* The share under the count, so the three cards line up whatever its length. */}
                  <Stack gap={0}>
                    <Text fz={28} fw={700} lh={1.1}>
                      {formatCount(figures.count, language)}
                    </Text>
                    <Text size="sm" c="dimmed">
                      {t(`segmentDashboard.figures.${shareKey}`, { share: formatPercent(figures.share) })}
                    </Text>
                  </Stack>
                  <Figure label={t('segmentDashboard.figures.clv')} value={formatCurrency(figures.clv)} />
                  <Figure
                    label={t('segmentDashboard.figures.annualClv')}
                    value={formatCurrency(figures.annualClv)}
                  />
                  <Figure label={t('segmentDashboard.figures.clf')} value={decimal.format(figures.clf)} />
                  <Figure
                    label={t('segmentDashboard.figures.recency')}
                    value={decimal.format(figures.recency)}
                  />
                </>
              )}
            </Stack>
          </Paper>
        );
      })}
    </SimpleGrid>
  );
}

/** One labelled figure of a card. */
function Figure({ label, value }: { label: string; value: string }) {
  return (
    <Group justify="space-between" gap="xs" wrap="nowrap">
      <Text size="sm" c="dimmed">
        {label}
      </Text>
      <Text size="sm" fw={600} style={{ whiteSpace: 'nowrap' }}>
        {value}
      </Text>
    </Group>
  );
}
