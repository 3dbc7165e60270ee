// The shell's floating pieces (menus, tooltips, the collapsed sidebar's flyouts) and Floating UI under
// them: their own chunk, loaded right after the first page shows (see useFloatingParts).
export { HoverCard, Menu, Tooltip } from '@mantine/core';
