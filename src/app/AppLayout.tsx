import { useSelector } from '@xstate/react';
import { type ReactNode, Suspense, useCallback, useEffect, useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { Outlet, ScrollRestoration, useLocation, useMatches } from 'react-router';
import { type Access, normalizePath, roleAllowed } from '../machines/navigation.machine.js';
import { DemoLoadingNotice } from '../views/demo/DemoLoadingNotice.js';
import { LocationPickerButton } from '../views/locations/LocationPickerButton.js';
import { AppFrameView } from '../views/shell/AppFrameView.js';
import { PageLoader } from '../views/shell/PageLoader.js';
import type { NavSection } from '../views/shell/Sidebar.js';
import { SupportMenuItems } from '../views/support/SupportMenuItems.js';
import { useAppActor } from './actors.js';
import { useLocationSelectionActor } from './location-selection-context.js';
import {
  type AppRoute,
  type CustomErrorCode,
  customErrorPath,
  NAV_GROUPS,
  ROUTES,
  routeAt,
} from './routes.js';
import { ScreenBoundary } from './ScreenBoundary.js';
import { useAuthActor, useNavigationActor } from './session-context.js';
import { demoStatusLogic } from './wiring/demo-status.js';
import { supportLogLogic } from './wiring/support.js';

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
        roleAllowed(route.leastRole, access),
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

/**
 * The layout route every page renders in: the sign-in screens until signed in; then, once the navigation
 * machine has checked the router's location (ready for that same path), the matched page's screen in the
 * frame or bare. Scroll positions are restored on back/forward and reset on other navigations.
 */
export function AppLayout() {
  const auth = useAuthActor();
  // One support-log actor for the session, so a sent log's reference stays visible across pages.
  const support = useAppActor(supportLogLogic);
  // Asks once whether the demo data is still loading, and follows it while it is.
  const demoStatus = useAppActor(demoStatusLogic);
  const navigation = useNavigationActor();
  const location = useLocation();
  const matched = useMatches().at(-1)?.handle as AppRoute | undefined;
  const authenticated = useSelector(auth, (state) => state.hasTag('authenticated'));
  const checkedPath = useSelector(navigation, (state) => (state.hasTag('ready') ? state.context.path : null));
  const access = useSelector(navigation, (state) => state.context.access);
  const sections = useMemo(() => sidebarSections(access), [access]);
  const path = normalizePath(location.pathname);

  // A screen that failed to load or render: its custom error page, remembering where Retry goes.
  const failedAt = `${location.pathname}${location.search}`;
  const onFailure = useCallback(
    (code: CustomErrorCode) =>
      navigation.send({ type: 'route.navigate', path: customErrorPath(code, failedAt) }),
    [navigation, failedAt],
  );

  const signInRoute = path === '/authenticate' ? AUTHENTICATE_ROUTE : LOGIN_ROUTE;
  // Signed in, a page shows only once the machine has let this very path through.
  const route = authenticated ? (checkedPath === path ? (matched ?? null) : null) : signInRoute;
  useDocumentTitle(route?.titleKey ?? null);

  let content: ReactNode;
  if (!route) {
    content = <PageLoader fullScreen />;
  } else {
    const SignInScreen = authenticated ? null : route.screen;
    const page = (
      <ScreenBoundary key={path} onFailure={onFailure}>
        <Suspense fallback={<PageLoader fullScreen={!route.frame} />}>
          {SignInScreen ? <SignInScreen /> : <Outlet />}
        </Suspense>
      </ScreenBoundary>
    );
    content = route.frame ? (
      <AppFrameView
        auth={auth}
        navigation={navigation}
        sections={sections}
        crumbLinks={CRUMB_LINKS}
        locationPicker={<HeaderLocationPicker />}
        supportItems={<SupportMenuItems actor={support} />}
        notice={<DemoLoadingNotice actor={demoStatus} />}
      >
        {page}
      </AppFrameView>
    ) : (
      page
    );
  }
  return (
    <>
      {content}
      <ScrollRestoration />
    </>
  );
}
