import {
  Box,
  Button,
  Group,
  Paper,
  Skeleton,
  Stack,
  Table,
  Text,
  Title,
  VisuallyHidden,
} from '@mantine/core';
import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSaveTextFile } from '../../app/file-save-context.js';
import { formatFigure, type FigureFormat } from './figure-format.js';
import { LazyChart, type LazyChartProps } from './LazyChart.js';
import { tableCsv } from './table-csv.js';

/** A column of a chart's data table: the row key, its header and how its figures are written. */
export interface ChartTableColumn {
  key: string;
  label: string;
  format?: FigureFormat;
}

/** A chart's figures as a table: for screen readers, the "Show data table" toggle and the CSV. */
export interface ChartTable {
  caption: string;
  columns: ChartTableColumn[];
  rows: Record<string, string | number | null>[];
}

/**
 * One chart of a dashboard in its card: the title and description, a skeleton while the first figures load,
 * the empty state's sentence when there is nothing to draw, the chart, "Download CSV" (the table's rows) and
 * "Show data table". The table is always in the page, visually hidden until shown, so screen readers have the
 * figures the chart draws.
 */
export function ChartCard({
  title,
  description,
  loading,
  emptyReason,
  chart,
  table,
  csvName,
}: {
  title: string;
  description?: string;
  loading: boolean;
  /** Why there is nothing to draw (shown instead of the chart); null or absent when there is. */
  emptyReason?: string | null;
  chart: LazyChartProps;
  table: ChartTable;
  /** The downloaded file's name (`.csv` added when missing). */
  csvName: string;
}) {
  const { t, i18n } = useTranslation();
  const saveTextFile = useSaveTextFile();
  const [showTable, setShowTable] = useState(false);
  const tableId = useId();
  const waiting = loading && table.rows.length === 0 && !emptyReason;
  const grid = (
    <Table striped withTableBorder fz="sm">
      <Table.Caption>{table.caption}</Table.Caption>
      <Table.Thead>
        <Table.Tr>
          {table.columns.map((column) => (
            <Table.Th key={column.key} scope="col">
              {column.label}
            </Table.Th>
          ))}
        </Table.Tr>
      </Table.Thead>
      <Table.Tbody>
        {table.rows.map((row, index) => (
          <Table.Tr key={index}>
            {table.columns.map((column) => {
              const cell = row[column.key] ?? null;
              // A missing figure (no previous period, no change from nothing) is a blank cell, never "0%".
              const text =
                cell === null
                  ? ''
                  : column.format && typeof cell !== 'string'
                    ? formatFigure(cell, column.format, i18n.language)
                    : cell;
              return <Table.Td key={column.key}>{text}</Table.Td>;
            })}
          </Table.Tr>
        ))}
      </Table.Tbody>
    </Table>
  );
  // Shown: a focusable native scroller (keyboard users can scroll a wide table); hidden: the bare table for
  // screen readers, with nothing to scroll or focus.
  const figures = showTable ? (
    <Table.ScrollContainer minWidth={320} id={tableId} type="native" tabIndex={0}>
      {grid}
    </Table.ScrollContainer>
  ) : (
    <VisuallyHidden id={tableId}>{grid}</VisuallyHidden>
  );
  return (
    <Paper withBorder radius="md" p="md" aria-busy={loading}>
      <Stack gap="sm">
        <Group justify="space-between" align="flex-start" wrap="wrap" gap="xs">
          <Box style={{ minWidth: 0, flex: '1 1 12rem' }}>
            <Title order={3} size="h4">
              {title}
            </Title>
            {description && (
              <Text size="sm" c="dimmed">
                {description}
              </Text>
            )}
          </Box>
          <Group gap="xs" wrap="wrap">
            <Button
              size="compact-sm"
              variant="default"
              disabled={table.rows.length === 0}
              onClick={() =>
                // The byte-order mark makes spreadsheets read the file as UTF-8 (accents, CJK location names).
                saveTextFile(
                  `\uFEFF${tableCsv(table.columns, table.rows)}`,
                  csvName.endsWith('.csv') ? csvName : `${csvName}.csv`,
                  'text/csv;charset=utf-8',
                )
              }
            >
              {t('dashboardKit.chart.downloadCsv')}
            </Button>
            <Button
              size="compact-sm"
              variant="default"
              aria-expanded={showTable}
              aria-controls={tableId}
              onClick={() => setShowTable((shown) => !shown)}
            >
              {showTable ? t('dashboardKit.chart.hideTable') : t('dashboardKit.chart.showTable')}
            </Button>
          </Group>
        </Group>
        {waiting ? (
          <Skeleton height={chart.height} radius="md" data-testid="chart-skeleton" />
        ) : emptyReason ? (
          <Box
            mih={Math.min(chart.height, 160)}
            style={{ display: 'grid', placeItems: 'center', textAlign: 'center' }}
          >
            <Text c="dimmed" data-empty-reason>
              {emptyReason}
            </Text>
          </Box>
        ) : (
          <LazyChart {...chart} />
        )}
        {figures}
      </Stack>
    </Paper>
  );
}
