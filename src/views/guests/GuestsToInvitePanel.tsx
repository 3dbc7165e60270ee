import { Badge, Box, Button, Group, Paper, Skeleton, Stack, Table, Text, Title } from '@mantine/core';
import { useSelector } from '@xstate/react';
import { useTranslation } from 'react-i18next';
import type { ActorRefFrom } from 'xstate';
import type { filePagingMachine } from '../../machines/file-paging.machine.js';
import type { guestsToInviteMachine } from '../../machines/guests-to-invite.machine.js';
import type { GuestFileRow } from '../../machines/support/csv-rows.js';
import { LoadFailedAlert } from '../shared/LoadFailedAlert.js';
import { problemMessage } from '../shared/problem-message.js';
import { AddGuestSubscriberDialog } from './AddGuestSubscriberDialog.js';
import { FOCUSABLE_SCROLL, maskedCard } from './messages.js';
import { formatCount, languageOf } from '../../format/index.js';

type FilePagingActor = ActorRefFrom<typeof filePagingMachine>;
/** The invite total, export and "add as subscriber" actor. */
export type GuestsToInviteActor = ActorRefFrom<typeof guestsToInviteMachine>;

/** Guest rows only: the panel's machine reads guest files. */
function guestRows(rows: readonly unknown[]): GuestFileRow[] {
  return rows.filter(
    (row): row is GuestFileRow => typeof row === 'object' && row !== null && 'customer_name' in row,
  );
}

/**
 * "Guests not yet subscribed": the server's total of guests to invite (never asked: no subscriber linked)
 * with an export of them all, and the guests read from the POS files so far, without those who already
 * have a subscriber record, with "load more", counts and a retry after a failure. Marketers and above add
 * a guest as a subscriber from the guest's row.
 */
