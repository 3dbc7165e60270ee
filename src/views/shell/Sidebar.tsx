import { ActionIcon, Box, NavLink, Stack, Text, UnstyledButton } from '@mantine/core';
import { useTimeout } from '@mantine/hooks';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { NavLink as RouterNavLink, useLocation } from 'react-router';
import { DROPDOWN_CLOSE_MS, MENU_HOVER_PAUSE_MS } from './layout-constants.js';
import { MUTED_TEXT } from './contrast.js';
import { FloatingTooltip } from './FloatingTooltip.js';
import { useFloatingParts, type FloatingParts } from './useFloatingParts.js';

/** One link of the sidebar: where it goes and the i18n key of its label. */
export interface NavItem {
  to: string;
  labelKey: string;
}

/** One group of links (its label is `pages.groups.<group>`), holding only the pages the user may open. */
export interface NavSection {
  group: string;
  items: readonly NavItem[];
}

const GROUP_ICONS: Record<string, ReactNode> = {
  insights: <path d="M4 20V10M10 20V4M16 20v-7M22 20H2" />,
  guests: (
    <>
      <circle cx="9" cy="8" r="4" />
      <path d="M2 21a7 7 0 0 1 14 0M17 4a4 4 0 0 1 0 8M22 21a6 6 0 0 0-4-5.6" />
    </>
  ),
  marketing: (
    <path d="M3 11v3a1 1 0 0 0 1 1h2l5 4V6L6 10H4a1 1 0 0 0-1 1zM15 8a5 5 0 0 1 0 8M18 5a9 9 0 0 1 0 14" />
  ),
  locations: (
    <>
      <path d="M12 22s7-6.5 7-12a7 7 0 0 0-14 0c0 5.5 7 12 7 12z" />
      <circle cx="12" cy="10" r="2.5" />
    </>
  ),
  settings: (
    <>
      <circle cx="12" cy="12" r="3" />
      <path d="M12 2v3M12 19v3M2 12h3M19 12h3M4.9 4.9l2.1 2.1M17 17l2.1 2.1M4.9 19.1 7 17M17 7l2.1-2.1" />
    </>
  ),
};

function GroupIcon({ group }: { group: string }) {
  return (
    <svg
      width="20"
      height="20"
      viewBox="0 0 24 24"
      fill="none"
      stroke="currentColor"
      strokeWidth="1.8"
      aria-hidden="true"
    >
      {GROUP_ICONS[group] ?? <circle cx="12" cy="12" r="8" />}
    </svg>
  );
}

function ChevronIcon({ left }: { left: boolean }) {
  return (
    <svg
      width="16"
      height="16"
      viewBox="0 0 24 24"
      fill="none"
      stroke="currentColor"
      strokeWidth="2"
      aria-hidden="true"
    >
      <path d={left ? 'm15 6-6 6 6 6' : 'm9 6 6 6-6 6'} />
    </svg>
  );
}

/** One sidebar entry: a react-router `NavLink` (a real link, aria-current on the page shown). */
function PageLink({ item, active }: { item: NavItem; active: boolean }) {
  const { t } = useTranslation();
  return (
    <NavLink
      component={RouterNavLink}
      to={item.to}
      end
      label={t(item.labelKey)}
      active={active}
      style={{ borderRadius: 'var(--mantine-radius-md)' }}
    />
  );
}

/**
 * The sidebar menu: the groups of pages the user's features and role allow, the current page
 * highlighted (aria-current). Collapsed to a rail of group icons, each opens its links in a flyout that
 * stays open for the dropdown timeout after the pointer leaves; resting on the rail for the hover pause expands it
 * over the page until the pointer leaves.
 */
