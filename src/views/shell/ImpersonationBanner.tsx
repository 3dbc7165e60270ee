import { Button, Group, Text } from '@mantine/core';
import { useSelector } from '@xstate/react';
import { useTranslation } from 'react-i18next';
import type { AuthActor } from './types.js';

/**
 * While staff act as a company user: a banner naming both people, always visible in the frame, with a
 * one-click End that sends `impersonation.end`.
 */
export function ImpersonationBanner({ actor }: { actor: AuthActor }) {
  const { t } = useTranslation();
  const user = useSelector(actor, (state) => state.context.user);
  const ending = useSelector(actor, (state) => state.matches('endingImpersonation'));
  if (!user?.impersonator) return null;
  const name = [user.first_name, user.last_name].filter(Boolean).join(' ') || user.email;
  return (
    <Group
      role="region"
      aria-label={t('shell.impersonation.label')}
      justify="center"
      gap="md"
      px="md"
      py={6}
      wrap="nowrap"
      bg="yellow.3"
      c="dark.9"
    >
      <Text size="sm" fw={600} c="dark.9" truncate>
        {t('shell.impersonation.banner', {
          staff: user.impersonator.name || user.impersonator.email,
          user: `${name} (${user.email})`,
          company: user.company.name,
        })}
      </Text>
      <Button
        size="compact-sm"
        color="dark"
        loading={ending}
        onClick={() => actor.send({ type: 'impersonation.end' })}
      >
        {t('shell.impersonation.end')}
      </Button>
    </Group>
  );
}
