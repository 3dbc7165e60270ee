import { Center, EmptyState, Group } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { EMPTY_STATE_STYLES } from './contrast.js';
import { RouteButton } from './RouteLink.js';

/** Which explanation the page gives. */
export type StatusKind = 'noAccess' | 'accessDenied' | 'notFound';

function LockIcon() {
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
      <rect x="4" y="11" width="16" height="10" rx="2" />
      <path d="M8 11V7a4 4 0 0 1 8 0v4" />
    </svg>
  );
}

function CompassIcon() {
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
      <circle cx="12" cy="12" r="9" />
      <path d="m15.5 8.5-2 5-5 2 2-5z" />
    </svg>
  );
}

/**
 * Why a page is not shown: the company lacks its feature (/no-access), the user's role may not open it
 * (/access-denied), or there is no such page (/404); with links back to where the user can go.
 */
export function StatusPageView({ kind }: { kind: StatusKind }) {
  const { t } = useTranslation();
  return (
    <Center mih={kind === 'notFound' ? '100vh' : 420} p="md">
      <EmptyState
        styles={EMPTY_STATE_STYLES}
        size="lg"
        variant="light"
        color={kind === 'notFound' ? 'gray' : 'regulars'}
        icon={kind === 'notFound' ? <CompassIcon /> : <LockIcon />}
        maw={560}
      >
        <EmptyState.Title order={1}>{t(`errors.${kind}.title`)}</EmptyState.Title>
        <EmptyState.Description>{t(`errors.${kind}.body`)}</EmptyState.Description>
        <EmptyState.Actions>
          <Group justify="center">
            {kind !== 'noAccess' && <RouteButton to="/dashboard">{t('errors.toDashboard')}</RouteButton>}
            <RouteButton to="/account" variant={kind === 'noAccess' ? 'filled' : 'default'}>
              {t('errors.toAccount')}
            </RouteButton>
          </Group>
        </EmptyState.Actions>
      </EmptyState>
    </Center>
  );
}
