import { Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { ListNameForm } from '../../machines/subscriber-lists.machine.js';
import { SubscriberListWriteSchema, type SubscriberList } from '../../schemas/subscribers.js';
import { formatCount, formatDateTime, languageOf } from '../../format/index.js';
import type { ListActor } from '../kit/list-actor.js';
import { useListDialog, useListView } from '../kit/useListView.js';
import { ListScreenTable } from '../shared/ListScreenTable.js';
import { NameDialog } from '../shared/NameDialog.js';
import { problemMessage } from '../shared/problem-message.js';
import { RowActionButtons } from '../shared/RowActionButtons.js';

/** The subscriber-lists actor, as the view sees it. */
export type SubscriberListsActor = ListActor<SubscriberList, ListNameForm>;

// The kit's notices in this screen's words.
const NOTICES = { created: 'created', updated: 'renamed', deleted: 'deleted' } as const;

/**
 * /subscriber-lists: the company's subscriber lists (name, members, created as a long date-time) with
 * create, rename and delete; a list's Members button opens its members (the screen shows MembersPanel).
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
  const { t, i18n } = useTranslation();
  const language = languageOf(i18n.language);
  const { notice, listProblem, total } = useListView(actor);
  const { selected } = useListDialog(actor);
  const noticeKey = notice && notice in NOTICES ? NOTICES[notice as keyof typeof NOTICES] : null;
  return (
    <ListScreenTable
      actor={actor}
      title={t('subscriberLists.page.title')}
      texts={{
        intro: t('subscriberLists.page.intro'),
        add: canWrite ? t('subscriberLists.actions.create') : undefined,
        empty: canWrite
          ? `${t('subscriberLists.empty')} ${t('subscriberLists.emptyHint')}`
          : t('subscriberLists.empty'),
        loadFailed: t('subscriberLists.loadFailed'),
        problem: problemMessage(t, 'subscriberLists', listProblem),
        notice: noticeKey ? t(`subscriberLists.notices.${noticeKey}`) : null,
        summary: t('subscriberLists.total', { total: formatCount(total, language) }),
      }}
      rowKey={(list) => list.id}
      columns={[
        {
          key: 'name',
          header: t('subscriberLists.table.name'),
          primary: true,
          cell: (list) => (
            <Text size="sm" fw={500}>
              {list.name}
            </Text>
          ),
        },
        {
          key: 'members',
          header: t('subscriberLists.table.members'),
          align: 'right',
          cell: (list) => formatCount(list.member_count, language),
        },
        {
          key: 'created',
          header: t('subscriberLists.table.created'),
          cell: (list) => formatDateTime(list.created, language, timeZone),
        },
      ]}
      rowActions={(list, browsing) => (
        <RowActionButtons
          actions={[
            {
              key: 'members',
              label: t('subscriberLists.actions.members'),
              ariaLabel: t('subscriberLists.actions.membersOf', { name: list.name }),
              variant: 'light',
              disabled: !browsing,
              onClick: () => actor.send({ type: 'item.open', item: list }),
            },
            canWrite && {
              key: 'rename',
              label: t('subscriberLists.actions.rename'),
              ariaLabel: t('subscriberLists.actions.renameOf', { name: list.name }),
              variant: 'subtle',
              disabled: !browsing,
              onClick: () => actor.send({ type: 'item.edit', item: list }),
            },
            canDelete && {
              key: 'delete',
              label: t('kit.delete'),
              ariaLabel: t('subscriberLists.actions.deleteOf', { name: list.name }),
              variant: 'subtle',
              color: 'red',
              disabled: !browsing,
              onClick: () => actor.send({ type: 'item.delete', item: list }),
            },
          ]}
        />
      )}
      deleteDialog={{
        title: t('subscriberLists.dialog.deleteTitle'),
        message: (list) =>
          t('subscriberLists.dialog.deleteConfirm', { name: list.name, members: list.member_count }),
        problemText: (problem) => problemMessage(t, 'subscriberLists', problem),
      }}
    >
      <NameDialog
        actor={actor}
        label={t('subscriberLists.dialog.name')}
        title={{
          creating: t('subscriberLists.dialog.createTitle'),
          editing: t('subscriberLists.dialog.renameTitle', { name: selected?.name ?? '' }),
        }}
        submit={{ creating: t('subscriberLists.actions.create'), editing: t('kit.save') }}
        schemas={{ creating: SubscriberListWriteSchema, editing: SubscriberListWriteSchema }}
        problemText={(problem) => problemMessage(t, 'subscriberLists', problem)}
      />
    </ListScreenTable>
  );
}
