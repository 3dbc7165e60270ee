import { Button, Group, Paper, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { useSelector } from '@xstate/react';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { formatDate, languageOf } from '../../format/index.js';
import { displayPhone } from '../../format/phone.js';
import type { SubscriberProfile } from '../../schemas/subscribers.js';
import { DetailsDialog } from './DetailsDialog.js';
import type { ProfileActor } from './types.js';

/** One labelled value of the details list; an empty value says it was not given. */
function Detail({ label, value }: { label: string; value: ReactNode }) {
  const { t } = useTranslation();
  const empty = value === '' || value === null || value === undefined;
  return (
    <Stack gap={2}>
      <Text component="dt" size="xs" c="dimmed" fw={500}>
        {label}
      </Text>
      <Text
        component="dd"
        size="sm"
        m={0}
        c={empty ? 'dimmed' : undefined}
        style={{ overflowWrap: 'anywhere' }}
      >
        {empty ? t('profile.details.notGiven') : value}
      </Text>
    </Stack>
  );
}

/**
 * A subscriber's details: every field the add dialog takes (email, name, phone, zip code, birthday, email
 * consent, source location and POS id), the phone shown in its readable form and the birthday in the user's
 * language; an edit button opens the details dialog, which saves through the update call.
 */
export function DetailsPanel({ actor, profile }: { actor: ProfileActor; profile: SubscriberProfile }) {
  const { t, i18n } = useTranslation();
  const language = languageOf(i18n.language);
  const idle = useSelector(actor, (state) => state.matches({ viewing: 'idle' }));
  const reloading = useSelector(actor, (state) =>
    state.matches({ viewing: { editingDetails: 'reloading' } }),
  );
  const locations = useSelector(actor, (state) => state.context.locations);
  const subscriber = profile.subscriber;
  const name = [subscriber.first_name, subscriber.last_name].filter(Boolean).join(' ') || subscriber.email;
  const source =
    subscriber.source_location_id === null
      ? t('profile.details.noSourceLocation')
      : (locations.find((location) => location.id === subscriber.source_location_id)?.name ?? '');
  return (
    <Paper withBorder radius="md" p="lg" aria-busy={reloading}>
      <Stack gap="sm">
        <Group justify="space-between" wrap="nowrap" gap="xs">
          <Title order={3} size="h4">
            {t('profile.details.title')}
          </Title>
          <Button
            variant="light"
            size="xs"
            onClick={() => actor.send({ type: 'details.edit' })}
            disabled={!idle}
            loading={reloading}
            aria-label={t('profile.details.editOf', { name })}
          >
            {t('profile.details.edit')}
          </Button>
        </Group>
        <SimpleGrid component="dl" cols={{ base: 1, xs: 2, lg: 1 }} spacing="sm" verticalSpacing="sm" m={0}>
          <Detail label={t('profile.details.email')} value={subscriber.email} />
          <Detail label={t('profile.details.firstName')} value={subscriber.first_name} />
          <Detail label={t('profile.details.lastName')} value={subscriber.last_name} />
          <Detail label={t('profile.details.phone')} value={displayPhone(subscriber.phone)} />
          <Detail label={t('profile.details.zip')} value={subscriber.zip} />
          <Detail
            label={t('profile.details.birthday')}
            // A calendar date, not a moment: no time zone may move it to another day.
            value={formatDate(subscriber.birthday, language)}
          />
          <Detail
            label={t('profile.details.consent')}
            value={
              subscriber.subscribed ? t('profile.details.subscribed') : t('profile.details.notSubscribed')
            }
          />
          <Detail label={t('profile.details.sourceLocation')} value={source} />
          <Detail label={t('profile.details.posId')} value={subscriber.pos_id ?? ''} />
        </SimpleGrid>
      </Stack>
      <DetailsDialog actor={actor} />
    </Paper>
  );
}
