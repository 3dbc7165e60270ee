import { Skeleton, Stack } from '@mantine/core';
import { lazy, Suspense } from 'react';

// The landing page's body (the dashboard kit, its popovers and charts) comes as a second chunk, so the first
// load of /dashboard stays within its budget (scripts/check-first-load.ts) and the page shows at once.
const HomeDashboardScreen = lazy(() => import('./HomeDashboardScreen.js'));

/** /dashboard and /marketing-analytics (Recommendations): a skeleton at once, then the home dashboard. */
export default function DashboardScreen() {
  return (
    <Suspense
      fallback={
        <Stack gap="md" aria-hidden>
          <Skeleton height={36} width="40%" />
          <Skeleton height={96} />
          <Skeleton height={280} />
        </Stack>
      }
    >
      <HomeDashboardScreen />
    </Suspense>
  );
}