export function Sidebar({
  sections,
  collapsed,
  onToggleCollapsed,
  onHoverExpand,
  showCollapseToggle,
}: {
  sections: readonly NavSection[];
  /** True when the sidebar shows as a rail (desktop only). */
  collapsed: boolean;
  onToggleCollapsed: () => void;
  /** Asks the frame to expand (true) or fold back (false) a collapsed sidebar while hovered. */
  onHoverExpand: (expanded: boolean) => void;
  showCollapseToggle: boolean;
}) {
  const { t } = useTranslation();
  const hover = useTimeout(() => onHoverExpand(true), MENU_HOVER_PAUSE_MS);
  const currentPath = useLocation().pathname;
  const floating = useFloatingParts();

  return (
    <Box
      component="nav"
      aria-label={t('shell.nav.label')}
      h="100%"
      style={{ display: 'flex', flexDirection: 'column' }}
      onMouseEnter={collapsed ? hover.start : undefined}
      onMouseLeave={() => {
        hover.clear();
        onHoverExpand(false);
      }}
    >
      {/* The browser's own scrolling: Mantine's ScrollArea would bring Floating UI into the first load. */}
      <Box style={{ flex: 1, minHeight: 0, overflowY: 'auto', overscrollBehavior: 'contain' }}>
        <Stack gap="sm" p={collapsed ? 'xs' : 'sm'}>
          {sections.map((section) =>
            collapsed ? (
              <CollapsedSection
                key={section.group}
                section={section}
                currentPath={currentPath}
                floating={floating}
                onOpen={onToggleCollapsed}
              />
            ) : (
              <Box key={section.group} role="group" aria-labelledby={`nav-group-${section.group}`}>
                <Text
                  id={`nav-group-${section.group}`}
                  size="xs"
                  fw={700}
                  tt="uppercase"
                  c={MUTED_TEXT}
                  px="sm"
                  pb={4}
                  style={{ display: 'flex', alignItems: 'center', gap: 8 }}
                >
                  <GroupIcon group={section.group} />
                  {t(`pages.groups.${section.group}`)}
                </Text>
                {section.items.map((item) => (
                  <PageLink key={item.to} item={item} active={item.to === currentPath} />
                ))}
              </Box>
            ),
          )}
        </Stack>
      </Box>
      {showCollapseToggle && (
        <Box p="xs" style={{ borderTop: '1px solid var(--app-shell-border-color)' }}>
          <FloatingTooltip
            position="right"
            label={collapsed ? t('shell.layout.expand') : t('shell.layout.collapse')}
          >
            <UnstyledButton
              onClick={onToggleCollapsed}
              aria-label={collapsed ? t('shell.layout.expand') : t('shell.layout.collapse')}
              aria-expanded={!collapsed}
              p="xs"
              w="100%"
              style={{ display: 'flex', justifyContent: collapsed ? 'center' : 'flex-end', borderRadius: 8 }}
            >
              <ChevronIcon left={!collapsed} />
            </UnstyledButton>
          </FloatingTooltip>
        </Box>
      )}
    </Box>
  );
}

/**
 * A group of the collapsed sidebar: its icon, which opens the whole sidebar when clicked (keyboard and
 * touch), and on hover a flyout with the group's links once the floating parts have loaded.
 */
function CollapsedSection({
  section,
  currentPath,
  floating,
  onOpen,
}: {
  section: NavSection;
  currentPath: string;
  floating: FloatingParts | null;
  onOpen: () => void;
}) {
  const { t } = useTranslation();
  const current = section.items.some((item) => item.to === currentPath);
  const icon = (
    <ActionIcon
      variant={current ? 'light' : 'subtle'}
      color={current ? undefined : 'gray'}
      size="xl"
      aria-label={t(`pages.groups.${section.group}`)}
      // Keyboard and touch users open the whole sidebar instead of the hover flyout.
      onClick={onOpen}
      mx="auto"
    >
      <GroupIcon group={section.group} />
    </ActionIcon>
  );
  if (!floating) return icon;
  const { HoverCard } = floating;
  return (
    <HoverCard position="right-start" closeDelay={DROPDOWN_CLOSE_MS} withinPortal offset={12} shadow="md">
      <HoverCard.Target>{icon}</HoverCard.Target>
      <HoverCard.Dropdown p={4} miw={200}>
        {/* Links, not an ARIA menu: the flyout is navigation, like the expanded sidebar. */}
        <Box component="nav" aria-label={t(`pages.groups.${section.group}`)}>
          {section.items.map((item) => (
            <PageLink key={item.to} item={item} active={item.to === currentPath} />
          ))}
        </Box>
      </HoverCard.Dropdown>
    </HoverCard>
  );
}
