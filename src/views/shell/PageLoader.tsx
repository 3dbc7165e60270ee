import { Center, Loader, VisuallyHidden } from '@mantine/core';
import { useTranslation } from 'react-i18next';

/** Shown while a page's code loads or the navigation is redirecting; announced politely. */
export function PageLoader({ fullScreen = false }: { fullScreen?: boolean }) {
  const { t } = useTranslation();
  return (
    <Center mih={fullScreen ? '100vh' : 240} role="status" aria-live="polite">
      {/* A plain span may not carry aria-label, so the words are visually hidden text instead. */}
      <Loader aria-hidden="true" />
      <VisuallyHidden>{t('shell.loading')}</VisuallyHidden>
    </Center>
  );
}
