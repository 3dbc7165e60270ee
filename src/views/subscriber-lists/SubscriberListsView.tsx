import {
  Alert,
  Button,
  Group,
  LoadingOverlay,
  Paper,
  Skeleton,
  Stack,
  Table,
  Text,
  Title,
  VisuallyHidden,
} from '@mantine/core';
import { useSelector } from '@xstate/react';
import { useTranslation } from 'react-i18next';
import type { ActorRefFrom } from 'xstate';
import type { subscriberListsMachine } from '../../machines/subscriber-lists.machine.js';
import { formatCount, formatDateTime, languageOf } from '../../format/index.js';
import { LoadFailedAlert } from '../shared/LoadFailedAlert.js';
import { problemMessage } from '../shared/problem-message.js';
import { PagedFooter } from '../shared/PagedFooter.js';
import { listPagerLabels } from './pager-labels.js';
import { ListDialogs } from './ListDialogs.js';
import { MembersPanel } from './MembersPanel.js';

/** The subscriber-lists actor. */
export type SubscriberListsActor = ActorRefFrom<typeof subscriberListsMachine>;

/**
 * /subscriber-list: the company's subscriber lists (name, members, created as a long date-time) with
 * create, rename and delete; opening a list shows its members.
 */
export function SubscriberListsView({
  actor,
  canWrite,
  canDelete,
  timeZone,
}: {
  actor: SubscriberListsActor;
  /** Marketers and above create and rename lists and change members. */
  canWrite: boolean;
  /** Admins and owners delete lists. */
  canDelete: boolean;
  timeZone?: string;
}) {
  const inMembers = useSelector(actor, (state) => state.matches('members'));
  return (
    <>
      {inMembers ? (
        <MembersPanel actor={actor} canWrite={canWrite} />
      ) : (
        <ListsPanel actor={actor} canWrite={canWrite} canDelete={canDelete} timeZone={timeZone} />
      )}
      <ListDialogs actor={actor} />
    </>
  );
}

function ListsPanel({
  actor,
  canWrite,
  canDelete,
  timeZone,
}: {
  actor: SubscriberListsActor;
  canWrite: boolean;
  canDelete: boolean;
  timeZone?: string;
}) {
  const { t, i18n } = useTranslation();
  const language = languageOf(i18n.language);
  const busy = useSelector(actor, (state) => state.matches('lists') && state.hasTag('busy'));
  const failed = useSelector(actor, (state) => state.matches({ lists: 'failed' }));
  const browsing = useSelector(actor, (state) => state.matches({ lists: 'browsing' }));
  const lists = useSelector(actor, (state) => state.context.lists);
  const page = useSelector(actor, (state) => state.context.page);
  const pageSize = useSelector(actor, (state) => state.context.pageSize);
  const problem = useSelector(actor, (state) => (state.matches('lists') ? state.context.problem : null));
  const notice = useSelector(actor, (state) => state.context.notice);
  const pages = lists ? Math.max(1, Math.ceil(lists.count / pageSize)) : 1;

  return (
    <Stack gap="lg">
      <Group justify="space-between" align="flex-end" wrap="wrap">
        <Stack gap={4}>
          <Title order={2}>{t('subscriberLists.page.title')}</Title>
          <Text c="dimmed">{t('subscriberLists.page.intro')}</Text>
        </Stack>
        {canWrite && (
          <Button onClick={() => actor.send({ type: 'list.create' })} disabled={!browsing}>
            {t('subscriberLists.actions.create')}
          </Button>
        )}
      </Group>
      {notice && (
        <Alert
          color="green"
          withCloseButton
          closeButtonLabel={t('subscriberLists.actions.dismiss')}
          onClose={() => actor.send({ type: 'notice.dismiss' })}
        >
          {t(`subscriberLists.notices.${notice}`)}
        </Alert>
      )}
      {failed && (
        <LoadFailedAlert
          title={t('subscriberLists.loadFailed')}
          message={problemMessage(t, 'subscriberLists', problem)}
          retryLabel={t('subscriberLists.actions.retry')}
          onRetry={() => actor.send({ type: 'lists.retry' })}
        />
      )}
      <Paper withBorder radius="md" pos="relative" mih={120}>
        <LoadingOverlay visible={busy && lists !== null} />
        {lists === null && busy && (
          <Stack gap="sm" p="md" role="status" aria-label={t('subscriberLists.loading')}>
            {Array.from({ length: 5 }, (_, row) => (
              <Skeleton key={row} height={16} />
            ))}
          </Stack>
        )}
        {lists && lists.results.length === 0 && (
          <Stack align="center" gap="xs" py="xl" px="md">
            <Text fw={600}>{t('subscriberLists.empty')}</Text>
            {canWrite && (
              <Text c="dimmed" size="sm">
                {t('subscriberLists.emptyHint')}
              </Text>
            )}
          </Stack>
        )}
        {lists && lists.results.length > 0 && (
          <Table.ScrollContainer minWidth={720}>
            <Table striped highlightOnHover verticalSpacing="sm">
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>{t('subscriberLists.table.name')}</Table.Th>
                  <Table.Th ta="right">{t('subscriberLists.table.members')}</Table.Th>
                  <Table.Th>{t('subscriberLists.table.created')}</Table.Th>
                  <Table.Th>
                    <VisuallyHidden>{t('subscriberLists.table.actions')}</VisuallyHidden>
                  </Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {lists.results.map((list) => (
                  <Table.Tr key={list.id}>
                    <Table.Td fw={500}>{list.name}</Table.Td>
                    <Table.Td ta="right">{formatCount(list.member_count, language)}</Table.Td>
                    <Table.Td>{formatDateTime(list.created, language, timeZone)}</Table.Td>
                    <Table.Td>
                      <Group gap="xs" wrap="nowrap" justify="flex-end">
                        <Button
                          size="xs"
                          variant="light"
                          disabled={!browsing}
                          onClick={() => actor.send({ type: 'list.open', list })}
                          aria-label={t('subscriberLists.actions.membersOf', { name: list.name })}
                        >
                          {t('subscriberLists.actions.members')}
                        </Button>
                        {canWrite && (
                          <Button
                            size="xs"
                            variant="subtle"
                            disabled={!browsing}
                            onClick={() => actor.send({ type: 'list.rename', list })}
                            aria-label={t('subscriberLists.actions.renameOf', { name: list.name })}
                          >
                            {t('subscriberLists.actions.rename')}
                          </Button>
                        )}
                        {canDelete && (
                          <Button
                            size="xs"
                            variant="subtle"
                            color="red"
                            disabled={!browsing}
                            onClick={() => actor.send({ type: 'list.delete', list })}
                            aria-label={t('subscriberLists.actions.deleteOf', { name: list.name })}
                          >
                            {t('subscriberLists.actions.delete')}
                          </Button>
                        )}
                      </Group>
                    </Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
        )}
      </Paper>
      {lists && lists.count > 0 && (
        <PagedFooter
          summary={t('subscriberLists.total', { total: formatCount(lists.count, language) })}
          page={page}
          pages={pages}
          disabled={!browsing}
          onPage={(next) => actor.send({ type: 'page.change', page: next })}
          labels={listPagerLabels(t)}
        />
      )}
    </Stack>
  );
}
