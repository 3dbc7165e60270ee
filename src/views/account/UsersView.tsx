import {
  Alert,
  Badge,
  Box,
  Button,
  Group,
  LoadingOverlay,
  Pagination,
  Stack,
  Table,
  Text,
  TextInput,
} from '@mantine/core';
import { useSelector } from '@xstate/react';
import { useTranslation } from 'react-i18next';
import type { ActorRefFrom } from 'xstate';
import type { companyUsersMachine } from '../../machines/company-users.machine.js';
import { displayName, formatMoment, problemMessage } from './messages.js';
import { RoleBadge } from './RoleBadge.js';
import { UserDialogs } from './UserDialogs.js';
import { LoadFailedAlert } from '../shared/LoadFailedAlert.js';

/** The Users tab (admins and owners): search, a paged table with roles, and the dialogs that change users. */
export function UsersView({
  actor,
  currentUserId,
  timeZone,
}: {
  actor: ActorRefFrom<typeof companyUsersMachine>;
  /** The signed-in user, who may not delete themselves. */
  currentUserId: number | null;
  /** The time zone dates are shown in. */
  timeZone?: string;
}) {
  const { t, i18n } = useTranslation();
  const busy = useSelector(actor, (state) => state.matches('listing') && state.hasTag('busy'));
  const failed = useSelector(actor, (state) => state.matches({ listing: 'failed' }));
  const browsing = useSelector(actor, (state) => state.matches({ listing: 'browsing' }));
  const list = useSelector(actor, (state) => state.context.list);
  const query = useSelector(actor, (state) => state.context.query);
  const page = useSelector(actor, (state) => state.context.page);
  const pageSize = useSelector(actor, (state) => state.context.pageSize);
  const problem = useSelector(actor, (state) => (state.matches('listing') ? state.context.problem : null));
  const notice = useSelector(actor, (state) => state.context.notice);

  const pages = list ? Math.max(1, Math.ceil(list.count / pageSize)) : 1;
  const moment = (iso: string | null) =>
    iso ? formatMoment(iso, i18n.language, timeZone) : t('account.never');

  return (
    <Stack gap="md">
      <Text c="dimmed">{t('account.users.intro')}</Text>
      {notice && (
        <Alert color="green" withCloseButton onClose={() => actor.send({ type: 'notice.dismiss' })}>
          {t(`account.users.${notice}`)}
        </Alert>
      )}
      <Group justify="space-between" align="flex-end">
        <TextInput
          label={t('account.users.search')}
          placeholder={t('account.users.searchPlaceholder')}
          value={query}
          onChange={(event) => actor.send({ type: 'search.change', query: event.currentTarget.value })}
          type="search"
          w={320}
        />
        <Button onClick={() => actor.send({ type: 'user.add' })} disabled={!browsing}>
          {t('account.users.add')}
        </Button>
      </Group>
      {failed && (
        <LoadFailedAlert
          title={t('account.users.loadFailed')}
          message={problemMessage(t, 'account', problem)}
          retryLabel={t('account.actions.retry')}
          onRetry={() => actor.send({ type: 'list.retry' })}
        />
      )}
      <Box pos="relative" mih={80}>
        <LoadingOverlay visible={busy} />
        {list && list.results.length === 0 && (
          <Text c="dimmed" ta="center" py="lg">
            {query.trim() ? t('account.users.noMatch', { query: query.trim() }) : t('account.users.empty')}
          </Text>
        )}
        {list && list.results.length > 0 && (
          <Table.ScrollContainer minWidth={720}>
            <Table striped highlightOnHover>
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>{t('account.users.name')}</Table.Th>
                  <Table.Th>{t('account.users.email')}</Table.Th>
                  <Table.Th>{t('account.users.role')}</Table.Th>
                  <Table.Th>{t('account.users.status')}</Table.Th>
                  <Table.Th>{t('account.users.lastLogin')}</Table.Th>
                  <Table.Th>{t('account.actions.column')}</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {list.results.map((user) => (
                  <Table.Tr key={user.id}>
                    <Table.Td>{displayName(user)}</Table.Td>
                    <Table.Td>{user.email}</Table.Td>
                    <Table.Td>
                      <RoleBadge role={user.role} />
                    </Table.Td>
                    <Table.Td>
                      <Badge color={user.is_active ? 'green' : 'gray'} variant="dot">
                        {user.is_active ? t('account.users.active') : t('account.users.inactive')}
                      </Badge>
                    </Table.Td>
                    <Table.Td>{moment(user.last_login_at)}</Table.Td>
                    <Table.Td>
                      <Group gap="xs" wrap="nowrap">
                        <Button
                          size="xs"
                          variant="light"
                          disabled={!browsing}
                          onClick={() => actor.send({ type: 'user.edit', user })}
                        >
                          {t('account.actions.edit')}
                        </Button>
                        {user.id !== currentUserId && (
                          <Button
                            size="xs"
                            variant="light"
                            color="red"
                            disabled={!browsing}
                            onClick={() => actor.send({ type: 'user.delete', user })}
                          >
                            {t('account.actions.delete')}
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
      </Box>
      {list && (
        <Group justify="space-between">
          <Text size="sm" c="dimmed">
            {t('account.users.total', { count: list.count })}
          </Text>
          {pages > 1 && (
            <Pagination
              total={pages}
              value={page}
              disabled={!browsing}
              onChange={(next) => actor.send({ type: 'page.change', page: next })}
            />
          )}
        </Group>
      )}
      <UserDialogs actor={actor} />
    </Stack>
  );
}
