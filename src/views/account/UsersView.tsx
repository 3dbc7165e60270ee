import { Badge, Stack } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { problemMessage } from '../shared/problem-message.js';
import type { UserForm } from '../../machines/company-users.machine.js';
import type { CompanyUser } from '../../schemas/accounts.js';
import type { ListActor } from '../kit/list-actor.js';
import { ListFrame } from '../kit/ListFrame.js';
import { ListTable } from '../kit/ListTable.js';
import { RowActions } from '../kit/RowActions.js';
import { useListView } from '../kit/useListView.js';
import { displayName, formatMoment } from './messages.js';
import { RoleBadge } from './RoleBadge.js';
import { UserDialogs } from './UserDialogs.js';

/** The Users tab (admins and owners): search, a paged table with roles, and the dialogs that change users. */
export function UsersView({
  actor,
  currentUserId,
  timeZone,
}: {
  actor: ListActor<CompanyUser, UserForm>;
  /** The signed-in user, who may not delete themselves. */
  currentUserId: number | null;
  /** The time zone dates are shown in. */
  timeZone?: string;
}) {
  const { t, i18n } = useTranslation();
  const { notice, listProblem, search, total } = useListView(actor);
  const moment = (iso: string | null) =>
    iso ? formatMoment(iso, i18n.language, timeZone) : t('account.never');

  return (
    <Stack gap="md">
      <ListFrame
        actor={actor}
        texts={{
          intro: t('account.users.intro'),
          search: t('account.users.search'),
          searchPlaceholder: t('account.users.searchPlaceholder'),
          add: t('account.users.add'),
          empty: t('account.users.empty'),
          noMatch: t('account.users.noMatch', { query: search.trim() }),
          loadFailed: t('account.users.loadFailed'),
          problem: problemMessage(t, 'account', listProblem),
          // The users tab only announces its own changes (no uploads or exports).
          notice:
            notice === 'created' || notice === 'updated' || notice === 'deleted'
              ? t(`account.users.${notice}`)
              : null,
          summary: t('account.users.total', { count: total }),
        }}
      >
        {(users, browsing) => (
          <ListTable
            items={users}
            rowKey={(user) => user.id}
            label={t('account.tabs.users')}
            columns={[
              {
                key: 'name',
                header: t('account.users.name'),
                primary: true,
                cell: (user) => displayName(user),
              },
              { key: 'email', header: t('account.users.email'), cell: (user) => user.email },
              {
                key: 'role',
                header: t('account.users.role'),
                cell: (user) => <RoleBadge role={user.role} />,
              },
              {
                key: 'status',
                header: t('account.users.status'),
                cell: (user) => (
                  <Badge color={user.is_active ? 'green' : 'gray'} variant="dot">
                    {user.is_active ? t('account.users.active') : t('account.users.inactive')}
                  </Badge>
                ),
              },
              {
                key: 'lastLogin',
                header: t('account.users.lastLogin'),
                cell: (user) => moment(user.last_login_at),
              },
            ]}
            actions={(user) => (
              <RowActions
                actor={actor}
                item={user}
                enabled={browsing}
                // Nobody deletes themselves.
                remove={user.id !== currentUserId}
                label={user.email}
              />
            )}
          />
        )}
      </ListFrame>
      <UserDialogs actor={actor} />
    </Stack>
  );
}
