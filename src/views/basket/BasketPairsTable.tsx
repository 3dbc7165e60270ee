import { Paper, SegmentedControl, Group, Stack, Table, Text, Title } from '@mantine/core';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { BasketPair } from '../../schemas/basket-analytics.js';
import { formatFigure } from '../kit/figure-format.js';

/** The figures the pairs can be sorted by, highest first. */
const SORTS = ['lift', 'confidence', 'support'] as const;
type PairSort = (typeof SORTS)[number];
/** The rules listed at once: the highest by the chosen figure. */
export const PAIR_ROWS = 30;

/** The item pairs ("checks with A also have B"), sortable by lift, confidence or support, highest first. */
export function BasketPairsTable({
  pairs,
  description,
  emptyReason,
}: {
  pairs: BasketPair[];
  description: string;
  /** Why no pair is listed (the minimum support), or null. */
  emptyReason: string | null;
}) {
  const { t, i18n } = useTranslation();
  const [sort, setSort] = useState<PairSort>('lift');
  const sorted = useMemo(
    () =>
      [...pairs]
        .sort((a, b) => b[sort] - a[sort] || b.checks - a.checks || a.item.localeCompare(b.item))
        .slice(0, PAIR_ROWS),
    [pairs, sort],
  );
  const figure = (value: number, format: 'percent' | 'decimal' | 'count') =>
    formatFigure(value, format, i18n.language);
  return (
    <Paper withBorder p="md" radius="md">
      <Stack gap="sm">
        <Group justify="space-between" align="flex-start" wrap="wrap">
          <Stack gap={2}>
            <Title order={3} size="h4">
              {t('basketDashboard.pairs.title')}
            </Title>
            <Text size="sm" c="dimmed">
              {description}
            </Text>
          </Stack>
          <Stack gap={2}>
            <Text size="sm" id="basket-pair-sort">
              {t('basketDashboard.pairs.sortBy')}
            </Text>
            <SegmentedControl
              aria-labelledby="basket-pair-sort"
              value={sort}
              onChange={(value) => setSort(value)}
              data={SORTS.map((value) => ({ value, label: t(`basketDashboard.pairs.${value}`) }))}
            />
          </Stack>
        </Group>
        <Text size="xs" c="dimmed">
          {t('basketDashboard.pairs.help')}
        </Text>
        {!emptyReason && pairs.length > PAIR_ROWS && (
          <Text size="sm">{t('basketDashboard.pairs.shown', { shown: PAIR_ROWS, total: pairs.length })}</Text>
        )}
        {emptyReason ? (
          <Text>{emptyReason}</Text>
        ) : (
          <Table.ScrollContainer minWidth={560} type="native">
            <Table striped withTableBorder fz="sm" aria-label={t('basketDashboard.pairs.title')}>
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>{t('basketDashboard.pairs.item')}</Table.Th>
                  <Table.Th>{t('basketDashboard.pairs.withItem')}</Table.Th>
                  <Table.Th ta="right">{t('basketDashboard.pairs.checks')}</Table.Th>
                  {SORTS.map((key) => (
                    <Table.Th key={key} ta="right" aria-sort={sort === key ? 'descending' : 'none'}>
                      {t(`basketDashboard.pairs.${key}`)}
                    </Table.Th>
                  ))}
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {sorted.map((pair) => (
                  <Table.Tr key={`${pair.item_id}-${pair.with_item_id}`} data-testid="basket-pair">
                    <Table.Td>{pair.item}</Table.Td>
                    <Table.Td>{pair.with_item}</Table.Td>
                    <Table.Td ta="right">{figure(pair.checks, 'count')}</Table.Td>
                    <Table.Td ta="right">{figure(pair.lift, 'decimal')}</Table.Td>
                    <Table.Td ta="right">{figure(pair.confidence, 'percent')}</Table.Td>
                    <Table.Td ta="right">{figure(pair.support, 'percent')}</Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
        )}
      </Stack>
    </Paper>
  );
}
