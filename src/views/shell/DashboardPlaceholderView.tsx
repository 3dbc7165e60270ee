import { Center, EmptyState } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { EMPTY_STATE_STYLES } from './contrast.js';
import { RouteButton } from './RouteLink.js';

function ChartIcon() {
  return (
    <svg
      width="32"
      height="32"
      viewBox="0 0 24 24"
      fill="none"
      stroke="currentColor"
      strokeWidth="1.8"
      aria-hidden="true"
    >
      <path d="M4 20V10M10 20V4M16 20v-7M22 20H2" />
    </svg>
  );
}

/** /dashboard until the Recommendations dashboard ships: an empty state that says so. */
export function DashboardPlaceholderView() {
  const { t } = useTranslation();
  return (
    <Center mih={420} p="md">
      <EmptyState styles={EMPTY_STATE_STYLES} size="lg" variant="light" icon={<ChartIcon />} maw={560}>
        <EmptyState.Title order={1}>{t('shell.dashboard.title')}</EmptyState.Title>
        <EmptyState.Description>{t('shell.dashboard.body')}</EmptyState.Description>
        <EmptyState.Actions>
          <RouteButton to="/account" variant="default">
            {t('shell.dashboard.account')}
          </RouteButton>
        </EmptyState.Actions>
      </EmptyState>
    </Center>
  );
}
