import { Box, Button, Group, Stack, Text, TextInput, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { fieldMessage } from '../shared/field-message.js';
import type { ListNameForm } from '../../machines/subscriber-lists.machine.js';
import { LIMITS } from '../../schemas/constants.js';
import { SubscriberListWriteSchema, type SubscriberList } from '../../schemas/subscribers.js';
import { formatCount, formatDateTime, languageOf } from '../../format/index.js';
import { ConfirmDeleteDialog } from '../kit/ConfirmDeleteDialog.js';
import { textFieldProps } from '../kit/field-props.js';
import { FormDialog } from '../kit/FormDialog.js';
import type { ListActor } from '../kit/list-actor.js';
import { ListFrame } from '../kit/ListFrame.js';
import { ListTable } from '../kit/ListTable.js';
import { useRequiredFields } from '../kit/required-fields.js';
import { useListDialog, useListView } from '../kit/useListView.js';
import { problemMessage } from '../shared/problem-message.js';

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
  const noticeKey = notice && notice in NOTICES ? NOTICES[notice as keyof typeof NOTICES] : null;
  return (
    <Stack gap="lg">
      <Title order={2}>{t('subscriberLists.page.title')}</Title>
      <ListFrame
        actor={actor}
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
      >
        {(lists, browsing) => (
          <ListTable
            items={lists}
            rowKey={(list) => list.id}
            label={t('subscriberLists.page.title')}
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
            actions={(list) => (
              <ListRowActions
                actor={actor}
                list={list}
                enabled={browsing}
                canWrite={canWrite}
                canDelete={canDelete}
              />
            )}
          />
        )}
      </ListFrame>
      <NameDialog actor={actor} />
      <ConfirmDeleteDialog
        actor={actor}
        title={t('subscriberLists.dialog.deleteTitle')}
        message={(list) =>
          t('subscriberLists.dialog.deleteConfirm', { name: list.name, members: list.member_count })
        }
        problemText={(problem) => problemMessage(t, 'subscriberLists', problem)}
      />
    </Stack>
  );
}

/** A list's Members, Rename and Delete buttons, each named after the list for screen readers. */
function ListRowActions({
  actor,
  list,
  enabled,
  canWrite,
  canDelete,
}: {
  actor: SubscriberListsActor;
  list: SubscriberList;
  enabled: boolean;
  canWrite: boolean;
  canDelete: boolean;
}) {
  const { t } = useTranslation();
  return (
    <Group gap="xs" wrap="nowrap">
      <Button
        size="xs"
        variant="light"
        disabled={!enabled}
        onClick={() => actor.send({ type: 'item.open', item: list })}
        aria-label={t('subscriberLists.actions.membersOf', { name: list.name })}
      >
        {t('subscriberLists.actions.members')}
      </Button>
      {canWrite && (
        <Button
          size="xs"
          variant="subtle"
          disabled={!enabled}
          onClick={() => actor.send({ type: 'item.edit', item: list })}
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
          disabled={!enabled}
          onClick={() => actor.send({ type: 'item.delete', item: list })}
          aria-label={t('subscriberLists.actions.deleteOf', { name: list.name })}
        >
          {t('kit.delete')}
        </Button>
      )}
    </Group>
  );
}

/** The create and rename dialog: the list's name. */
function NameDialog({ actor }: { actor: SubscriberListsActor }) {
  const { t } = useTranslation();
  const { busy, form, fieldErrors, selected } = useListDialog(actor);
  const label = t('subscriberLists.dialog.name');
  const required = useRequiredFields(actor, {
    creating: SubscriberListWriteSchema,
    editing: SubscriberListWriteSchema,
  });
  return (
    <FormDialog
      actor={actor}
      title={{
        creating: t('subscriberLists.dialog.createTitle'),
        editing: t('subscriberLists.dialog.renameTitle', { name: selected?.name ?? '' }),
      }}
      submit={{ creating: t('subscriberLists.actions.create'), editing: t('kit.save') }}
      problemText={(problem) => problemMessage(t, 'subscriberLists', problem)}
    >
      <Box>
        <TextInput
          label={label}
          {...textFieldProps(actor, form, 'name', required)}
          maxLength={LIMITS.nameMaxLength}
          error={fieldMessage(t, fieldErrors.name, label)}
          disabled={busy}
          data-autofocus
        />
      </Box>
    </FormDialog>
  );
}
