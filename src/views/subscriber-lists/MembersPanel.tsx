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
import { LIMITS } from '../../schemas/constants.js';
import { LoadFailedAlert } from '../shared/LoadFailedAlert.js';
import { problemMessage } from '../shared/problem-message.js';
import { PagedFooter } from '../shared/PagedFooter.js';
import { listPagerLabels } from './pager-labels.js';
import { personName } from '../subscribers/messages.js';
import { SubscribedBadge } from '../subscribers/SubscribedBadge.js';
import type { SubscriberListsActor } from './SubscriberListsView.js';
import { formatCount, languageOf } from '../../format/index.js';

/** One list's members, 8 to a page: back to the lists, add members, take one off. */
export function MembersPanel({ actor, canWrite }: { actor: SubscriberListsActor; canWrite: boolean }) {
  const { t, i18n } = useTranslation();
  const language = languageOf(i18n.language);
  const list = useSelector(actor, (state) => state.context.selected);
  const members = useSelector(actor, (state) => state.context.members);
  const page = useSelector(actor, (state) => state.context.membersPage);
  const loading = useSelector(actor, (state) => state.matches({ members: 'loading' }));
  const removingOne = useSelector(actor, (state) => state.matches({ members: 'removing' }));
  const removing = useSelector(actor, (state) => state.context.removing);
  const failed = useSelector(actor, (state) => state.matches({ members: 'failed' }));
  const browsing = useSelector(actor, (state) => state.matches({ members: 'browsing' }));
  const problem = useSelector(actor, (state) =>
    state.matches({ members: 'picking' }) ? null : state.context.problem,
  );
  const notice = useSelector(actor, (state) => state.context.notice);
  const pages = members ? Math.max(1, Math.ceil(members.count / LIMITS.subscribersPageSize)) : 1;

  return (
    <Stack gap="lg">
      <Group justify="space-between" align="flex-end" wrap="wrap">
        <Stack gap={4}>
          <Button
            variant="subtle"
            px={0}
            onClick={() => actor.send({ type: 'members.close' })}
            w="fit-content"
          >
            {t('subscriberLists.actions.back')}
          </Button>
          <Title order={2}>{t('subscriberLists.members.title', { name: list?.name ?? '' })}</Title>
          <Text c="dimmed">{t('subscriberLists.members.intro')}</Text>
        </Stack>
        {canWrite && (
          <Button onClick={() => actor.send({ type: 'picker.open' })} disabled={!browsing}>
            {t('subscriberLists.actions.addMembers')}
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
          title={t('subscriberLists.members.loadFailed')}
          message={problemMessage(t, 'subscriberLists', problem)}
          retryLabel={t('subscriberLists.actions.retry')}
          onRetry={() => actor.send({ type: 'members.retry' })}
        />
      )}
      {browsing && problem && (
        <Alert color="red" role="alert">
          {problemMessage(t, 'subscriberLists', problem)}
        </Alert>
      )}
      <Paper withBorder radius="md" pos="relative" mih={120}>
        <LoadingOverlay visible={(loading || removingOne) && members !== null} />
        {members === null && loading && (
          <Stack gap="sm" p="md" role="status" aria-label={t('subscriberLists.loading')}>
            {Array.from({ length: 5 }, (_, row) => (
              <Skeleton key={row} height={16} />
            ))}
          </Stack>
        )}
        {members && members.results.length === 0 && (
          <Text fw={600} ta="center" py="xl">
            {t('subscriberLists.members.empty')}
          </Text>
        )}
        {members && members.results.length > 0 && (
          <Table.ScrollContainer minWidth={640}>
            <Table striped highlightOnHover verticalSpacing="sm">
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>{t('subscriberLists.table.name')}</Table.Th>
                  <Table.Th>{t('subscriberLists.table.email')}</Table.Th>
                  <Table.Th>{t('subscriberLists.table.status')}</Table.Th>
                  <Table.Th>
                    <VisuallyHidden>{t('subscriberLists.table.actions')}</VisuallyHidden>
                  </Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {members.results.map((member) => (
                  <Table.Tr key={member.id}>
                    <Table.Td>{personName(member) ?? t('subscriberLists.table.noName')}</Table.Td>
                    <Table.Td>{member.email}</Table.Td>
                    <Table.Td>
                      <SubscribedBadge
                        subscribed={member.subscribed}
                        label={
                          member.subscribed
                            ? t('subscriberLists.table.subscribed')
                            : t('subscriberLists.table.unsubscribed')
                        }
                      />
                    </Table.Td>
                    <Table.Td>
                      {canWrite && (
                        <Group justify="flex-end">
                          <Button
                            size="xs"
                            variant="subtle"
                            color="red"
                            disabled={!browsing}
                            loading={removingOne && removing?.id === member.id}
                            onClick={() => actor.send({ type: 'member.remove', subscriber: member })}
                            aria-label={t('subscriberLists.actions.removeOf', { email: member.email })}
                          >
                            {t('subscriberLists.actions.remove')}
                          </Button>
                        </Group>
                      )}
                    </Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
        )}
      </Paper>
      {members && members.count > 0 && (
        <PagedFooter
          summary={t('subscriberLists.members.total', { total: formatCount(members.count, language) })}
          page={page}
          pages={pages}
          disabled={!browsing}
          onPage={(next) => actor.send({ type: 'members.page', page: next })}
          labels={listPagerLabels(t)}
        />
      )}
    </Stack>
  );
}
