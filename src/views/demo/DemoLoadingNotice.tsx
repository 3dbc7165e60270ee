import { Group, Loader, Text } from '@mantine/core';
import { useSelector } from '@xstate/react';
import { useTranslation } from 'react-i18next';
import type { ActorRefFrom } from 'xstate';
import { demoBannerShown, type demoStatusMachine } from '../../machines/demo-status.machine.js';

/**
 * While the demo data set's POS history is still loading (the server answers meanwhile): a thin band above the
 * page saying figures are still filling in, with the progress. Nothing otherwise.
 */
export function DemoLoadingNotice({ actor }: { actor: ActorRefFrom<typeof demoStatusMachine> }) {
  const { t } = useTranslation();
  const visible = useSelector(actor, demoBannerShown);
  const percent = useSelector(actor, (state) => state.context.percent ?? 0);
  if (!visible) return null;
  return (
    <Group
      role="status"
      justify="center"
      gap="xs"
      px="md"
      py={4}
      mb="md"
      wrap="nowrap"
      bg="blue.0"
      c="blue.9"
    >
      <Loader size={14} color="blue.9" mt={3} aria-hidden />
      <Text size="sm" c="blue.9">
        {t('shell.demoLoading', { percent })}
      </Text>
    </Group>
  );
}
