import { Stack, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { SupportEventLog } from '../../schemas/support.js';
import { MUTED_TEXT } from '../shell/contrast.js';

/** A person as the list shows them: the name, else their user number when they were removed. */
function personName(name: string | null, id: number | null): string {
  return name ?? (id === null ? '—' : `#${id}`);
}

/**
 * Who sent a captured log (staff only see this list): the user's name and email, and the staff member
 * who sent it while acting as them, when one did.
 */
export function LogSender({ log }: { log: SupportEventLog }) {
  const { t } = useTranslation();
  const acting = log.actor_user_id !== null && log.actor_user_id !== log.user_id;
  const actor = [personName(log.actor_name, log.actor_user_id), log.actor_email].filter(Boolean).join(' · ');
  return (
    <Stack gap={0} data-testid="log-sender">
      <Text size="sm" fw={600}>
        {personName(log.user_name, log.user_id)}
      </Text>
      {log.user_email && (
        <Text size="xs" c={MUTED_TEXT} style={{ overflowWrap: 'anywhere' }}>
          {log.user_email}
        </Text>
      )}
      {acting && (
        <Text size="xs" c={MUTED_TEXT} style={{ overflowWrap: 'anywhere' }}>
          {t('replay.sentBy', { actor })}
        </Text>
      )}
    </Stack>
  );
}
