import { Button, Center, EmptyState, Group, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { EMPTY_STATE_STYLES, MUTED_TEXT } from '../shell/contrast.js';

/** One of the custom error pages (/custom-error/error-1 … error-6); see CUSTOM_ERROR_CODES. */
export type CustomErrorNumber = 1 | 2 | 3 | 4 | 5 | 6;

function AlertIcon() {
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
      <path d="M12 3 2 21h20L12 3z" />
      <path d="M12 10v5M12 18h.01" />
    </svg>
  );
}

/**
 * Explains one kind of failure in the user's language, with Retry (reloads the page that failed) and a
 * way home to the dashboard.
 */
export function CustomErrorView({
  code,
  onRetry,
  onHome,
}: {
  code: CustomErrorNumber;
  onRetry: () => void;
  onHome: () => void;
}) {
  const { t } = useTranslation();
  return (
    <Center component="main" mih="100vh" p="md">
      <EmptyState
        styles={EMPTY_STATE_STYLES}
        size="lg"
        color="red"
        variant="light"
        icon={<AlertIcon />}
        maw={560}
      >
        <EmptyState.Title order={1}>{t(`errors.custom.error${code}.title`)}</EmptyState.Title>
        <EmptyState.Description>
          {t(`errors.custom.error${code}.body`)}
          <Text component="span" display="block" mt={6} size="xs" c={MUTED_TEXT}>
            {t('errors.custom.code', { code })}
          </Text>
        </EmptyState.Description>
        <EmptyState.Actions>
          <Group justify="center">
            <Button onClick={onRetry}>{t('errors.custom.retry')}</Button>
            <Button variant="default" onClick={onHome}>
              {t('errors.custom.home')}
            </Button>
          </Group>
        </EmptyState.Actions>
      </EmptyState>
    </Center>
  );
}