export function GuestsToInvitePanel({
  actor,
  inviteActor,
  canAdd,
}: {
  actor: FilePagingActor;
  inviteActor: GuestsToInviteActor;
  /** Marketers and above add guests as subscribers; analysts only read. */
  canAdd: boolean;
}) {
  const { t, i18n } = useTranslation();
  const language = languageOf(i18n.language);
  const busy = useSelector(actor, (state) => state.hasTag('busy'));
  const ready = useSelector(actor, (state) => state.matches('ready'));
  const complete = useSelector(actor, (state) => state.matches('complete'));
  const failed = useSelector(actor, (state) => state.matches('failed'));
  const rows = useSelector(actor, (state) => state.context.rows);
  const rowsRead = useSelector(actor, (state) => state.context.rowsRead);
  const total = useSelector(actor, (state) => state.context.totalRowsCount);
  const countKnown = useSelector(actor, (state) => state.context.countKnown);
  const problem = useSelector(actor, (state) => state.context.problem);
  const guests = guestRows(rows);
  const started = rowsRead > 0 || complete;

  const checkedText = t(countKnown ? 'filePaging.checked' : 'filePaging.checkedEstimate', {
    read: formatCount(Math.min(rowsRead, countKnown ? total : rowsRead), language),
    total: formatCount(Math.max(total, rowsRead), language),
  });

  return (
    <Paper withBorder radius="md" p="lg">
      <Stack gap="md">
        <Group justify="space-between" align="flex-start" wrap="wrap">
          <Stack gap={4}>
            <Title order={3}>{t('filePaging.title')}</Title>
            <Text size="sm" c="dimmed">
              {t('filePaging.intro')}
            </Text>
          </Stack>
          <InviteTotal actor={inviteActor} />
        </Group>
        {failed && (
          <LoadFailedAlert
            title={t('filePaging.failed')}
            message={problemMessage(t, 'guests', problem)}
            retryLabel={t('filePaging.retry')}
            onRetry={() => actor.send({ type: 'page.retry' })}
          />
        )}
        {guests.length > 0 && (
          <Table.ScrollContainer minWidth={300} maxHeight={420} scrollAreaProps={FOCUSABLE_SCROLL}>
            <Table striped stickyHeader verticalSpacing="xs">
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>{t('filePaging.name')}</Table.Th>
                  <Table.Th visibleFrom={canAdd ? 'sm' : undefined}>{t('filePaging.card')}</Table.Th>
                  <Table.Th>{t('filePaging.posId')}</Table.Th>
                  {canAdd && <Table.Th visibleFrom="sm">{t('subscribers.table.actions')}</Table.Th>}
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {guests.map((guest) => (
                  <Table.Tr key={`${guest.pos_id}|${guest.customer_name}|${guest.last_four_digits}`}>
                    <Table.Td>
                      {guest.customer_name || '—'}
                      {/* On a phone the card and the action sit under the name: no sideways scroll. */}
                      {canAdd && (
                        <Box hiddenFrom="sm">
                          <Text size="sm" ff="monospace" style={{ whiteSpace: 'nowrap' }}>
                            {maskedCard(guest.last_four_digits)}
                          </Text>
                          <Box mt={4}>
                            <AddAsSubscriberButton actor={inviteActor} guest={guest} />
                          </Box>
                        </Box>
                      )}
                    </Table.Td>
                    <Table.Td
                      ff="monospace"
                      style={{ whiteSpace: 'nowrap' }}
                      visibleFrom={canAdd ? 'sm' : undefined}
                    >
                      {maskedCard(guest.last_four_digits)}
                    </Table.Td>
                    <Table.Td>{guest.pos_id}</Table.Td>
                    {canAdd && (
                      <Table.Td visibleFrom="sm">
                        <AddAsSubscriberButton actor={inviteActor} guest={guest} />
                      </Table.Td>
                    )}
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
        )}
        {guests.length === 0 && busy && !started && (
          <Stack gap="xs">
            {Array.from({ length: 4 }, (_, index) => (
              <Skeleton key={index} height={18} radius="sm" />
            ))}
          </Stack>
        )}
        {guests.length === 0 && started && !busy && (
          <Text c="dimmed" ta="center" py="md">
            {complete ? t('filePaging.emptyComplete') : t('filePaging.empty')}
          </Text>
        )}
        <Group justify="space-between" wrap="wrap">
          <Text size="sm" c="dimmed" aria-live="polite">
            {started ? checkedText : failed ? '' : t('filePaging.loading')}
            {started && ` · ${t('filePaging.listed', { count: formatCount(guests.length, language) })}`}
            {complete && ` · ${t('filePaging.allChecked')}`}
          </Text>
          {!complete && (
            <Button
              variant="light"
              loading={busy && started}
              disabled={!ready}
              onClick={() => actor.send({ type: 'page.loadMore' })}
            >
              {t('filePaging.loadMore')}
            </Button>
          )}
        </Group>
      </Stack>
      {canAdd && <AddGuestSubscriberDialog actor={inviteActor} />}
    </Paper>
  );
}

/** "Add as subscriber" on a guest's row: opens the dialog for that guest. */
function AddAsSubscriberButton({ actor, guest }: { actor: GuestsToInviteActor; guest: GuestFileRow }) {
  const { t } = useTranslation();
  return (
    <Button
      size="compact-sm"
      variant="light"
      aria-label={t('filePaging.addAsSubscriberOf', { name: guest.customer_name || guest.pos_id })}
      onClick={() => actor.send({ type: 'subscriber.add', guest })}
    >
      {t('filePaging.addAsSubscriber')}
    </Button>
  );
}

/** The true total of guests to invite (the server's count for the selection) and the export of them all. */
function InviteTotal({ actor }: { actor: GuestsToInviteActor }) {
  const { t, i18n } = useTranslation();
  const language = languageOf(i18n.language);
  const total = useSelector(actor, (state) => state.context.total);
  const counting = useSelector(actor, (state) => state.matches({ total: 'counting' }));
  const countFailed = useSelector(actor, (state) => state.matches({ total: 'failed' }));
  const exporting = useSelector(actor, (state) => state.matches({ total: 'exporting' }));
  const notice = useSelector(actor, (state) => state.context.notice);
  const added = useSelector(actor, (state) => state.context.added);
  return (
    <Stack gap={6} align="flex-end">
      <Group gap="sm" wrap="wrap" justify="flex-end">
        {countFailed ? (
          <Group gap="xs">
            <Text size="sm" c="red.9">
              {t('filePaging.countFailed')}
            </Text>
            <Button size="xs" variant="default" onClick={() => actor.send({ type: 'count.retry' })}>
              {t('filePaging.retryCount')}
            </Button>
          </Group>
        ) : (
          <Badge size="lg" variant="light" color="grape" tt="none" aria-live="polite">
            {counting || total === null
              ? t('filePaging.counting')
              : t('filePaging.shown', { count: formatCount(total, language) })}
          </Badge>
        )}
        <Button
          variant="light"
          loading={exporting}
          disabled={counting || countFailed || total === 0}
          onClick={() => actor.send({ type: 'export.start' })}
        >
          {t('filePaging.export')}
        </Button>
      </Group>
      {notice && (
        <Text size="sm" c={notice === 'exportFailed' ? 'red.9' : 'teal.9'} role="status">
          {t(`filePaging.${notice}`)}
        </Text>
      )}
      {added && (
        <Text size="sm" c="teal.9" role="status">
          {t('filePaging.added', { name: added })}
        </Text>
      )}
    </Stack>
  );
}
