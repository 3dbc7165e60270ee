import { type CSSVariablesResolver, localStorageColorSchemeManager, MantineProvider } from '@mantine/core';
import { useSelector } from '@xstate/react';
import { Suspense, useCallback, useEffect, useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { type Access, roleAllowed } from '../machines/navigation.machine.js';
import { currentLocation } from '../services/history.js';
import { LocationPickerButton } from '../views/locations/LocationPickerButton.js';
import { AppFrameView } from '../views/shell/AppFrameView.js';
import { SupportMenuItems } from '../views/support/SupportMenuItems.js';
import { PageLoader } from '../views/shell/PageLoader.js';
import type { NavSection } from '../views/shell/Sidebar.js';
import { theme } from '../views/theme.js';
import { LocationSelectionProvider, useLocationSelectionActor } from './location-selection-context.js';
import { type CustomErrorCode, customErrorPath, NAV_GROUPS, ROUTES, routeAt } from './routes.js';
import { ScreenBoundary } from './ScreenBoundary.js';
import { useAppActor } from './actors.js';
import { supportLogLogic } from './wiring/support.js';
import { SessionProvider, useAuthActor, useNavigationActor } from './session-context.js';
import type { Session } from './wiring/session.js';

/** Keeps the light/dark choice between visits (presentation only, outside the machines). */
const colorSchemeManager = localStorageColorSchemeManager({ key: 'regulars-color-scheme' });

/**
 * Mantine's `dimmed` grey (gray 6) fails WCAG AA contrast (3.3:1 on white) for descriptions and helper
 * text; every screen's dimmed text uses a darker grey instead (axe checks it in tests/e2e/routes.test.ts).
 */
const cssVariablesResolver: CSSVariablesResolver = (theme) => ({
  variables: {},
  light: { '--mantine-color-dimmed': theme.colors.gray[7] ?? '#495057' },
  dark: { '--mantine-color-dimmed': theme.colors.dark[1] ?? '#b8b8b8' },
});

const LOGIN_ROUTE = routeAt('/login');
const AUTHENTICATE_ROUTE = routeAt('/authenticate');

/** Where a breadcrumb naming a page links to: every sidebar page, by its title key. */
const CRUMB_LINKS: Readonly<Record<string, string>> = Object.fromEntries(
  ROUTES.filter((route) => route.group !== null).map((route) => [route.titleKey, route.pattern]),
);

/** The sidebar: each group's pages whose feature the company has and whose roles admit the user. */
function sidebarSections(access: Access | null): NavSection[] {
  if (!access) return [];
  return NAV_GROUPS.map((group) => ({
    group,
    items: ROUTES.filter(
      (route) =>
        route.group === group &&
        (route.feature === null || access.features.includes(route.feature)) &&
        roleAllowed(route.roles, access),
    ).map((route) => ({ to: route.pattern, labelKey: route.titleKey })),
  })).filter((section) => section.items.length > 0);
}

/** Sets the page title to '{page} | {brand}' (spec section 2) in the current language. */
function useDocumentTitle(titleKey: string | null) {
  const { t } = useTranslation();
  useEffect(() => {
    const brand = t('brand');
    document.title = titleKey ? `${t(titleKey)} | ${brand}` : brand;
  }, [t, titleKey]);
}

/** The header's location picker, on the app-wide location selection. */
function HeaderLocationPicker() {
  return <LocationPickerButton actor={useLocationSelectionActor()} />;
}

/** Picks what to show: the sign-in screens until signed in, then the page of the current route. */
function Pages() {
  const auth = useAuthActor();
  // One support-log actor for the session, so a sent log's reference stays visible across pages.
  const support = useAppActor(supportLogLogic);
  const navigation = useNavigationActor();
  const authenticated = useSelector(auth, (state) => state.hasTag('authenticated'));
  const path = useSelector(navigation, (state) => state.context.path);
  const ready = useSelector(navigation, (state) => state.hasTag('ready'));
  const access = useSelector(navigation, (state) => state.context.access);
  const sections = useMemo(() => sidebarSections(access), [access]);

  // A screen that failed to load or render: its custom error page, remembering where Retry goes.
  const onFailure = useCallback(
    (code: CustomErrorCode) =>
      navigation.send({ type: 'route.navigate', path: customErrorPath(code, currentLocation()) }),
    [navigation],
  );

  const signInRoute = path === '/authenticate' ? AUTHENTICATE_ROUTE : LOGIN_ROUTE;
  const route = authenticated ? (ready ? routeAt(path) : null) : signInRoute;
  useDocumentTitle(route?.titleKey ?? null);

  if (!route) return <PageLoader fullScreen />;
  const Screen = route.screen;
  const page = (
    <ScreenBoundary key={path} onFailure={onFailure}>
      <Suspense fallback={<PageLoader fullScreen={!route.frame} />}>
        <Screen />
      </Suspense>
    </ScreenBoundary>
  );
  if (!route.frame) return page;
  return (
    <AppFrameView
      auth={auth}
      navigation={navigation}
      sections={sections}
      crumbLinks={CRUMB_LINKS}
      locationPicker={<HeaderLocationPicker />}
      supportItems={<SupportMenuItems actor={support} />}
    >
      {page}
    </AppFrameView>
  );
}

/** The whole app: Mantine with the theme, the session and location-selection actors in context, the pages. */
export function App({ session }: { session: Session }) {
  return (
    <MantineProvider
      theme={theme}
      colorSchemeManager={colorSchemeManager}
      defaultColorScheme="auto"
      cssVariablesResolver={cssVariablesResolver}
    >
      <SessionProvider session={session}>
        <LocationSelectionProvider>
          <Pages />
        </LocationSelectionProvider>
      </SessionProvider>
    </MantineProvider>
  );
}
