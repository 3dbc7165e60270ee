import { Badge, Button, Group, Paper, Stack, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { AnyProfile } from '../../machines/customer-profile.machine.js';
import { formatDate, languageOf } from '../../format/index.js';
import { maskedCard } from '../guests/messages.js';
import { ConsentBadge, consentOfProfile } from './consent.js';

/**
 * Who the profile is about: the name (or email), the kind of record, the email consent, the POS id and the
 * card digits the POS saw on their checks (not a linked payment card: those are in the cards panel).
 */
export function ProfileHeader({
  profile,
  onDelete,
  deleteDisabled,
  timeZone,
}: {
  profile: AnyProfile;
  /** Absent for roles that may not delete (only admins and owners may). */
  onDelete?: () => void;
  deleteDisabled: boolean;
  timeZone?: string;
}) {
  const { t, i18n } = useTranslation();
  const language = languageOf(i18n.language);
  const identity = identityOf(profile);
  const title = identity.name || identity.email || t('profile.header.unnamed');
  return (
    <Paper withBorder radius="md" p="lg">
      <Group justify="space-between" align="flex-start" wrap="wrap" gap="md">
        <Stack gap={6}>
          <Group gap="sm" wrap="wrap">
            <Title order={2}>{title}</Title>
            <Badge variant="light" color={profile.kind === 'guest' ? 'blue' : 'grape'}>
              {t(`profile.kind.${profile.kind}`)}
            </Badge>
            <ConsentBadge consent={consentOfProfile(profile)} />
          </Group>
          <Group gap="lg" wrap="wrap">
            {identity.name && identity.email && <Text c="dimmed">{identity.email}</Text>}
            <Text c="dimmed">
              {identity.posId
                ? t('profile.header.posId', { id: identity.posId })
                : t('profile.header.noPosId')}
            </Text>
            {identity.lastFour && (
              <Text c="dimmed">{t('profile.header.posCard', { card: maskedCard(identity.lastFour) })}</Text>
            )}
            {identity.since && (
              <Text c="dimmed">
                {t('profile.header.since', { date: formatDate(identity.since, language, timeZone) })}
              </Text>
            )}
          </Group>
        </Stack>
        {onDelete && (
          <Button color="red.9" onClick={onDelete} disabled={deleteDisabled}>
            {t(`profile.delete.button.${profile.kind}`)}
          </Button>
        )}
      </Group>
    </Paper>
  );
}

/** What the header shows of either kind of profile. */
export function identityOf(profile: AnyProfile): {
  name: string;
  email: string;
  posId: string;
  lastFour: string;
  since: string | null;
} {
  if (profile.kind === 'guest') {
    return {
      name: profile.guest.customer_name.trim(),
      email: profile.subscription?.email ?? '',
      posId: profile.guest.pos_id,
      lastFour: profile.guest.last_four_digits,
      since: profile.guest.first_visit_at ?? profile.guest.created_at,
    };
  }
  const { subscriber } = profile;
  return {
    name: `${subscriber.first_name} ${subscriber.last_name}`.trim(),
    email: subscriber.email,
    posId: subscriber.pos_id ?? '',
    lastFour: '',
    // The first visit when the POS knows them; otherwise when they subscribed.
    since: profile.activity.first_visit_at ?? subscriber.created_at,
  };
}
