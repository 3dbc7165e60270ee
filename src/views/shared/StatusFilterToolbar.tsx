import { Button, Group, Select } from '@mantine/core';

/**
 * A list's status filter ("All" first, then each status) and, for users who may, its create button: the
 * toolbar beside the search box of /flows and /campaigns.
 */
export function StatusFilterToolbar<Status extends string>({
  label,
  allLabel,
  statuses,
  statusLabel,
  value,
  onChange,
  create,
}: {
  label: string;
  allLabel: string;
  statuses: readonly Status[];
  statusLabel: (status: Status) => string;
  /** The status shown (null: every one). */
  value: Status | null;
  onChange: (status: Status | null) => void;
  /** The create button, or null when the user may not create. */
  create: { label: string; onClick: () => void } | null;
}) {
  return (
    <Group gap="sm" align="flex-end" wrap="wrap">
      <Select
        label={label}
        data={[
          { value: 'all', label: allLabel },
          ...statuses.map((status) => ({ value: status, label: statusLabel(status) })),
        ]}
        value={value ?? 'all'}
        allowDeselect={false}
        onChange={(picked) => onChange(picked === 'all' || picked === null ? null : picked)}
        w={180}
      />
      {create && <Button onClick={create.onClick}>{create.label}</Button>}
    </Group>
  );
}
