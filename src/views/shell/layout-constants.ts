/**
 * The shared layout's timings and sizes, from product spec section 9 ("Layout: menu-hover pause 800 ms,
 * scroll-to-top offset 300, menu slide speed 200 ms, dropdown timeout 500 ms. Breakpoints: sm 544,
 * md 768, lg 992, xl 1200"). The breakpoints themselves live in the Mantine theme (src/views/theme.ts).
 */

/** How long the pointer rests on a collapsed sidebar before it expands over the page. */
export const MENU_HOVER_PAUSE_MS = 800;

/** How far the page must be scrolled before the scroll-to-top button appears, in pixels. */
export const SCROLL_TOP_OFFSET_PX = 300;

/** The duration of the sidebar's and the drawer's slide, and of the scroll-to-top button's fade. */
export const MENU_SLIDE_MS = 200;

/** How long a flyout (a collapsed sidebar group's submenu, the user menu) stays open after the pointer leaves. */
export const DROPDOWN_CLOSE_MS = 500;

/** Spec section 9's breakpoints in pixels (the theme holds the same values in em). */
export const BREAKPOINTS_PX = { sm: 544, md: 768, lg: 992, xl: 1200 } as const;

/** The header's height, and the impersonation banner's above it. */
export const HEADER_HEIGHT = 60;
export const BANNER_HEIGHT = 40;

/** The sidebar's width expanded and collapsed to its rail. */
export const SIDEBAR_WIDTH = 256;
export const SIDEBAR_RAIL_WIDTH = 68;
