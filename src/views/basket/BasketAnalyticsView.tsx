import { NumberInput, Select, SimpleGrid, Stack } from '@mantine/core';
import { useSelector } from '@xstate/react';
import { useTranslation } from 'react-i18next';
import type { ActorRefFrom } from 'xstate';
import type { basketAnalyticsMachine } from '../../machines/basket-analytics.machine.js';
import { DAY_PARTS, type DayPart } from '../../schemas/segment-catalogue.js';
import { ChartCard } from '../kit/ChartCard.js';
import { DashboardFrame, type DashboardRangeProps } from '../kit/DashboardFrame.js';
import { useDashboardState } from '../kit/dashboard-state.js';
import { KpiCard } from '../kit/KpiCard.js';
import { formatFigure } from '../kit/figure-format.js';
import { attachChart, categoriesChart, itemsChart } from './basket-charts.js';
import { BasketPairsTable } from './BasketPairsTable.js';
import { BasketSegmentCard, type BasketSegmentActor } from './BasketSegmentCard.js';

/** The basket dashboard's actor, as the view sees it. */
export type BasketAnalyticsActor = ActorRefFrom<typeof basketAnalyticsMachine>;

const KPIS = [
  { key: 'checks', format: 'count' },
  { key: 'units', format: 'count' },
  { key: 'revenue', format: 'currency' },
  { key: 'units_per_check', label: 'unitsPerCheck', format: 'decimal' },
  { key: 'multi_item_rate', label: 'multiItemRate', format: 'percent' },
  { key: 'guests', format: 'count' },
] as const;

/**
 * /basket-analytics: the range, minimum support and day part; KPI cards against the previous period; the top
 * items, their attach rates and the categories as charts with their tables; the item pairs; and "guests who
 * ordered X" as a segment. Empty states say why (no checks, none in the day part, no item lines, no pair).
 */
export function BasketAnalyticsView({
  actor,
  segments,
  canSave,
  timeZone,
  ...range
}: {
  actor: BasketAnalyticsActor;
  segments: BasketSegmentActor;
  canSave: boolean;
  /** The user's time zone, for when the item's guests were counted. */
  timeZone?: string | undefined;
} & DashboardRangeProps) {
  const { t, i18n } = useTranslation();
  const language = i18n.language;
  const { figures: basket, busy } = useDashboardState(actor);
  const extra = useSelector(actor, (state) => state.context.extra);
  const loading = busy && basket === null;

  const dayPartName = extra.dayPart ? t(`basketDashboard.dayParts.${extra.dayPart}`) : '';
  const emptyReason = !basket
    ? null
    : basket.totals.checks === 0
      ? extra.dayPart
        ? t('basketDashboard.empty.noChecksDayPart', { dayPart: dayPartName })
        : t('basketDashboard.empty.noChecks')
      : basket.totals.units === 0
        ? t('basketDashboard.empty.noLines')
        : null;
  const support = formatFigure(basket?.min_support ?? extra.minSupport, 'percent', language);
  const pairsEmpty =
    emptyReason ??
    (basket && basket.pairs.length === 0 ? t('basketDashboard.pairs.none', { support }) : null);

  const controls = (
    <>
      <NumberInput
        label={t('basketDashboard.minSupport')}
        description={t('basketDashboard.minSupportHelp')}
        value={extra.minSupport}
        min={0}
        max={100}
        step={0.5}
        decimalScale={2}
        w={200}
        onChange={(value) => {
          const next = typeof value === 'number' ? value : Number(value);
          if (Number.isFinite(next) && next >= 0 && next <= 100 && next !== extra.minSupport) {
            actor.send({ type: 'extra.change', extra: { minSupport: next } });
          }
        }}
      />
      <Select
        label={t('basketDashboard.dayPart')}
        value={extra.dayPart ?? 'all'}
        allowDeselect={false}
        w={180}
        data={['all', ...DAY_PARTS].map((value) => ({
          value,
          label: t(`basketDashboard.dayParts.${value}`),
        }))}
        onChange={(value) =>
          actor.send({
            type: 'extra.change',
            extra: { dayPart: !value || value === 'all' ? null : (value as DayPart) },
          })
        }
      />
    </>
  );

  const charts = basket
    ? {
        items: itemsChart(basket, t, language),
        attach: attachChart(basket, t, language),
        categories: categoriesChart(basket, t, language),
      }
    : null;
  const placeholder = {
    chart: { type: 'bar' as const, series: [], height: 240, ariaLabel: '' },
    table: { caption: '', columns: [], rows: [] },
  };

  return (
    <DashboardFrame
      actor={actor}
      title={t('pages.titles.basket')}
      intro={t('basketDashboard.intro')}
      {...range}
      controls={controls}
    >
      <Stack gap="lg">
        <SimpleGrid cols={{ base: 1, xs: 2, md: 3, xl: 6 }} spacing="sm">
          {KPIS.map((kpi) => (
            <div key={kpi.key} data-testid={`basket-kpi-${kpi.key}`}>
              <KpiCard
                label={t(`basketDashboard.kpi.${'label' in kpi ? kpi.label : kpi.key}`)}
                value={basket ? basket.totals[kpi.key] : null}
                previous={basket?.previous_totals ? basket.previous_totals[kpi.key] : null}
                format={kpi.format}
                loading={loading}
              />
            </div>
          ))}
        </SimpleGrid>
        <SimpleGrid cols={{ base: 1, md: 2 }} spacing="lg">
          <ChartCard
            title={t('basketDashboard.items.title')}
            description={t('basketDashboard.items.description')}
            loading={loading}
            emptyReason={emptyReason}
            {...(charts?.items ?? placeholder)}
            csvName="basket-items"
          />
          <ChartCard
            title={t('basketDashboard.attach.title')}
            description={t('basketDashboard.attach.description')}
            loading={loading}
            emptyReason={emptyReason}
            {...(charts?.attach ?? placeholder)}
            csvName="basket-attach-rates"
          />
        </SimpleGrid>
        <ChartCard
          title={t('basketDashboard.categories.title')}
          description={t('basketDashboard.categories.description')}
          loading={loading}
          emptyReason={emptyReason}
          {...(charts?.categories ?? placeholder)}
          csvName="basket-categories"
        />
        {basket && (
          <BasketPairsTable
            pairs={basket.pairs}
            emptyReason={pairsEmpty}
            description={t('basketDashboard.pairs.description', {
              items: formatFigure(basket.pair_item_limit, 'count', language),
              support,
            })}
          />
        )}
        {basket && !emptyReason && (
          <BasketSegmentCard basket={basket} segments={segments} canSave={canSave} timeZone={timeZone} />
        )}
      </Stack>
    </DashboardFrame>
  );
}
