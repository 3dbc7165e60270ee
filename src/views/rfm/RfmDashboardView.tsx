import {
  Alert,
  Box,
  Button,
  Group,
  Loader,
  Paper,
  SimpleGrid,
  Stack,
  Table,
  Text,
  Title,
  UnstyledButton,
} from '@mantine/core';
import { useSelector } from '@xstate/react';
import { useTranslation } from 'react-i18next';
import type { ActorRefFrom } from 'xstate';
import {
  formatCount,
  formatCurrency,
  formatDateTime,
  formatPercent,
  languageOf,
} from '../../format/index.js';
import type { rfmDashboardMachine } from '../../machines/rfm-dashboard.machine.js';
import type { RfmCellFigures } from '../../schemas/rfm.js';
import type { RfmCell } from '../../schemas/segment-catalogue.js';
import { RfmCellPanel } from './RfmCellPanel.js';
import { RfmGrid } from './RfmGrid.js';

/** The RFM dashboard's actor, as the view sees it. */
export type RfmDashboardActor = ActorRefFrom<typeof rfmDashboardMachine>;

const FOCUSABLE_SCROLL = { viewportProps: { tabIndex: 0 } };

/**
 * /rfm-dashboard: when the scores were computed, the totals, the recency × frequency heatmap, each named cell's
 * share of guests and revenue as a chart and a table; a square or a row opens the cell's guests (RfmCellPanel).
 */
export function RfmDashboardView({
  actor,
  canSave,
  timeZone,
}: {
  actor: RfmDashboardActor;
  /** Marketers and above save a cell as a segment. */
  canSave: boolean;
  timeZone?: string | undefined;
}) {
  const { t, i18n } = useTranslation();
  const language = languageOf(i18n.language);
  const dashboard = useSelector(actor, (state) => state.context.dashboard);
  const loading = useSelector(actor, (state) => state.matches('loading'));
  const failed = useSelector(actor, (state) => state.matches('failed'));
  const open = (cell: RfmCell) => actor.send({ type: 'cell.open', cell, name: t(`rfm.names.${cell}`) });

  if (failed) {
    return (
      <Alert color="red" role="alert" title={t('rfm.loadFailed')}>
        <Button mt="sm" variant="light" onClick={() => actor.send({ type: 'dashboard.retry' })}>
          {t('rfm.retry')}
        </Button>
      </Alert>
    );
  }
  if (!dashboard) {
    return (
      <Group justify="center" p="xl">
        <Loader aria-label={t('pages.titles.rfm')} />
      </Group>
    );
  }
  const computed = dashboard.computed_at;
  return (
    <Stack gap="lg" aria-busy={loading}>
      <Group justify="space-between" align="baseline" wrap="wrap">
        <Title order={2}>{t('pages.titles.rfm')}</Title>
        {computed && (
          <Text size="sm" c="dimmed" data-testid="rfm-computed-at">
            {t('rfm.computedAt', { when: formatDateTime(computed, language, timeZone) })}
          </Text>
        )}
      </Group>
      {!computed ? (
        <Alert color="blue">{t('rfm.notComputed')}</Alert>
      ) : dashboard.totals.guests === 0 ? (
        <Alert color="gray" data-testid="rfm-empty">
          {t('rfm.empty')}
        </Alert>
      ) : (
        <>
          <SimpleGrid cols={{ base: 1, xs: 3 }}>
            <Figure label={t('rfm.totals.guests')} value={formatCount(dashboard.totals.guests, language)} />
            <Figure label={t('rfm.totals.revenue')} value={formatCurrency(dashboard.totals.revenue)} />
            <Figure label={t('rfm.totals.clv')} value={formatCurrency(dashboard.totals.clv) || '—'} />
          </SimpleGrid>
          <SimpleGrid cols={{ base: 1, md: 2 }} spacing="lg">
            <Paper withBorder p="md" radius="md">
              <Title order={3} size="h4" mb={4}>
                {t('rfm.grid.title')}
              </Title>
              <Text id="rfm-grid-help" size="xs" c="dimmed" mb="sm">
                {t('rfm.grid.help')}
              </Text>
              <RfmGrid grid={dashboard.grid} onOpen={open} />
            </Paper>
            <Paper withBorder p="md" radius="md">
              <Title order={3} size="h4" mb="sm">
                {t('rfm.chart.title')}
              </Title>
              <SharesChart cells={dashboard.cells} />
            </Paper>
          </SimpleGrid>
          <CellsTable cells={dashboard.cells} onOpen={open} />
        </>
      )}
      <RfmCellPanel actor={actor} canSave={canSave} timeZone={timeZone} />
    </Stack>
  );
}

