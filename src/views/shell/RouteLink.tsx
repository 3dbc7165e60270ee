import { Anchor, type AnchorProps, Button, type ButtonProps } from '@mantine/core';
import type { ReactNode } from 'react';
import { Link } from 'react-router';

/**
 * A react-router `Link` styled as text: a real `href` (new tab and window work), and a plain click moves
 * the router, whose location change the navigation machine checks.
 */
export function RouteLink({
  to,
  children,
  ...props
}: AnchorProps & { to: string; children: ReactNode; 'aria-label'?: string }) {
  return (
    <Anchor component={Link} to={to} {...props}>
      {children}
    </Anchor>
  );
}

/** A react-router `Link` that looks like a button. */
export function RouteButton({ to, children, ...props }: ButtonProps & { to: string; children: ReactNode }) {
  return (
    <Button component={Link} to={to} {...props}>
      {children}
    </Button>
  );
}
