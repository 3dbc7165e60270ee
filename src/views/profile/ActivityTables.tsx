import { Paper, Stack, Table, Text, Title } from '@mantine/core';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { formatCount, formatCurrency, formatDate, formatDateTime, languageOf } from '../../format/index.js';
import type { CustomerActivity } from '../../schemas/customers.js';
import { FOCUSABLE_SCROLL } from '../guests/messages.js';

/** A titled panel holding a table, or its empty text when there are no rows. */
function TablePanel({
  title,
  headers,
  numeric,
  rows,
  empty,
}: {
  title: string;
  headers: string[];
  /** Which columns are figures (right-aligned). */
  numeric: boolean[];
  rows: { key: string | number; cells: ReactNode[] }[];
  empty: string;
}) {
  return (
    <Paper withBorder radius="md" p="lg">
      <Stack gap="sm">
        <Title order={3} size="h4">
          {title}
        </Title>
        {rows.length === 0 ? (
          <Text c="dimmed" size="sm">
            {empty}
          </Text>
        ) : (
          <Table.ScrollContainer minWidth={420} scrollAreaProps={FOCUSABLE_SCROLL}>
            <Table striped verticalSpacing="xs">
              <Table.Thead>
                <Table.Tr>
                  {headers.map((header, index) => (
                    <Table.Th key={header} ta={numeric[index] ? 'right' : undefined}>
                      {header}
                    </Table.Th>
                  ))}
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {rows.map((row) => (
                  <Table.Tr key={row.key}>
                    {row.cells.map((cell, index) => (
                      <Table.Td key={index} ta={numeric[index] ? 'right' : undefined}>
                        {cell}
                      </Table.Td>
                    ))}
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

/** Recent visits and locations visited of a profile (favourite items are in the value panel). */
export function ActivityTables({ activity, timeZone }: { activity: CustomerActivity; timeZone?: string }) {
  const { t, i18n } = useTranslation();
  const language = languageOf(i18n.language);
  const count = (value: number) => formatCount(value, language);
  return (
    <Stack gap="md">
      <TablePanel
        title={t('profile.visits.title')}
        headers={[
          t('profile.visits.date'),
          t('profile.visits.location'),
          t('profile.visits.items'),
          t('profile.visits.total'),
        ]}
        numeric={[false, false, true, true]}
        rows={activity.recent_visits.map((visit) => ({
          key: visit.check_id,
          cells: [
            formatDateTime(visit.closed_at, language, timeZone),
            visit.location_name,
            count(visit.items),
            formatCurrency(visit.total),
          ],
        }))}
        empty={t('profile.visits.empty')}
      />
      <TablePanel
        title={t('profile.locations.title')}
        headers={[
          t('profile.locations.location'),
          t('profile.locations.visits'),
          t('profile.locations.spend'),
          t('profile.locations.lastVisit'),
        ]}
        numeric={[false, true, true, false]}
        rows={activity.locations_visited.map((location) => ({
          key: location.location_id,
          cells: [
            location.name,
            count(location.visits),
            formatCurrency(location.spend),
            formatDate(location.last_visit_at, language, timeZone),
          ],
        }))}
        empty={t('profile.locations.empty')}
      />
    </Stack>
  );
}
