import {
  Alert,
  Anchor,
  Button,
  Group,
  LoadingOverlay,
  Paper,
  Skeleton,
  Stack,
  Table,
  Text,
  TextInput,
  Title,
  VisuallyHidden,
} from '@mantine/core';
import { useSelector } from '@xstate/react';
import { useTranslation } from 'react-i18next';
import type { ActorRefFrom } from 'xstate';
import type { subscribersListMachine } from '../../machines/subscribers-list.machine.js';
import { formatCount, formatDate, languageOf } from '../../format/index.js';
import { LoadFailedAlert } from '../shared/LoadFailedAlert.js';
import { problemMessage } from '../shared/problem-message.js';
import { PagedFooter } from '../shared/PagedFooter.js';
import { CsvUploadDialog, type CsvUploadActor } from './CsvUploadDialog.js';
import { personName } from './messages.js';
import { SubscribedBadge } from './SubscribedBadge.js';
import { SubscriberDialog } from './SubscriberDialog.js';

type SubscribersActor = ActorRefFrom<typeof subscribersListMachine>;

/** Columns of the table, for the skeleton's shape. */
const COLUMNS = 7;

/**
 * /subscribers: search, the subscribers of the selected location or group (8 to a page) with name,
 * email, phone, zip, subscription and creation date; add, update, profile, CSV upload and export.
 */
