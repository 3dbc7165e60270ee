import { Stack, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { ActorRefFrom } from 'xstate';
import type { filePagingMachine } from '../../machines/file-paging.machine.js';
import type { CsvUploadActor } from '../subscribers/CsvUploadDialog.js';
import { GuestListView, type GuestListActor } from './GuestListView.js';
import { GuestsToInvitePanel, type GuestsToInviteActor } from './GuestsToInvitePanel.js';

/** /guest/analytics: the guest list, and the guests not yet subscribed (the invite list). */
export function GuestAnalyticsView({
  listActor,
  inviteActor,
  toInviteActor,
  uploadActor,
  canUpload,
  checksUploadActor,
  canAddSubscribers,
  canDelete,
  timeZone,
}: {
  listActor: GuestListActor;
  inviteActor: ActorRefFrom<typeof filePagingMachine>;
  /** The true total of guests to invite and their export. */
  toInviteActor: GuestsToInviteActor;
  uploadActor: CsvUploadActor;
  /** Marketers and above upload guests. */
  canUpload: boolean;
  /** The POS checks upload, for admins and owners (as the API allows); absent for others. */
  checksUploadActor?: CsvUploadActor | null;
  /** Marketers and above add guests to invite as subscribers. */
  canAddSubscribers: boolean;
  /** Admins and owners delete guests. */
  canDelete: boolean;
  /** The time zone dates are shown in. */
  timeZone?: string;
}) {
  const { t } = useTranslation();
  return (
    <Stack gap="lg">
      <Stack gap={4}>
        <Title order={2}>{t('guests.page.title')}</Title>
        <Text c="dimmed">{t('guests.page.intro')}</Text>
      </Stack>
      <GuestListView
        actor={listActor}
        uploadActor={uploadActor}
        canUpload={canUpload}
        checksUploadActor={checksUploadActor}
        canDelete={canDelete}
        timeZone={timeZone}
      />
      <GuestsToInvitePanel actor={inviteActor} inviteActor={toInviteActor} canAdd={canAddSubscribers} />
    </Stack>
  );
}
