/** Card digits as shown everywhere: `•••• 1234`, or a dash when none are known. */
export function maskedCard(lastFour: string | null | undefined): string {
  return lastFour ? `•••• ${lastFour}` : '—';
}

/** Field errors in a darker red than Mantine's default, which is below AA contrast on white. */
export const ERROR_STYLES = {
  error: { color: 'light-dark(var(--mantine-color-red-9), var(--mantine-color-red-4))' },
  input: { color: 'var(--mantine-color-text)' },
} as const;

/** A table wider than its panel scrolls; the keyboard can reach it to scroll too (axe: scrollable region). */
export const FOCUSABLE_SCROLL = { viewportProps: { tabIndex: 0 } };
