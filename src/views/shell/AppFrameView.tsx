import { Alert, AppShell, Box, Burger, Group, Title } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { useSelector } from '@xstate/react';
import { type ReactNode, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ColorSchemeToggle } from './ColorSchemeToggle.js';
import { ImpersonationBanner } from './ImpersonationBanner.js';
import { LanguagePicker } from './LanguagePicker.js';
import {
  BANNER_HEIGHT,
  BREAKPOINTS_PX,
  HEADER_HEIGHT,
  MENU_SLIDE_MS,
  SIDEBAR_RAIL_WIDTH,
  SIDEBAR_WIDTH,
} from './layout-constants.js';
import { PageBreadcrumbs } from './PageBreadcrumbs.js';
import { RouteLink } from './RouteLink.js';
import { ScrollToTopButton } from './ScrollToTopButton.js';
import { type NavSection, Sidebar } from './Sidebar.js';
import type { AuthActor, NavigationActor } from './types.js';
import { UserMenu } from './UserMenu.js';

function BrandMark() {
  return (
    <svg width="28" height="28" viewBox="0 0 32 32" aria-hidden="true">
      <rect width="32" height="32" rx="8" fill="var(--mantine-primary-color-filled)" />
      <path
        d="M10 23V9h7a4.5 4.5 0 0 1 0 9h-7m7 0 5 5"
        fill="none"
        stroke="#fff"
        strokeWidth="2.6"
        strokeLinecap="round"
        strokeLinejoin="round"
      />
    </svg>
  );
}

/**
 * The frame of every signed-in page (the shared layout of spec section 2): a header with the burger
 * (phone width), the brand, the location picker, the language picker, the colour-scheme toggle and the
 * user menu; the impersonation banner while staff act as someone; the sidebar of the pages the user may
 * open (a drawer on phones, collapsible to a rail on wider screens); the breadcrumbs; and a
 * scroll-to-top button. Every navigation closes the drawer (navigation machine); the router's scroll
 * restoration (src/app/AppLayout.tsx) starts a new page at the top and returns to the old place on Back.
 */
export function AppFrameView({
  auth,
  navigation,
  sections,
  crumbLinks,
  locationPicker,
  supportItems,
  notice,
  children,
}: {
  auth: AuthActor;
  navigation: NavigationActor;
  sections: readonly NavSection[];
  /** Paths of the pages a breadcrumb may link to, by their title key. */
  crumbLinks: Readonly<Record<string, string>>;
  /** The header's location picker. */
  locationPicker: ReactNode;
  /** The user menu's support items (event log download and send). */
  supportItems?: ReactNode;
  /** A notice above every page (the demo data still loading), or nothing. */
  notice?: ReactNode;
  children: ReactNode;
}) {
  const { t } = useTranslation();
  const navbarOpened = useSelector(navigation, (state) => state.context.navbarOpened);
  const impersonating = useSelector(auth, (state) => Boolean(state.context.user?.impersonator));
  const error = useSelector(auth, (state) =>
    state.context.error === 'impersonationFailed' || state.context.error === 'impersonationEndFailed'
      ? state.context.error
      : null,
  );
  // Presentation only: whether the desktop sidebar is folded to its rail, and expanded by a hover.
  const [collapsed, setCollapsed] = useState(false);
  const [hoverExpanded, setHoverExpanded] = useState(false);
  const phone = useMediaQuery(`(max-width: ${BREAKPOINTS_PX.sm - 0.02}px)`) ?? false;
  const rail = collapsed && !phone;

  const menuLabel = navbarOpened ? t('shell.layout.closeMenu') : t('shell.layout.openMenu');
  return (
    <AppShell
      header={{ height: HEADER_HEIGHT + (impersonating ? BANNER_HEIGHT : 0) }}
      navbar={{
        width: rail ? SIDEBAR_RAIL_WIDTH : SIDEBAR_WIDTH,
        breakpoint: 'sm',
        collapsed: { mobile: !navbarOpened },
      }}
      transitionDuration={MENU_SLIDE_MS}
      padding="md"
    >
      <AppShell.Header>
        <ImpersonationBanner actor={auth} />
        <Group h={HEADER_HEIGHT} px={{ base: 'xs', sm: 'md' }} gap="xs" justify="space-between" wrap="nowrap">
          <Group gap="sm" wrap="nowrap" style={{ minWidth: 0 }}>
            <Burger
              opened={navbarOpened}
              onClick={() => navigation.send({ type: 'navbar.toggle' })}
              hiddenFrom="sm"
              size="sm"
              aria-label={menuLabel}
              aria-expanded={navbarOpened}
              aria-controls="app-sidebar"
            />
            <RouteLink
              to="/dashboard"
              underline="never"
              c="inherit"
              aria-label={t('shell.home', { brand: t('brand') })}
            >
              <Group gap={8} wrap="nowrap">
                <BrandMark />
                <Title order={2} size="h4" visibleFrom="md">
                  {t('brand')}
                </Title>
              </Group>
            </RouteLink>
            <Box style={{ minWidth: 0 }}>{locationPicker}</Box>
          </Group>
          <Group gap="xs" wrap="nowrap">
            <Box visibleFrom="sm">
              <LanguagePicker actor={auth} />
            </Box>
            <ColorSchemeToggle />
            <UserMenu auth={auth} navigation={navigation} supportItems={supportItems} />
          </Group>
        </Group>
      </AppShell.Header>
      <AppShell.Navbar
        id="app-sidebar"
        style={
          rail && hoverExpanded
            ? {
                width: SIDEBAR_WIDTH,
                boxShadow: 'var(--mantine-shadow-lg)',
                transition: `width ${MENU_SLIDE_MS}ms`,
              }
            : { transition: `width ${MENU_SLIDE_MS}ms` }
        }
      >
        <Sidebar
          sections={sections}
          collapsed={rail && !hoverExpanded}
          onToggleCollapsed={() => {
            setCollapsed((value) => !value);
            setHoverExpanded(false);
          }}
          onHoverExpand={setHoverExpanded}
          showCollapseToggle={!phone}
        />
      </AppShell.Navbar>
      <AppShell.Main>
        {notice}
        <PageBreadcrumbs navigation={navigation} links={crumbLinks} />
        {error && (
          // The banner's End button stays available to try again.
          <Alert color="red" mb="md" role="alert">
            {t(
              error === 'impersonationFailed'
                ? 'shell.impersonation.failed'
                : 'shell.impersonation.endFailed',
            )}
          </Alert>
        )}
        {children}
      </AppShell.Main>
      <ScrollToTopButton />
    </AppShell>
  );
}
