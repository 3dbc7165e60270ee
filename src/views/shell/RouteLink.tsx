import { Anchor, type AnchorProps, Button, type ButtonProps } from '@mantine/core';
import type { MouseEvent, ReactNode } from 'react';
import type { NavigationActor } from './types.js';

/** True for a plain left click: other clicks (new tab, new window) stay with the browser. */
function isPlainClick(event: MouseEvent): boolean {
  return event.button === 0 && !event.metaKey && !event.ctrlKey && !event.shiftKey && !event.altKey;
}

function onNavigate(navigation: NavigationActor, to: string) {
  return (event: MouseEvent<HTMLAnchorElement>) => {
    if (!isPlainClick(event)) return;
    event.preventDefault();
    navigation.send({ type: 'route.navigate', path: to });
  };
}

/** A real link (`href`, so it opens in a new tab too) whose plain click sends `route.navigate`. */
export function RouteLink({
  navigation,
  to,
  children,
  ...props
}: AnchorProps & { navigation: NavigationActor; to: string; children: ReactNode; 'aria-label'?: string }) {
  return (
    <Anchor href={to} onClick={onNavigate(navigation, to)} {...props}>
      {children}
    </Anchor>
  );
}

/** A button-looking link to a route; `current` marks the page being shown (aria-current). */
export function RouteButton({
  navigation,
  to,
  current = false,
  children,
  ...props
}: ButtonProps & { navigation: NavigationActor; to: string; current?: boolean; children: ReactNode }) {
  return (
    <Button
      component="a"
      href={to}
      onClick={onNavigate(navigation, to)}
      aria-current={current ? 'page' : undefined}
      {...props}
    >
      {children}
    </Button>
  );
}
