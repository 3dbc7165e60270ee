/** Colours of the shell's own text that keep WCAG AA contrast (axe's color-contrast rule). */

/** Secondary text that keeps AA contrast in both colour schemes (Mantine's `dimmed` does not at small sizes). */
export const MUTED_TEXT = 'light-dark(var(--mantine-color-gray-7), var(--mantine-color-dark-1))';

/** Empty states whose description keeps AA contrast (Mantine draws it in `dimmed` grey). */
export const EMPTY_STATE_STYLES = { description: { color: MUTED_TEXT } } as const;

/** Text of a destructive action (Log out) with AA contrast; Mantine's red 6 has 3.3:1 on white. */
export const DANGER_TEXT = 'light-dark(var(--mantine-color-red-8), var(--mantine-color-red-4))';

/** A rise against the previous period, with AA contrast on white, light grey rows and the dark scheme. */
export const GAIN_TEXT = 'light-dark(var(--mantine-color-teal-9), var(--mantine-color-teal-4))';

/** A fall against the previous period, with AA contrast on white, light grey rows and the dark scheme. */
export const LOSS_TEXT = 'light-dark(var(--mantine-color-red-9), var(--mantine-color-red-4))';
