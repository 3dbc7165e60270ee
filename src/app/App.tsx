import { localStorageColorSchemeManager, MantineProvider } from '@mantine/core';
import { useSelector } from '@xstate/react';
import { Suspense, useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { AppFrameView } from '../views/shell/AppFrameView.js';
import { PageLoader } from '../views/shell/PageLoader.js';
import { theme } from '../views/theme.js';
import { routeAt } from './routes.js';
import { ScreenBoundary } from './ScreenBoundary.js';
import { SessionProvider, useAuthActor, useNavigationActor } from './session-context.js';
import type { Session } from './wiring/session.js';

/** Keeps the light/dark choice between visits (presentation only, outside the machines). */
const colorSchemeManager = localStorageColorSchemeManager({ key: 'regulars-color-scheme' });

const LOGIN_ROUTE = routeAt('/login');
const AUTHENTICATE_ROUTE = routeAt('/authenticate');

/** Sets the page title to '{page} | {brand}' (spec section 2) in the current language. */
function useDocumentTitle(titleKey: string | null) {
  const { t, i18n } = useTranslation();
  useEffect(() => {
    const brand = t('brand');
    document.title = titleKey ? `${t(titleKey)} | ${brand}` : brand;
  }, [t, i18n.language, titleKey]);
}

/** Picks what to show: the sign-in screens until signed in, then the page of the current route. */
function Pages() {
  const auth = useAuthActor();
  const navigation = useNavigationActor();
  const authenticated = useSelector(auth, (state) => state.hasTag('authenticated'));
  const path = useSelector(navigation, (state) => state.context.path);
  const ready = useSelector(navigation, (state) => state.hasTag('ready'));

  const signInRoute = path === '/authenticate' ? AUTHENTICATE_ROUTE : LOGIN_ROUTE;
  const route = authenticated ? (ready ? routeAt(path) : null) : signInRoute;
  useDocumentTitle(route?.titleKey ?? null);

  if (!route) return <PageLoader fullScreen />;
  const Screen = route.screen;
  const page = (
    <ScreenBoundary key={route.pattern}>
      <Suspense fallback={<PageLoader fullScreen={!route.frame} />}>
        <Screen />
      </Suspense>
    </ScreenBoundary>
  );
  if (!route.frame) return page;
  return (
    <AppFrameView auth={auth} navigation={navigation}>
      {page}
    </AppFrameView>
  );
}

/** The whole app: Mantine with the theme, the session actors in context, and the pages. */
export function App({ session }: { session: Session }) {
  return (
    <MantineProvider theme={theme} colorSchemeManager={colorSchemeManager} defaultColorScheme="auto">
      <SessionProvider session={session}>
        <Pages />
      </SessionProvider>
    </MantineProvider>
  );
}
