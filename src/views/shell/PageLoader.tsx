import { Center, Loader } from '@mantine/core';
import { useTranslation } from 'react-i18next';

/** Shown while a page's code loads or the navigation is redirecting. */
export function PageLoader({ fullScreen = false }: { fullScreen?: boolean }) {
  const { t } = useTranslation();
  return (
    <Center mih={fullScreen ? '100vh' : 240} role="status" aria-live="polite">
      <Loader aria-label={t('shell.loading')} />
    </Center>
  );
}
