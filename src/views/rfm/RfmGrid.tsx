import { Table, Text, UnstyledButton } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { formatCount, languageOf } from '../../format/index.js';
import type { RfmDashboard } from '../../schemas/rfm.js';
import type { RfmCell } from '../../schemas/segment-catalogue.js';

const SCORES = [1, 2, 3, 4, 5] as const;

/**
 * The recency × frequency heatmap: five rows of recency (5, the most recent, on top) by five columns of frequency,
 * each square a button coloured by its share of the busiest square, with its count written on it; choosing one
 * opens the named cell it belongs to.
 */
export function RfmGrid({ grid, onOpen }: { grid: RfmDashboard['grid']; onOpen: (cell: RfmCell) => void }) {
  const { t, i18n } = useTranslation();
  const language = languageOf(i18n.language);
  const busiest = Math.max(1, ...grid.map((square) => square.guests));
  const squareOf = (r: number, f: number) => grid.find((square) => square.r === r && square.f === f);
  return (
    <Table
      withTableBorder={false}
      verticalSpacing={4}
      horizontalSpacing={4}
      layout="fixed"
      aria-describedby="rfm-grid-help"
    >
      <Table.Thead>
        <Table.Tr>
          <Table.Th w={44}>
            <Text size="xs" c="dimmed">
              <abbr title={`${t('rfm.grid.recency')} / ${t('rfm.grid.frequency')}`}>{'R \\ F'}</abbr>
            </Text>
          </Table.Th>
          {SCORES.map((f) => (
            <Table.Th key={f} ta="center" scope="col">
              F{f}
            </Table.Th>
          ))}
        </Table.Tr>
      </Table.Thead>
      <Table.Tbody>
        {[...SCORES].reverse().map((r) => (
          <Table.Tr key={r}>
            <Table.Th scope="row">R{r}</Table.Th>
            {SCORES.map((f) => {
              const square = squareOf(r, f);
              const guests = square?.guests ?? 0;
              const strength = Math.round((guests / busiest) * 100);
              const cellName = square ? t(`rfm.names.${square.cell}`) : '';
              return (
                <Table.Td key={f} p={2}>
                  <UnstyledButton
                    data-testid={`rfm-square-${r}-${f}`}
                    data-guests={guests}
                    onClick={() => square && onOpen(square.cell)}
                    aria-label={t('rfm.grid.square', {
                      r,
                      f,
                      total: formatCount(guests, language),
                      cell: cellName,
                    })}
                    title={cellName}
                    w="100%"
                    h={52}
                    style={{
                      borderRadius: 'var(--mantine-radius-sm)',
                      // The share of the busiest square as the colour's strength, from the palette's palest blue to
                      // a mid blue on which dark text keeps its contrast, in either colour scheme.
                      background: `color-mix(in srgb, var(--mantine-color-blue-5) ${strength}%, var(--mantine-color-blue-0))`,
                      color: 'var(--mantine-color-black)',
                      textAlign: 'center',
                      fontVariantNumeric: 'tabular-nums',
                      outlineOffset: 2,
                    }}
                  >
                    <Text fw={600} inherit style={{ fontSize: 'clamp(0.68rem, 2.9vw, 0.875rem)' }}>
                      {formatCount(guests, language)}
                    </Text>
                  </UnstyledButton>
                </Table.Td>
              );
            })}
          </Table.Tr>
        ))}
      </Table.Tbody>
    </Table>
  );
}
