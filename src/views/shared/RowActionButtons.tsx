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
  /**
   * Every label this button shows on some row (Pause, Resume): it is as wide as the widest, so the buttons after
   * it stand in the same place on every row.
   */
  slotLabels?: readonly string[];
}

/** The place of an action that does not apply to this row: kept empty, as wide as the action would be. */
export interface EmptyRowActionSlot {
  key: string;
  empty: true;
  /** The labels the action shows on other rows. */
  slotLabels: readonly string[];
  variant?: 'light' | 'subtle';
}

// The labels stacked in one grid cell: the cell is as wide as the widest, only the row's own is seen.
function SlotLabel({ label, labels }: { label: string | null; labels: readonly string[] }) {
  return (
    <span style={{ display: 'inline-grid', justifyItems: 'center' }}>
      {labels.map((text) => (
        <span key={text} aria-hidden="true" style={{ gridArea: '1 / 1', visibility: 'hidden' }}>
          {text}
        </span>
      ))}
      {label !== null && <span style={{ gridArea: '1 / 1' }}>{label}</span>}
    </span>
  );
}

/**
 * A list row's small buttons side by side; an entry that is `false` or `null` (a right the user lacks) is left
 * out, an empty slot (a status that has no such action) keeps its place so the buttons line up from row to row.
 * The same buttons stand in a phone's card footer.
 */
export function RowActionButtons({
  actions,
  wrap = 'nowrap',
}: {
  actions: readonly (RowAction | EmptyRowActionSlot | false | null)[];
  /** Whether the buttons may wrap onto a second line (`wrap`) or stay on one (`nowrap`). */
  wrap?: 'wrap' | 'nowrap';
}) {
  return (
    <Group gap="xs" wrap={wrap}>
      {actions.map((action) => {
        if (!action) return null;
        if ('empty' in action)
          // Not a button: hidden from pointers, the keyboard and screen readers, it only holds the width.
          return (
            <Button
              key={action.key}
              component="span"
              size="xs"
              variant={action.variant}
              aria-hidden="true"
              style={{ visibility: 'hidden' }}
            >
              <SlotLabel label={null} labels={action.slotLabels} />
            </Button>
          );
        return (
          <Button
            key={action.key}
            size="xs"
            variant={action.variant}
            color={action.color}
            disabled={action.disabled}
            onClick={action.onClick}
            aria-label={action.ariaLabel}
          >
            {action.slotLabels ? <SlotLabel label={action.label} labels={action.slotLabels} /> : action.label}
          </Button>
        );
      })}
    </Group>
  );
}
