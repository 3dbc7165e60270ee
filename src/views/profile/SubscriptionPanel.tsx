import { Badge, Button, Group, Paper, Stack, Text, Title } from '@mantine/core';
import { useSelector } from '@xstate/react';
import { useTranslation } from 'react-i18next';
import type { AnyProfile } from '../../machines/customer-profile.machine.js';
import { formatDate, languageOf } from '../../format/index.js';
import { ConsentBadge, consentOfProfile } from './consent.js';
import type { ProfileActor } from './types.js';

/**
 * The subscription state: a subscriber's email consent and lists, or a guest's consent and linked subscriber
 * (with a way to open their profile) or none — the consent badge is the header's, from the one rule.
 */
export function SubscriptionPanel({
  actor,
  profile,
  timeZone,
}: {
  actor: ProfileActor;
  profile: AnyProfile;
  timeZone?: string;
}) {
  const { t, i18n } = useTranslation();
  const language = languageOf(i18n.language);
  const idle = useSelector(actor, (state) => state.matches({ viewing: 'idle' }));
  const opening = useSelector(actor, (state) => state.matches({ viewing: 'openingSubscriber' }));
  return (
    <Paper withBorder radius="md" p="lg">
      <Stack gap="sm">
        <Title order={3} size="h4">
          {t('profile.subscription.title')}
        </Title>
        {profile.kind === 'subscriber' ? (
          <Stack gap="xs">
            <Group gap="sm">
              <ConsentBadge consent={consentOfProfile(profile)} />
              {!profile.subscriber.subscribed && profile.subscriber.unsubscribed_at && (
                <Text size="sm" c="dimmed">
                  {t('profile.subscription.unsubscribedAt', {
                    date: formatDate(profile.subscriber.unsubscribed_at, language, timeZone),
                  })}
                </Text>
              )}
            </Group>
            <Text size="sm" fw={500}>
              {t('profile.subscription.lists')}
            </Text>
            {profile.lists.length === 0 ? (
              <Text size="sm" c="dimmed">
                {t('profile.subscription.noLists')}
              </Text>
            ) : (
              <Group gap="xs">
                {profile.lists.map((list) => (
                  <Badge key={list.id} variant="outline">
                    {list.name}
                  </Badge>
                ))}
              </Group>
            )}
          </Stack>
        ) : profile.subscription ? (
          <Stack gap="xs" align="flex-start">
            <Text size="sm" c="dimmed">
              {t('profile.subscription.linked')}
            </Text>
            <Group gap="sm">
              <Text>{profile.subscription.email}</Text>
              <ConsentBadge consent={consentOfProfile(profile)} />
            </Group>
            <Button
              size="xs"
              variant="light"
              disabled={!idle}
              loading={opening}
              onClick={() => actor.send({ type: 'subscription.open' })}
            >
              {t('profile.subscription.openSubscriber')}
            </Button>
          </Stack>
        ) : (
          <Stack gap="xs" align="flex-start">
            <ConsentBadge consent={consentOfProfile(profile)} />
            <Text size="sm" c="dimmed">
              {t('profile.subscription.noSubscriber')}
            </Text>
          </Stack>
        )}
      </Stack>
    </Paper>
  );
}
