import type { TooltipProps } from '@mantine/core';
import type { ReactElement } from 'react';
import { useFloatingParts } from './useFloatingParts.js';

/** A Mantine tooltip around `children` once the shell's floating parts have loaded; the child alone until then. */
export function FloatingTooltip({
  children,
  ...props
}: Pick<TooltipProps, 'label' | 'position' | 'withArrow'> & { children: ReactElement }) {
  const floating = useFloatingParts();
  return floating ? <floating.Tooltip {...props}>{children}</floating.Tooltip> : children;
}
