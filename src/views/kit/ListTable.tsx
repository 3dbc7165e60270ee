import { Box, Group, NativeSelect, Paper, Stack, Table, Text, UnstyledButton } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { useId, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { MUTED_TEXT } from '../shell/contrast.js';
import { BREAKPOINTS_PX } from '../shell/layout-constants.js';

/** One column of a kit list: its header, and what each row shows under it. */
export interface ListColumn<Item> {
  /** Unique among the list's columns (React's key). */
  key: string;
  /** The column's header; on a phone, the label beside the value. */
  header: string;
  /** What the row shows in this column. */
  cell: (item: Item) => ReactNode;
  /** The row's name: the card's title on a phone (one column per list). */
  primary?: boolean;
  /** Numbers align right in the table (cards keep their own layout). */
  align?: 'left' | 'right';
  /** The list call's name for ordering by this column (`created_at`); the header then sorts. */
  sortKey?: string;
}

/** A sorted list's order and how to change it: the view sends `sort.change` with the next ordering. */
export interface ListTableSorting {
  /** The current ordering (`-created_at`: descending). */
  ordering: string;
  /** The ordering after a click on a column's header (the kit's `orderingAfterClick`). */
  next: (column: string) => string;
  onChange: (ordering: string) => void;
}

/** The column and direction of an ordering. */
function parts(ordering: string): { column: string; descending: boolean } {
  return ordering.startsWith('-')
    ? { column: ordering.slice(1), descending: true }
    : { column: ordering, descending: false };
}

/** Below this breakpoint rows are cards; `md` because the sidebar takes a third of a tablet. */
export type StackBelow = 'sm' | 'md';

// A wide table scrolls inside its panel; the keyboard can reach it to scroll too (axe: scrollable region).
const FOCUSABLE_SCROLL = { viewportProps: { tabIndex: 0 } };

/**
 * Every kit list's rows, defined once by their columns: a table on wider screens, and below `stackBelow`
 * a stacked card per row (the primary column as its title, the others labelled by their headers, the row
 * actions at the foot), so nothing scrolls sideways on a phone. The row actions keep their names.
 */
export function ListTable<Item>({
  items,
  columns,
  rowKey,
  actions,
  label,
  minWidth = 720,
  stackBelow = 'md',
  framed = false,
  sorting,
}: {
  items: readonly Item[];
  columns: readonly ListColumn<Item>[];
  rowKey: (item: Item) => string | number;
  /** The row's buttons (edit, delete, open), under a visible "Actions" header; none when left out. */
  actions?: (item: Item) => ReactNode;
  /** What the list holds, for screen readers (the cards' list name). */
  label: string;
  /** The table's width below which it scrolls inside its panel (between the breakpoint and its width). */
  minWidth?: number;
  stackBelow?: StackBelow;
  /** A border around the table (a list standing on its own rather than inside a panel). */
  framed?: boolean;
  /** The order, for columns with a `sortKey`: headers sort on wide screens, a select above the cards on a phone. */
  sorting?: ListTableSorting;
}) {
  const { t } = useTranslation();
  // Read at the first render so a phone never draws the table first.
  const stacked = useMediaQuery(`(max-width: ${BREAKPOINTS_PX[stackBelow] - 0.02}px)`, false, {
    getInitialValueInEffect: false,
  });
  if (stacked) {
    const cards = (
      <Stack component="ul" gap="sm" aria-label={label} p={0} m={0} style={{ listStyle: 'none' }}>
        {items.map((item) => (
          <RowCard key={rowKey(item)} item={item} columns={columns} actions={actions} />
        ))}
      </Stack>
    );
    return sorting ? (
      <Stack gap="sm">
        <SortSelect columns={columns} sorting={sorting} />
        {cards}
      </Stack>
    ) : (
      cards
    );
  }
  const current = sorting ? parts(sorting.ordering) : null;
  const table = (
    <Table.ScrollContainer minWidth={minWidth} scrollAreaProps={FOCUSABLE_SCROLL}>
      <Table striped highlightOnHover verticalSpacing="sm" aria-label={label}>
        <Table.Thead>
          <Table.Tr>
            {columns.map((column) => {
              const sortKey = sorting ? column.sortKey : undefined;
              if (!sorting || !sortKey) {
                return (
                  <Table.Th key={column.key} ta={column.align}>
                    {column.header}
                  </Table.Th>
                );
              }
              const active = current?.column === sortKey;
              const direction = active && current.descending ? 'descending' : 'ascending';
              return (
                <Table.Th key={column.key} ta={column.align} aria-sort={active ? direction : 'none'}>
                  <UnstyledButton
                    fw={700}
                    fz="sm"
                    onClick={() => sorting.onChange(sorting.next(sortKey))}
                    aria-label={t('kit.sortBy', { column: column.header })}
                  >
                    {column.header}
                    <Text component="span" aria-hidden c={active ? undefined : MUTED_TEXT} ml={4}>
                      {active ? (current.descending ? '▼' : '▲') : '↕'}
                    </Text>
                  </UnstyledButton>
                </Table.Th>
              );
            })}
            {actions && <Table.Th>{t('kit.actions')}</Table.Th>}
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {items.map((item) => (
            <Table.Tr key={rowKey(item)}>
              {columns.map((column) => (
                <Table.Td key={column.key} ta={column.align}>
                  {column.cell(item)}
                </Table.Td>
              ))}
              {actions && <Table.Td>{actions(item)}</Table.Td>}
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
  return framed ? (
    <Paper withBorder radius="md">
      {table}
    </Paper>
  ) : (
    table
  );
}

/** One row as a card: its name, each other cell under its header's label, then its actions. */
function RowCard<Item>({
  item,
  columns,
  actions,
}: {
  item: Item;
  columns: readonly ListColumn<Item>[];
  actions?: (item: Item) => ReactNode;
}) {
  const titleId = useId();
  const primary = columns.find((column) => column.primary);
  const details = columns.filter((column) => column !== primary);
  return (
    <Paper component="li" withBorder radius="md" p="sm" aria-labelledby={primary ? titleId : undefined}>
      <Stack gap="xs">
        {primary && (
          <Box id={titleId} fw={600} style={{ overflowWrap: 'anywhere' }}>
            {primary.cell(item)}
          </Box>
        )}
        <Box
          component="dl"
          m={0}
          style={{
            display: 'grid',
            gridTemplateColumns: 'minmax(5.5rem, auto) minmax(0, 1fr)',
            columnGap: 'var(--mantine-spacing-sm)',
            rowGap: 4,
          }}
        >
          {details.map((column) => (
            <CardField key={column.key} header={column.header}>
              {column.cell(item)}
            </CardField>
          ))}
        </Box>
        {actions && (
          <Group gap="xs" wrap="wrap">
            {actions(item)}
          </Group>
        )}
      </Stack>
    </Paper>
  );
}

/** A card's label and value; a long value (an email) wraps rather than being cut. */
function CardField({ header, children }: { header: string; children: ReactNode }) {
  return (
    <>
      <Text component="dt" size="sm" c={MUTED_TEXT}>
        {header}
      </Text>
      <Box component="dd" m={0} fz="sm" style={{ minWidth: 0, overflowWrap: 'anywhere' }}>
        {children}
      </Box>
    </>
  );
}

/** On a phone the headers are gone: the order is chosen from a select above the cards. */
function SortSelect<Item>({
  columns,
  sorting,
}: {
  columns: readonly ListColumn<Item>[];
  sorting: ListTableSorting;
}) {
  const { t } = useTranslation();
  const options = columns.flatMap((column) =>
    column.sortKey
      ? [
          { value: column.sortKey, label: t('kit.sortAscending', { column: column.header }) },
          { value: `-${column.sortKey}`, label: t('kit.sortDescending', { column: column.header }) },
        ]
      : [],
  );
  return (
    <NativeSelect
      label={t('kit.sortLabel')}
      data={options}
      value={sorting.ordering}
      onChange={(event) => sorting.onChange(event.currentTarget.value)}
    />
  );
}
