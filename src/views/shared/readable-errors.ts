import type { CSSProperties } from 'react';
import { DANGER_TEXT } from '../shell/contrast.js';

/**
 * A form style that draws field errors (message, border and text) in a red with AA contrast in both colour
 * schemes: Mantine's error red 6 has 3.3:1 on white, which axe's color-contrast rule refuses.
 */
export const READABLE_ERRORS = { '--mantine-color-error': DANGER_TEXT } as CSSProperties;
