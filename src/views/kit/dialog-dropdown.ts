import type { ComboboxProps } from '@mantine/core';

/** How high a dialog's dropdown may grow: enough for five options, little enough to fit above the field. */
export const DIALOG_DROPDOWN_HEIGHT = 200;

/**
 * The dropdown of a select near a dialog's foot: it opens upwards (downwards only when there is no
 * room above), so it never covers the dialog's own Cancel and Create buttons; in a portal, so the
 * modal's scrolling body cannot clip it.
 */
export const DIALOG_DROPDOWN: ComboboxProps = {
  position: 'top',
  withinPortal: true,
  middlewares: { flip: true, shift: true },
};