/** One total with its label. */
function Figure({ label, value }: { label: string; value: string }) {
  return (
    <Paper withBorder p="md" radius="md">
      <Text size="xs" c="dimmed" tt="uppercase" fw={600}>
        {label}
      </Text>
      <Text size="xl" fw={700} style={{ fontVariantNumeric: 'tabular-nums' }}>
        {value}
      </Text>
    </Paper>
  );
}

/**
 * Each cell's share of guests beside its share of revenue, as pairs of horizontal bars drawn with CSS (LazyChart's
 * first use by a route currently tips the first load over its ceiling; see docs/segments.md). Each bar says its
 * figure in text, so the chart reads without colour or sight.
 */
function SharesChart({ cells }: { cells: readonly RfmCellFigures[] }) {
  const { t } = useTranslation();
  const widest = Math.max(1, ...cells.flatMap((cell) => [cell.guests_pct, cell.revenue_share]));
  const bar = (value: number, color: string, label: string) => (
    <Group gap={6} wrap="nowrap" aria-label={`${label}: ${formatPercent(value)}`} role="img">
      <Box
        h={10}
        w={`${(value / widest) * 80}%`}
        miw={2}
        bg={color}
        style={{ borderRadius: 'var(--mantine-radius-xs)' }}
      />
      <Text size="xs" c="dimmed" style={{ whiteSpace: 'nowrap' }} aria-hidden>
        {formatPercent(value)}
      </Text>
    </Group>
  );
  return (
    <Stack gap={6} aria-label={t('rfm.chart.label')}>
      <Group gap="md" aria-hidden>
        <Group gap={4}>
          <Box w={10} h={10} bg="teal.7" />
          <Text size="xs">{t('rfm.chart.guests')}</Text>
        </Group>
        <Group gap={4}>
          <Box w={10} h={10} bg="orange.7" />
          <Text size="xs">{t('rfm.chart.revenue')}</Text>
        </Group>
      </Group>
      {cells.map((cell) => (
        <Box key={cell.cell}>
          <Text size="xs" fw={600}>
            {t(`rfm.names.${cell.cell}`)}
          </Text>
          {bar(cell.guests_pct, 'teal.7', t('rfm.chart.guests'))}
          {bar(cell.revenue_share, 'orange.7', t('rfm.chart.revenue'))}
        </Box>
      ))}
    </Stack>
  );
}

/** The named cells with their figures; a cell's name opens it. */
function CellsTable({
  cells,
  onOpen,
}: {
  cells: readonly RfmCellFigures[];
  onOpen: (cell: RfmCell) => void;
}) {
  const { t, i18n } = useTranslation();
  const language = languageOf(i18n.language);
  return (
    <Paper withBorder p="md" radius="md">
      <Title order={3} size="h4" mb="sm">
        {t('rfm.table.title')}
      </Title>
      <Table.ScrollContainer minWidth={640} scrollAreaProps={FOCUSABLE_SCROLL}>
        <Table striped highlightOnHover data-testid="rfm-cells">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>{t('rfm.table.cell')}</Table.Th>
              <Table.Th ta="right">{t('rfm.table.guests')}</Table.Th>
              <Table.Th ta="right">{t('rfm.table.guestsShare')}</Table.Th>
              <Table.Th ta="right">{t('rfm.table.revenueShare')}</Table.Th>
              <Table.Th ta="right">{t('rfm.table.clv')}</Table.Th>
              <Table.Th ta="right">{t('rfm.table.scores')}</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {cells.map((cell) => (
              <Table.Tr key={cell.cell} data-cell={cell.cell}>
                <Table.Td>
                  <UnstyledButton
                    onClick={() => onOpen(cell.cell)}
                    aria-label={t('rfm.table.open', { cell: t(`rfm.names.${cell.cell}`) })}
                    c="var(--mantine-primary-color-filled)"
                    fw={600}
                  >
                    {t(`rfm.names.${cell.cell}`)}
                  </UnstyledButton>
                </Table.Td>
                <Table.Td ta="right" data-testid={`rfm-cell-guests-${cell.cell}`}>
                  {formatCount(cell.guests, language)}
                </Table.Td>
                <Table.Td ta="right">{formatPercent(cell.guests_pct)}</Table.Td>
                <Table.Td ta="right">{formatPercent(cell.revenue_share)}</Table.Td>
                <Table.Td ta="right">{cell.clv === null ? '—' : formatCurrency(cell.clv)}</Table.Td>
                <Table.Td ta="right">
                  {cell.guests === 0
                    ? '—'
                    : `${cell.recency.toFixed(1)} / ${cell.frequency.toFixed(1)} / ${cell.monetary.toFixed(1)}`}
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
    </Paper>
  );
}
