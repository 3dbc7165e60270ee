import { Alert, AppShell, Box, Group, Title } from '@mantine/core';
import { useSelector } from '@xstate/react';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { ColorSchemeToggle } from './ColorSchemeToggle.js';
import { ImpersonationBanner } from './ImpersonationBanner.js';
import { LanguagePicker } from './LanguagePicker.js';
import { RouteButton, RouteLink } from './RouteLink.js';
import type { AuthActor, NavigationActor } from './types.js';
import { UserMenu } from './UserMenu.js';

const HEADER_HEIGHT = 60;
const BANNER_HEIGHT = 40;

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
 * The frame of every signed-in page: a header with the brand, the main links (Dashboard, Account, and
 * Act as a user for staff), the language picker, the colour-scheme toggle and the user menu, and, while
 * staff act as someone, the banner naming both. The full sidebar arrives with the shared layout.
 */
export function AppFrameView({
  auth,
  navigation,
  children,
}: {
  auth: AuthActor;
  navigation: NavigationActor;
  children: ReactNode;
}) {
  const { t } = useTranslation();
  const path = useSelector(navigation, (state) => state.context.path);
  const isStaff = useSelector(auth, (state) => state.context.user?.is_staff ?? false);
  const impersonating = useSelector(auth, (state) => Boolean(state.context.user?.impersonator));
  const error = useSelector(auth, (state) =>
    state.context.error === 'impersonationFailed' || state.context.error === 'impersonationEndFailed'
      ? state.context.error
      : null,
  );
  const links = [
    { to: '/dashboard', label: t('shell.nav.dashboard') },
    { to: '/account', label: t('shell.nav.account') },
    ...(isStaff ? [{ to: '/hijack', label: t('shell.nav.hijack') }] : []),
  ];

  return (
    <AppShell header={{ height: HEADER_HEIGHT + (impersonating ? BANNER_HEIGHT : 0) }} padding="md">
      <AppShell.Header>
        <ImpersonationBanner actor={auth} />
        <Group h={HEADER_HEIGHT} px={{ base: 'xs', sm: 'md' }} gap="xs" justify="space-between" wrap="nowrap">
          <Group gap="md" wrap="nowrap">
            <RouteLink
              navigation={navigation}
              to="/dashboard"
              underline="never"
              c="inherit"
              aria-label={t('shell.home', { brand: t('brand') })}
            >
              <Group gap={8} wrap="nowrap">
                <BrandMark />
                <Title order={2} size="h4" visibleFrom="xs">
                  {t('brand')}
                </Title>
              </Group>
            </RouteLink>
            <Box component="nav" aria-label={t('shell.nav.label')}>
              <Group gap={4} wrap="nowrap">
                {links.map((link) => {
                  const current = path === link.to;
                  return (
                    <RouteButton
                      key={link.to}
                      navigation={navigation}
                      to={link.to}
                      current={current}
                      variant={current ? 'light' : 'subtle'}
                      color={current ? undefined : 'gray'}
                      size="sm"
                      px={{ base: 'xs', sm: 'md' }}
                    >
                      {link.label}
                    </RouteButton>
                  );
                })}
              </Group>
            </Box>
          </Group>
          <Group gap="xs" wrap="nowrap">
            <Box visibleFrom="sm">
              <LanguagePicker actor={auth} />
            </Box>
            <ColorSchemeToggle />
            <UserMenu auth={auth} navigation={navigation} />
          </Group>
        </Group>
      </AppShell.Header>
      <AppShell.Main>
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
    </AppShell>
  );
}
