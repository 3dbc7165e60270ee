import { Button, Group } from '@mantine/core';

/** One button of a row: its text, the name screen readers hear (with the row's name), and what it does. */
export interface RowAction {
  /** React's key among the row's buttons. */
  key: string;
  label: string;
  /** "Open Spring menu": the button named after its row. */
  ariaLabel: string;
  onClick: () => void;
  disabled?: boolean;
  /** Mantine's filled button when not given. */
  variant?: 'light' | 'subtle';
  color?: 'red';
}

/**
 * A list row's small buttons side by side; an entry that is `false` or `null` (a right the user lacks, a
 * status that has no such action) is left out. The same buttons stand in a phone's card footer.
 */
export function RowActionButtons({
  actions,
  wrap = 'nowrap',
}: {
  actions: readonly (RowAction | false | null)[];
  /** Whether the buttons may wrap onto a second line (`wrap`) or stay on one (`nowrap`). */
  wrap?: 'wrap' | 'nowrap';
}) {
  return (
    <Group gap="xs" wrap={wrap}>
      {actions.map(
        (action) =>
          action && (
            <Button
              key={action.key}
              size="xs"
              variant={action.variant}
              color={action.color}
              disabled={action.disabled}
              onClick={action.onClick}
              aria-label={action.ariaLabel}
            >
              {action.label}
            </Button>
          ),
      )}
    </Group>
  );
}
