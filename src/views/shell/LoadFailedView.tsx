import { Button, Center, EmptyState } from '@mantine/core';
import { useTranslation } from 'react-i18next';

/** A page's code could not be downloaded (ChunkLoadError): say so and offer a reload. */
export function LoadFailedView({ onReload }: { onReload: () => void }) {
  const { t } = useTranslation();
  return (
    <Center mih={420} p="md" role="alert">
      <EmptyState size="lg" color="red" variant="light" maw={560}>
        <EmptyState.Title order={1}>{t('errors.loadFailed.title')}</EmptyState.Title>
        <EmptyState.Description>{t('errors.loadFailed.body')}</EmptyState.Description>
        <EmptyState.Actions>
          <Button onClick={onReload}>{t('errors.loadFailed.reload')}</Button>
        </EmptyState.Actions>
      </EmptyState>
    </Center>
  );
}
