import { Button, Stack, Title } from '@mantine/core';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import type { MembersPickForm } from '../../machines/list-members.machine.js';
import type { Subscriber, SubscriberList } from '../../schemas/subscribers.js';
import { formatCount, languageOf } from '../../format/index.js';
import { ConfirmDeleteDialog } from '../kit/ConfirmDeleteDialog.js';
import type { ListActor } from '../kit/list-actor.js';
import { ListFrame } from '../kit/ListFrame.js';
import { ListTable } from '../kit/ListTable.js';
import { useListView } from '../kit/useListView.js';
import { problemMessage } from '../shared/problem-message.js';
import { personName } from '../subscribers/messages.js';
import { SubscribedBadge } from '../subscribers/SubscribedBadge.js';

/** A list's members actor, as the view sees it: its add dialog is the picker's ticks. */
export type ListMembersActor = ListActor<Subscriber, MembersPickForm>;

// The kit's notices in this panel's words: adding is the kit's create, taking off its delete.
const NOTICES = { created: 'membersAdded', deleted: 'memberRemoved' } as const;

/**
 * One list's members, 8 to a page: back to the lists, add members (the picker, which the screen
 * mounts while the members machine's add dialog is open), take one off after a confirmation.
 */
export function MembersPanel({
  actor,
  list,
  canWrite,
  onBack,
  picker,
}: {
  actor: ListMembersActor;
  list: SubscriberList;
  canWrite: boolean;
  /** Back to all lists. */
  onBack: () => void;
  /** The add-members picker while it is open. */
  picker: ReactNode;
}) {
  const { t, i18n } = useTranslation();
  const language = languageOf(i18n.language);
  const { notice, listProblem, total } = useListView(actor);
  const noticeKey = notice && notice in NOTICES ? NOTICES[notice as keyof typeof NOTICES] : null;
  return (
    <Stack gap="lg">
      <Stack gap={4}>
        <Button variant="subtle" px={0} onClick={onBack} w="fit-content">
          {t('subscriberLists.actions.back')}
        </Button>
        <Title order={2}>{t('subscriberLists.members.title', { name: list.name })}</Title>
      </Stack>
      <ListFrame
        actor={actor}
        texts={{
          intro: t('subscriberLists.members.intro'),
          add: canWrite ? t('subscriberLists.actions.addMembers') : undefined,
          empty: t('subscriberLists.members.empty'),
          loadFailed: t('subscriberLists.members.loadFailed'),
          problem: problemMessage(t, 'subscriberLists', listProblem),
          notice: noticeKey ? t(`subscriberLists.notices.${noticeKey}`) : null,
          summary: t('subscriberLists.members.total', { total: formatCount(total, language) }),
        }}
      >
        {(members, browsing) => (
          <ListTable
            items={members}
            rowKey={(member) => member.id}
            label={t('subscriberLists.members.title', { name: list.name })}
            minWidth={640}
            columns={[
              {
                key: 'name',
                header: t('subscriberLists.table.name'),
                primary: true,
                cell: (member) => personName(member) ?? t('subscriberLists.table.noName'),
              },
              { key: 'email', header: t('subscriberLists.table.email'), cell: (member) => member.email },
              {
                key: 'status',
                header: t('subscriberLists.table.status'),
                cell: (member) => (
                  <SubscribedBadge
                    subscribed={member.subscribed}
                    label={
                      member.subscribed
                        ? t('subscriberLists.table.subscribed')
                        : t('subscriberLists.table.unsubscribed')
                    }
                  />
                ),
              },
            ]}
            actions={
              canWrite
                ? (member) => (
                    <Button
                      size="xs"
                      variant="subtle"
                      color="red"
                      disabled={!browsing}
                      onClick={() => actor.send({ type: 'item.delete', item: member })}
                      aria-label={t('subscriberLists.actions.removeOf', { email: member.email })}
                    >
                      {t('subscriberLists.actions.remove')}
                    </Button>
                  )
                : undefined
            }
          />
        )}
      </ListFrame>
      <ConfirmDeleteDialog
        actor={actor}
        title={t('subscriberLists.dialog.removeTitle')}
        message={(member) =>
          t('subscriberLists.dialog.removeConfirm', { email: member.email, name: list.name })
        }
        confirm={t('subscriberLists.actions.remove')}
        problemText={(problem) => problemMessage(t, 'subscriberLists', problem)}
      />
      {picker}
    </Stack>
  );
}
