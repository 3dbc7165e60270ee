import {
  ActionIcon,
  Alert,
  Badge,
  Box,
  Button,
  Group,
  LoadingOverlay,
  Modal,
  Paper,
  Skeleton,
  Stack,
  Table,
  Text,
  TextInput,
  Title,
  Tooltip,
} from '@mantine/core';
import { useSelector } from '@xstate/react';
import { useTranslation } from 'react-i18next';
import type { ActorRefFrom } from 'xstate';
import type { guestListMachine } from '../../machines/guest-list.machine.js';
import { formatCount, formatCurrency, formatDate, languageOf } from '../../format/index.js';
import type { Guest } from '../../schemas/guests.js';
import { LoadFailedAlert } from '../shared/LoadFailedAlert.js';
import { problemMessage } from '../shared/problem-message.js';
import { PagedFooter } from '../shared/PagedFooter.js';
import { CsvUploadDialog, type CsvUploadActor } from '../subscribers/CsvUploadDialog.js';
import { FOCUSABLE_SCROLL, maskedCard } from './messages.js';

type GuestListActor = ActorRefFrom<typeof guestListMachine>;

/** Placeholder rows while the first page loads. */
function SkeletonRows({ rows, columns }: { rows: number; columns: number }) {
  return (
    <>
      {Array.from({ length: rows }, (_, row) => (
        <Table.Tr key={row}>
          {Array.from({ length: columns }, (_, column) => (
            <Table.Td key={column}>
              <Skeleton height={14} radius="sm" />
            </Table.Td>
          ))}
        </Table.Tr>
      ))}
    </>
  );
}

/**
 * The guest list of /guest/analytics: search, export, CSV upload (marketers and above), a paged table and
 * the delete confirmation (admins and owners, as the API allows).
 */
export function GuestListView({
  actor,
  uploadActor,
  canUpload,
  canDelete,
  timeZone,
}: {
  actor: GuestListActor;
  uploadActor: CsvUploadActor;
  canUpload: boolean;
  canDelete: boolean;
  timeZone?: string;
}) {
  const { t, i18n } = useTranslation();
  const language = languageOf(i18n.language);
  const loading = useSelector(actor, (state) => state.matches({ listing: 'loading' }));
  const failed = useSelector(actor, (state) => state.matches({ listing: 'failed' }));
  const browsing = useSelector(actor, (state) => state.matches({ listing: 'browsing' }));
  const exporting = useSelector(actor, (state) => state.context.exporting);
  const list = useSelector(actor, (state) => state.context.list);
  const query = useSelector(actor, (state) => state.context.query);
  const page = useSelector(actor, (state) => state.context.page);
  const pageSize = useSelector(actor, (state) => state.context.pageSize);
  const problem = useSelector(actor, (state) => (state.matches('listing') ? state.context.problem : null));
  const exportProblem = useSelector(actor, (state) => state.context.exportProblem);
  const notice = useSelector(actor, (state) => state.context.notice);

  const pages = list ? Math.max(1, Math.ceil(list.count / pageSize)) : 1;
  const nameOf = (guest: Guest) => guest.customer_name.trim() || t('guests.list.unnamed');
  const columns = 8;

  return (
    <Paper withBorder radius="md" p="lg">
      <Stack gap="md">
        <Group justify="space-between" align="flex-end" wrap="wrap">
          <Title order={3}>{t('guests.list.title')}</Title>
          <Group gap="sm" align="flex-end" wrap="wrap">
            <TextInput
              label={t('guests.list.search')}
              placeholder={t('guests.list.searchPlaceholder')}
              value={query}
              onChange={(event) => actor.send({ type: 'search.change', query: event.currentTarget.value })}
              type="search"
              w={300}
            />
            <Button
              variant="light"
              loading={exporting}
              disabled={!browsing}
              onClick={() => actor.send({ type: 'export.start' })}
            >
              {t('guests.list.export')}
            </Button>
            {canUpload && (
              <Button variant="light" onClick={() => uploadActor.send({ type: 'dialog.open' })}>
                {t('guests.list.upload')}
              </Button>
            )}
          </Group>
        </Group>
        {notice && (
          <Alert color="green" withCloseButton onClose={() => actor.send({ type: 'notice.dismiss' })}>
            {t(`guests.notices.${notice}`)}
          </Alert>
        )}
        {exportProblem && (
          <Alert
            color="red"
            title={t('guests.list.exportFailed')}
            withCloseButton
            onClose={() => actor.send({ type: 'notice.dismiss' })}
          >
            {problemMessage(t, 'guests', exportProblem)}
          </Alert>
        )}
        {failed && (
          <LoadFailedAlert
            title={t('guests.list.loadFailed')}
            message={problemMessage(t, 'guests', problem)}
            retryLabel={t('guests.actions.retry')}
            onRetry={() => actor.send({ type: 'list.retry' })}
          />
        )}
        <Box pos="relative">
          <LoadingOverlay visible={loading && list !== null} />
          {list && list.results.length === 0 ? (
            <Text c="dimmed" ta="center" py="xl">
              {query.trim() ? t('guests.list.noMatch', { query: query.trim() }) : t('guests.list.empty')}
            </Text>
          ) : (
            (list || loading) && (
              <Table.ScrollContainer minWidth={860} scrollAreaProps={FOCUSABLE_SCROLL}>
                <Table striped highlightOnHover verticalSpacing="sm">
                  <Table.Thead>
                    <Table.Tr>
                      <Table.Th>{t('guests.list.name')}</Table.Th>
                      <Table.Th>{t('guests.list.card')}</Table.Th>
                      <Table.Th>{t('guests.list.posId')}</Table.Th>
                      <Table.Th ta="right">{t('guests.list.visits')}</Table.Th>
                      <Table.Th ta="right">{t('guests.list.totalSpend')}</Table.Th>
                      <Table.Th>{t('guests.list.lastVisit')}</Table.Th>
                      <Table.Th>{t('guests.list.subscriber')}</Table.Th>
                      <Table.Th>{t('guests.list.actions')}</Table.Th>
                    </Table.Tr>
                  </Table.Thead>
                  <Table.Tbody>
                    {!list && <SkeletonRows rows={pageSize} columns={columns} />}
                    {list?.results.map((guest) => (
                      <Table.Tr key={guest.id}>
                        <Table.Td>
                          <Button
                            variant="subtle"
                            size="compact-sm"
                            px={4}
                            disabled={!browsing}
                            aria-label={t('guests.list.openLabel', { name: nameOf(guest) })}
                            onClick={() => actor.send({ type: 'guest.open', guest })}
                          >
                            {nameOf(guest)}
                          </Button>
                        </Table.Td>
                        <Table.Td ff="monospace">{maskedCard(guest.last_four_digits)}</Table.Td>
                        <Table.Td>{guest.pos_id}</Table.Td>
                        <Table.Td ta="right">{formatCount(guest.visit_count, language)}</Table.Td>
                        <Table.Td ta="right">{formatCurrency(guest.total_spend)}</Table.Td>
                        <Table.Td>{formatDate(guest.last_visit_at, language, timeZone)}</Table.Td>
                        <Table.Td>
                          <Badge color={guest.is_subscriber ? 'teal' : 'gray'} variant="dot">
                            {guest.is_subscriber
                              ? t('guests.list.subscribed')
                              : t('guests.list.notSubscribed')}
                          </Badge>
                        </Table.Td>
                        <Table.Td>
                          <Group gap="xs" wrap="nowrap">
                            <Button
                              size="xs"
                              variant="light"
                              disabled={!browsing}
                              onClick={() => actor.send({ type: 'guest.open', guest })}
                              aria-label={t('guests.list.openLabel', { name: nameOf(guest) })}
                            >
                              {t('guests.list.open')}
                            </Button>
                            {canDelete && (
                              <Tooltip label={t('guests.list.deleteLabel', { name: nameOf(guest) })}>
                                <ActionIcon
                                  variant="light"
                                  color="red"
                                  size="md"
                                  disabled={!browsing}
                                  aria-label={t('guests.list.deleteLabel', { name: nameOf(guest) })}
                                  onClick={() => actor.send({ type: 'guest.delete', guest })}
                                >
                                  <TrashIcon />
                                </ActionIcon>
                              </Tooltip>
                            )}
                          </Group>
                        </Table.Td>
                      </Table.Tr>
                    ))}
                  </Table.Tbody>
                </Table>
              </Table.ScrollContainer>
            )
          )}
        </Box>
        {list && (
          <PagedFooter
            summary={t('guests.list.total', { count: formatCount(list.count, language) })}
            page={page}
            pages={pages}
            disabled={!browsing}
            onPage={(next) => actor.send({ type: 'page.change', page: next })}
            labels={{
              pager: t('guests.list.pagination'),
              control: (control) => t(`guests.list.pageControls.${control}`),
            }}
          />
        )}
      </Stack>
      <DeleteGuestDialog actor={actor} />
      <CsvUploadDialog actor={uploadActor} />
    </Paper>
  );
}

