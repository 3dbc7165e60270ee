import { Avatar, Box, Group, Text, UnstyledButton, VisuallyHidden } from '@mantine/core';
import { useState, type ReactNode } from 'react';
import { useSelector } from '@xstate/react';
import { useTranslation } from 'react-i18next';
import { LanguagePicker } from './LanguagePicker.js';
import { DROPDOWN_CLOSE_MS } from './layout-constants.js';
import { DANGER_TEXT, MUTED_TEXT } from './contrast.js';
import type { AuthActor, NavigationActor } from './types.js';
import { loadFloatingParts, useFloatingParts } from './useFloatingParts.js';

/**
 * The signed-in user's menu: who they are, account settings, the support items (download or send the
 * event log), and Log out (`session.logout`).
 */
export function UserMenu({
  auth,
  navigation,
  supportItems,
}: {
  auth: AuthActor;
  navigation: NavigationActor;
  /** Menu items for support, rendered above Log out. */
  supportItems?: ReactNode;
}) {
  const { t } = useTranslation();
  const user = useSelector(auth, (state) => state.context.user);
  const floating = useFloatingParts();
  // A click before the menu's chunk has arrived opens the menu when it does.
  const [openWhenLoaded, setOpenWhenLoaded] = useState(false);
  if (!user) return null;
  const name = [user.first_name, user.last_name].filter(Boolean).join(' ') || user.username || user.email;
  const initials =
    name
      .split(/\s+/)
      .map((part) => part[0] ?? '')
      .join('')
      .slice(0, 2)
      .toUpperCase() || '?';
  const target = (
    <UnstyledButton
      style={{ borderRadius: 999 }}
      onClick={
        floating
          ? undefined
          : () => {
              setOpenWhenLoaded(true);
              loadFloatingParts().catch(() => undefined);
            }
      }
    >
      {/* The name comes from the hidden text, so the visible initials and name need no aria-label. */}
      <Group gap={8} wrap="nowrap" aria-hidden="true">
        <Avatar color="regulars" radius="xl" size={32}>
          {initials}
        </Avatar>
        <Text size="sm" fw={500} visibleFrom="md" truncate maw={160}>
          {name}
        </Text>
      </Group>
      <VisuallyHidden>{t('shell.userMenu.label', { name })}</VisuallyHidden>
    </UnstyledButton>
  );
  if (!floating) return target;
  const { Menu } = floating;
  return (
    // No focus placeholder: Mantine's sits inside role="menu", which may hold only menu items (axe).
    <Menu
      position="bottom-end"
      width={240}
      withinPortal
      closeDelay={DROPDOWN_CLOSE_MS}
      withInitialFocusPlaceholder={false}
      defaultOpened={openWhenLoaded}
    >
      <Menu.Target>{target}</Menu.Target>
      <Menu.Dropdown>
        <Menu.Label>{t('shell.userMenu.signedInAs')}</Menu.Label>
        <Text size="sm" px="sm" pb={4} fw={500} truncate>
          {user.email}
        </Text>
        <Text size="xs" px="sm" pb="xs" c={MUTED_TEXT} truncate>
          {user.company.name}
        </Text>
        {/* Narrow screens have no room for the picker in the header. */}
        <Box hiddenFrom="sm" px="sm" pb="xs">
          <LanguagePicker actor={auth} withLabel />
        </Box>
        <Menu.Divider />
        <Menu.Item onClick={() => navigation.send({ type: 'route.navigate', path: '/account' })}>
          {t('shell.userMenu.account')}
        </Menu.Item>
        {supportItems && (
          <>
            <Menu.Divider />
            {supportItems}
            <Menu.Divider />
          </>
        )}
        <Menu.Item c={DANGER_TEXT} onClick={() => auth.send({ type: 'session.logout' })}>
          {t('shell.userMenu.logout')}
        </Menu.Item>
      </Menu.Dropdown>
    </Menu>
  );
}
