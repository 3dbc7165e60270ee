import { Paper, Text } from '@mantine/core';

/** One labelled figure, with an optional line under it. */
export function Tile({ label, value, note }: { label: string; value: string; note?: string }) {
  return (
    <Paper withBorder radius="md" p="md">
      <Text size="sm" c="dimmed">
        {label}
      </Text>
      <Text fw={700} fz={{ base: 20, sm: 24 }} lh={1.3}>
        {value}
      </Text>
      {note && (
        <Text size="sm" c="dimmed">
          {note}
        </Text>
      )}
    </Paper>
  );
}
