import { createTheme, type MantineColorsTuple } from '@mantine/core';

/** The brand colour: a deep teal that keeps AA contrast for white text from shade 7 up. */
const regularsTeal: MantineColorsTuple = [
  '#e6fbf8',
  '#d3f2ee',
  '#a9e3db',
  '#7bd3c7',
  '#55c6b6',
  '#3cbdab',
  '#0f8a7a',
  '#0b7a6c',
  '#066a5d',
  '#005a4e',
];

/** System fonts only: nothing is fetched from a font CDN. */
export const SYSTEM_FONTS =
  'system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, "Noto Sans", "PingFang SC", "Hiragino Sans", "Microsoft YaHei", sans-serif';

/** The one Mantine theme of the app, used in light and dark colour schemes. */
export const theme = createTheme({
  primaryColor: 'regulars',
  // Shade 6 gives white text only 4.2:1; 7 keeps AA (5.2:1) in both schemes.
  primaryShade: { light: 7, dark: 7 },
  colors: { regulars: regularsTeal },
  fontFamily: SYSTEM_FONTS,
  headings: { fontFamily: SYSTEM_FONTS, fontWeight: '650' },
  defaultRadius: 'md',
  cursorType: 'pointer',
  focusRing: 'auto',
  // Breakpoints of product spec section 9 (sm 544, md 768, lg 992, xl 1200), in em.
  breakpoints: { xs: '30em', sm: '34em', md: '48em', lg: '62em', xl: '75em' },
});
