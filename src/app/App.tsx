import { type CSSVariablesResolver, localStorageColorSchemeManager, MantineProvider } from '@mantine/core';
import { RouterProvider } from 'react-router';
import { theme } from '../views/theme.js';
import { FileSaveProvider } from './file-save-context.js';
import { LocationSelectionProvider } from './location-selection-context.js';
import { SessionProvider } from './session-context.js';
import { styleNonce } from './content-security.js';
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

/**
 * The whole app: Mantine with the theme, the session and location-selection actors and the file save in context,
 * and the session's router rendering the pages (src/app/router.ts, src/app/AppLayout.tsx).
 */
export function App({ session }: { session: Session }) {
  return (
    <MantineProvider
      theme={theme}
      colorSchemeManager={colorSchemeManager}
      defaultColorScheme="auto"
      cssVariablesResolver={cssVariablesResolver}
      getStyleNonce={styleNonce}
    >
      <SessionProvider session={session}>
        <LocationSelectionProvider>
          <FileSaveProvider>
            {/* Outside transitions: a location and the navigation machine's check of it render together. */}
            <RouterProvider router={session.router} useTransitions={false} />
          </FileSaveProvider>
        </LocationSelectionProvider>
      </SessionProvider>
    </MantineProvider>
  );
}
