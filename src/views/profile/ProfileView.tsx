import {
  Alert,
  Button,
  Grid,
  Group,
  Modal,
  Paper,
  Skeleton,
  SimpleGrid,
  Stack,
  Text,
  Title,
} from '@mantine/core';
import { useSelector } from '@xstate/react';
import { useTranslation } from 'react-i18next';
import { LoadFailedAlert } from '../shared/LoadFailedAlert.js';
import { problemMessage } from '../shared/problem-message.js';
import { ActivityTables } from './ActivityTables.js';
import { CardsPanel } from './CardsPanel.js';
import { DetailsPanel } from './DetailsPanel.js';
import { FlowsPanel } from './FlowsPanel.js';
import { NotesPanel } from './NotesPanel.js';
import { identityOf, ProfileHeader } from './ProfileHeader.js';
import { SubscriptionPanel } from './SubscriptionPanel.js';
import type { ProfileActor } from './types.js';
import { ValuePanel } from './ValuePanel.js';

/** Placeholders in the profile's shape while it loads. */
function ProfileSkeleton() {
  return (
    <Stack gap="md" aria-busy="true">
      <Skeleton height={96} radius="md" />
      <SimpleGrid cols={{ base: 2, md: 4 }} spacing="md">
        {Array.from({ length: 4 }, (_, index) => (
          <Skeleton key={index} height={76} radius="md" />
        ))}
      </SimpleGrid>
      <Skeleton height={220} radius="md" />
    </Stack>
  );
}

/**
 * /guest/profile/… and /subscriber/profile/…: who the person is, their visits and value (metrics and CLV),
 * recent visits and locations, their way through each flow, a subscriber's details (shown and edited), subscription, cards and notes;
 * deletion after a confirmation. A profile that is not there shows a not-found state with a way back.
 */
export function ProfileView({
  actor,
  canDelete,
  timeZone,
}: {
  actor: ProfileActor;
  /** Admins and owners delete guests and subscribers; others do not see the button. */
  canDelete: boolean;
  timeZone?: string;
}) {
  const { t } = useTranslation();
  const loading = useSelector(actor, (state) => state.matches('resolving') || state.matches('loading'));
  const failed = useSelector(actor, (state) => state.matches('failed'));
  const notFound = useSelector(actor, (state) => state.matches('notFound'));
  const viewing = useSelector(actor, (state) => state.matches('viewing'));
  const idle = useSelector(actor, (state) => state.matches({ viewing: 'idle' }));
  const refreshing = useSelector(actor, (state) => state.matches({ viewing: 'refreshing' }));
  const profile = useSelector(actor, (state) => state.context.profile);
  const kind = useSelector(actor, (state) =>
    state.context.profile ? state.context.kind : state.context.route.kind,
  );
  const problem = useSelector(actor, (state) => state.context.problem);
  const notice = useSelector(actor, (state) => state.context.notice);
  const back = () => actor.send({ type: 'profile.back' });

  return (
    <Stack gap="lg">
      <Group>
        <Button variant="subtle" px="xs" onClick={back} disabled={!viewing && !notFound && !failed}>
          ← {t(`profile.back.${kind}`)}
        </Button>
      </Group>
      {loading && <ProfileSkeleton />}
      {failed && (
        <LoadFailedAlert
          title={t('profile.loadFailed')}
          message={problemMessage(t, 'profile', problem)}
          retryLabel={t('profile.retry')}
          onRetry={() => actor.send({ type: 'profile.retry' })}
        />
      )}
      {notFound && (
        <Paper withBorder radius="md" p="xl">
          <Stack gap="sm" align="flex-start">
            <Title order={2}>{t('profile.notFound.title')}</Title>
            <Text c="dimmed">{t('profile.notFound.body')}</Text>
            <Button variant="light" onClick={back}>
              {t(`profile.back.${kind}`)}
            </Button>
          </Stack>
        </Paper>
      )}
      {viewing && profile && (
        <>
          {notice && (
            <Alert color="green" withCloseButton onClose={() => actor.send({ type: 'notice.dismiss' })}>
              {t(`profile.notices.${notice}`)}
            </Alert>
          )}
          {idle && problem && (
            <Alert color="red" withCloseButton onClose={() => actor.send({ type: 'notice.dismiss' })}>
              {problemMessage(t, 'profile', problem)}
            </Alert>
          )}
          <ProfileHeader
            profile={profile}
            timeZone={timeZone}
            deleteDisabled={!idle}
            onDelete={canDelete ? () => actor.send({ type: 'profile.delete' }) : undefined}
          />
          <ValuePanel
            metrics={profile.metrics}
            timeZone={timeZone}
            refreshing={refreshing}
            onRefresh={() => actor.send({ type: 'profile.refresh' })}
          />
          <Grid gap="md">
            <Grid.Col span={{ base: 12, lg: 8 }}>
              <Stack gap="md">
                <ActivityTables activity={profile.activity} timeZone={timeZone} />
                <FlowsPanel actor={actor} timeZone={timeZone} />
              </Stack>
            </Grid.Col>
            <Grid.Col span={{ base: 12, lg: 4 }}>
              <Stack gap="md">
                {profile.kind === 'subscriber' && <DetailsPanel actor={actor} profile={profile} />}
                <SubscriptionPanel actor={actor} profile={profile} timeZone={timeZone} />
                <CardsPanel actor={actor} timeZone={timeZone} />
                <NotesPanel actor={actor} timeZone={timeZone} />
              </Stack>
            </Grid.Col>
          </Grid>
          <DeleteProfileDialog actor={actor} />
        </>
      )}
    </Stack>
  );
}

/** The confirmation before a guest's or subscriber's personal data is removed. */
function DeleteProfileDialog({ actor }: { actor: ProfileActor }) {
  const { t } = useTranslation();
  const open = useSelector(
    actor,
    (state) => state.matches({ viewing: 'confirmingDelete' }) || state.matches({ viewing: 'deleting' }),
  );
  const busy = useSelector(actor, (state) => state.matches({ viewing: 'deleting' }));
  const profile = useSelector(actor, (state) => state.context.profile);
  const problem = useSelector(actor, (state) =>
    state.matches({ viewing: 'confirmingDelete' }) ? state.context.problem : null,
  );
  const close = () => actor.send({ type: 'dialog.close' });
  const identity = profile ? identityOf(profile) : null;
  const name = identity?.name || identity?.email || t('profile.header.unnamed');
  return (
    <Modal
      opened={open}
      onClose={close}
      closeOnClickOutside={!busy}
      closeOnEscape={!busy}
      withCloseButton={!busy}
      title={t('profile.delete.title', { name })}
      closeButtonProps={{ 'aria-label': t('profile.close') }}
    >
      <Stack gap="md">
        <Text>{t('profile.delete.body')}</Text>
        {problem && <Alert color="red">{problemMessage(t, 'profile', problem)}</Alert>}
        <Group justify="flex-end">
          <Button variant="default" onClick={close} disabled={busy}>
            {t('profile.delete.cancel')}
          </Button>
          <Button color="red.9" loading={busy} onClick={() => actor.send({ type: 'delete.confirm' })}>
            {t('profile.delete.confirm')}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