/** A small bin icon (no icon package in the app). */
function TrashIcon() {
  return (
    <svg
      width="16"
      height="16"
      viewBox="0 0 24 24"
      fill="none"
      stroke="currentColor"
      strokeWidth="2"
      aria-hidden
    >
      <path
        d="M3 6h18M8 6V4h8v2M19 6l-1 14H6L5 6M10 11v6M14 11v6"
        strokeLinecap="round"
        strokeLinejoin="round"
      />
    </svg>
  );
}

/** The confirmation before a guest's personal data is removed. */
function DeleteGuestDialog({ actor }: { actor: GuestListActor }) {
  const { t } = useTranslation();
  const open = useSelector(actor, (state) => state.matches('deleting'));
  const busy = useSelector(actor, (state) => state.matches({ deleting: 'removing' }));
  const guest = useSelector(actor, (state) => state.context.selected);
  const problem = useSelector(actor, (state) => (state.matches('deleting') ? state.context.problem : null));
  const close = () => actor.send({ type: 'dialog.close' });
  return (
    <Modal
      opened={open}
      onClose={close}
      closeOnClickOutside={!busy}
      closeOnEscape={!busy}
      withCloseButton={!busy}
      title={t('guests.deleteDialog.title')}
      closeButtonProps={{ 'aria-label': t('profile.close') }}
    >
      <Stack gap="md">
        <Text>
          {t('guests.deleteDialog.body', { name: guest?.customer_name.trim() || t('guests.list.unnamed') })}
        </Text>
        {problem && <Alert color="red">{problemMessage(t, 'guests', problem)}</Alert>}
        <Group justify="flex-end">
          <Button variant="default" onClick={close} disabled={busy}>
            {t('guests.deleteDialog.cancel')}
          </Button>
          <Button color="red.9" loading={busy} onClick={() => actor.send({ type: 'delete.confirm' })}>
            {t('guests.deleteDialog.confirm')}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