export function SubscribersView({
  actor,
  uploadActor,
  selectionName,
  canWrite,
  timeZone,
}: {
  actor: SubscribersActor;
  uploadActor: CsvUploadActor;
  /** The selected location's or group's name, or null for every location. */
  selectionName: string | null;
  /** Marketers and above add, update and upload; analysts only read. */
  canWrite: boolean;
  /** The time zone dates are shown in. */
  timeZone?: string;
}) {
  const { t, i18n } = useTranslation();
  const language = languageOf(i18n.language);
  const busy = useSelector(actor, (state) => state.matches('listing') && state.hasTag('busy'));
  const failed = useSelector(actor, (state) => state.matches({ listing: 'failed' }));
  const browsing = useSelector(actor, (state) => state.matches({ listing: 'browsing' }));
  const list = useSelector(actor, (state) => state.context.list);
  const query = useSelector(actor, (state) => state.context.query);
  const page = useSelector(actor, (state) => state.context.page);
  const pageSize = useSelector(actor, (state) => state.context.pageSize);
  const problem = useSelector(actor, (state) => (state.matches('listing') ? state.context.problem : null));
  const notice = useSelector(actor, (state) => state.context.notice);
  const exporting = useSelector(actor, (state) => state.context.exporting);

  const pages = list ? Math.max(1, Math.ceil(list.count / pageSize)) : 1;

  return (
    <Stack gap="lg">
      <Stack gap={4}>
        <Title order={2}>{t('subscribers.page.title')}</Title>
        <Text c="dimmed">
          {t('subscribers.page.intro', { where: selectionName ?? t('subscribers.page.allLocations') })}
        </Text>
      </Stack>
      {notice && (
        <Alert
          color={notice === 'exportFailed' ? 'red' : 'green'}
          withCloseButton
          closeButtonLabel={t('subscribers.actions.dismiss')}
          onClose={() => actor.send({ type: 'notice.dismiss' })}
        >
          {t(`subscribers.notices.${notice}`)}
        </Alert>
      )}
      <Group justify="space-between" align="flex-end" wrap="wrap" gap="sm">
        <TextInput
          label={t('subscribers.search')}
          placeholder={t('subscribers.searchPlaceholder')}
          value={query}
          onChange={(event) => actor.send({ type: 'search.change', query: event.currentTarget.value })}
          type="search"
          w={{ base: '100%', sm: 320 }}
        />
        <Group gap="sm" wrap="wrap">
          <Button
            variant="default"
            loading={exporting}
            disabled={!browsing || list?.count === 0}
            onClick={() => actor.send({ type: 'export.start' })}
          >
            {t('subscribers.actions.export')}
          </Button>
          {canWrite && (
            <Button variant="light" onClick={() => uploadActor.send({ type: 'dialog.open' })}>
              {t('subscribers.actions.upload')}
            </Button>
          )}
          {canWrite && (
            <Button onClick={() => actor.send({ type: 'subscriber.add' })} disabled={!browsing}>
              {t('subscribers.actions.add')}
            </Button>
          )}
        </Group>
      </Group>
      {failed && (
        <LoadFailedAlert
          title={t('subscribers.loadFailed')}
          message={problemMessage(t, 'subscribers', problem)}
          retryLabel={t('subscribers.actions.retry')}
          onRetry={() => actor.send({ type: 'list.retry' })}
        />
      )}
      <Paper withBorder radius="md" pos="relative" mih={120}>
        <LoadingOverlay visible={busy && list !== null} />
        {list === null && busy && <TableSkeleton rows={pageSize} label={t('subscribers.loading')} />}
        {list && list.results.length === 0 && (
          <Stack align="center" gap="xs" py="xl" px="md">
            <Text fw={600}>
              {query.trim() ? t('subscribers.noMatch', { query: query.trim() }) : t('subscribers.empty')}
            </Text>
            {!query.trim() && canWrite && (
              <Text c="dimmed" size="sm" ta="center">
                {t('subscribers.emptyHint')}
              </Text>
            )}
          </Stack>
        )}
        {list && list.results.length > 0 && (
          <Table.ScrollContainer minWidth={900}>
            <Table striped highlightOnHover verticalSpacing="sm">
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>{t('subscribers.table.name')}</Table.Th>
                  <Table.Th>{t('subscribers.table.email')}</Table.Th>
                  <Table.Th>{t('subscribers.table.phone')}</Table.Th>
                  <Table.Th>{t('subscribers.table.zip')}</Table.Th>
                  <Table.Th>{t('subscribers.table.status')}</Table.Th>
                  <Table.Th>{t('subscribers.table.created')}</Table.Th>
                  <Table.Th>
                    <VisuallyHidden>{t('subscribers.table.actions')}</VisuallyHidden>
                  </Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {list.results.map((subscriber) => {
                  const name = personName(subscriber);
                  return (
                    <Table.Tr key={subscriber.id}>
                      <Table.Td>
                        <Anchor
                          component="button"
                          type="button"
                          size="sm"
                          fw={600}
                          disabled={!browsing}
                          onClick={() => actor.send({ type: 'profile.open', subscriber })}
                          aria-label={t('subscribers.actions.viewProfileOf', {
                            name: name ?? subscriber.email,
                          })}
                        >
                          {name ?? t('subscribers.table.noName')}
                        </Anchor>
                      </Table.Td>
                      <Table.Td>{subscriber.email}</Table.Td>
                      <Table.Td>{subscriber.phone || '—'}</Table.Td>
                      <Table.Td>{subscriber.zip || '—'}</Table.Td>
                      <Table.Td>
                        <SubscribedBadge
                          subscribed={subscriber.subscribed}
                          label={
                            subscriber.subscribed
                              ? t('subscribers.table.subscribed')
                              : t('subscribers.table.unsubscribed')
                          }
                        />
                      </Table.Td>
                      <Table.Td>{formatDate(subscriber.created_at, language, timeZone)}</Table.Td>
                      <Table.Td>
                        <Group gap="xs" wrap="nowrap" justify="flex-end">
                          <Button
                            size="xs"
                            variant="subtle"
                            disabled={!browsing}
                            onClick={() => actor.send({ type: 'profile.open', subscriber })}
                            aria-label={t('subscribers.actions.viewProfileOf', {
                              name: name ?? subscriber.email,
                            })}
                          >
                            {t('subscribers.actions.viewProfile')}
                          </Button>
                          {canWrite && (
                            <Button
                              size="xs"
                              variant="light"
                              disabled={!browsing}
                              onClick={() => actor.send({ type: 'subscriber.edit', subscriber })}
                              aria-label={t('subscribers.actions.editOf', { email: subscriber.email })}
                            >
                              {t('subscribers.actions.edit')}
                            </Button>
                          )}
                        </Group>
                      </Table.Td>
                    </Table.Tr>
                  );
                })}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
        )}
      </Paper>
      {list && list.count > 0 && (
        <PagedFooter
          summary={t('subscribers.total', {
            from: formatCount((page - 1) * pageSize + 1, language),
            to: formatCount(Math.min(page * pageSize, list.count), language),
            total: formatCount(list.count, language),
          })}
          page={page}
          pages={pages}
          disabled={!browsing}
          onPage={(next) => actor.send({ type: 'page.change', page: next })}
          labels={{
            control: (control) => t(`subscribers.pagination.${control}`),
            page: (item) => t('subscribers.pagination.page', { page: item }),
          }}
        />
      )}
      <SubscriberDialog actor={actor} />
      <CsvUploadDialog actor={uploadActor} />
    </Stack>
  );
}

/** Grey bars in the table's shape while the first page loads. */
function TableSkeleton({ rows, label }: { rows: number; label: string }) {
  return (
    <Stack gap="sm" p="md" aria-busy="true" aria-label={label} role="status">
      <Skeleton height={20} width="40%" />
      {Array.from({ length: rows }, (_, row) => (
        <Group key={row} gap="md" wrap="nowrap">
          {Array.from({ length: COLUMNS }, (_, column) => (
            <Skeleton key={column} height={14} style={{ flex: column === 1 ? 2 : 1 }} />
          ))}
        </Group>
      ))}
    </Stack>
  );
}
