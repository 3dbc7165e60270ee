import { Anchor, Button, Group, Stack, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { orderingAfterClick, type ListNotice } from '../../machines/kit/list-machine.js';
import { SUBSCRIBER_SORTING, type SubscriberForm } from '../../machines/subscribers-list.machine.js';
import { formatApproximateCount, formatCount, formatDate, languageOf } from '../../format/index.js';
import { displayPhone } from '../../format/phone.js';
import { LIMITS } from '../../schemas/constants.js';
import type { Subscriber } from '../../schemas/subscribers.js';
import type { ListActor } from '../kit/list-actor.js';
import { ListFrame } from '../kit/ListFrame.js';
import { ListTable } from '../kit/ListTable.js';
import { RowActions } from '../kit/RowActions.js';
import { useListView } from '../kit/useListView.js';
import { problemMessage } from '../shared/problem-message.js';
import { CsvUploadDialog, type CsvUploadActor } from './CsvUploadDialog.js';
import { personName } from './messages.js';
import { SubscribedBadge } from './SubscribedBadge.js';
import { SubscriberDialog } from './SubscriberDialog.js';

/** The subscribers list machine as this screen's views see it. */
export type SubscribersActor = ListActor<Subscriber, SubscriberForm>;

/** The notices this screen words; a finished export needs none (the browser shows the download). */
const NOTICES: Partial<Record<ListNotice, string>> = {
  created: 'subscribers.notices.created',
  updated: 'subscribers.notices.updated',
  uploaded: 'subscribers.notices.uploaded',
  exportFailed: 'subscribers.notices.exportFailed',
};

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
  const { browsing, exporting, total, totalEstimated, page, search, ordering, notice, listProblem } =
    useListView(actor);
  const noticeKey = notice ? NOTICES[notice] : undefined;
  const size = LIMITS.subscribersPageSize;

  return (
    <Stack gap="lg">
      <Stack gap={4}>
        <Title order={2}>{t('subscribers.page.title')}</Title>
        <Text c="dimmed">
          {t('subscribers.page.intro', { where: selectionName ?? t('subscribers.page.allLocations') })}
        </Text>
      </Stack>
      <ListFrame
        actor={actor}
        texts={{
          search: t('subscribers.search'),
          searchPlaceholder: t('subscribers.searchPlaceholder'),
          add: canWrite ? t('subscribers.actions.add') : undefined,
          empty: canWrite
            ? `${t('subscribers.empty')} ${t('subscribers.emptyHint')}`
            : t('subscribers.empty'),
          noMatch: t('subscribers.noMatch', { query: search.trim() }),
          loadFailed: t('subscribers.loadFailed'),
          problem: problemMessage(t, 'subscribers', listProblem),
          notice: noticeKey ? t(noticeKey) : null,
          summary:
            total > 0
              ? t(totalEstimated ? 'subscribers.totalAbout' : 'subscribers.total', {
                  from: formatCount((page - 1) * size + 1, language),
                  to: formatCount(Math.min(page * size, total), language),
                  total: totalEstimated
                    ? formatApproximateCount(total, language)
                    : formatCount(total, language),
                })
              : undefined,
        }}
        toolbar={
          <>
            <Button
              variant="default"
              loading={exporting}
              disabled={!browsing || total === 0}
              onClick={() => actor.send({ type: 'export.start' })}
            >
              {t('subscribers.actions.export')}
            </Button>
            {canWrite && (
              <Button variant="light" onClick={() => uploadActor.send({ type: 'dialog.open' })}>
                {t('subscribers.actions.upload')}
              </Button>
            )}
          </>
        }
      >
        {(subscribers, enabled) => {
          const openLabel = (subscriber: Subscriber) =>
            t('subscribers.actions.viewProfileOf', { name: personName(subscriber) ?? subscriber.email });
          const open = (subscriber: Subscriber) => actor.send({ type: 'item.open', item: subscriber });
          return (
            <ListTable
              items={subscribers}
              rowKey={(subscriber) => subscriber.id}
              label={t('subscribers.page.title')}
              minWidth={900}
              framed
              sorting={{
                ordering: ordering ?? SUBSCRIBER_SORTING.initial,
                next: (column) =>
                  orderingAfterClick(SUBSCRIBER_SORTING, ordering ?? SUBSCRIBER_SORTING.initial, column),
                onChange: (next) => actor.send({ type: 'sort.change', ordering: next }),
              }}
              columns={[
                {
                  key: 'name',
                  header: t('subscribers.table.name'),
                  primary: true,
                  sortKey: 'name',
                  cell: (subscriber) => (
                    <Anchor
                      component="button"
                      type="button"
                      size="sm"
                      fw={600}
                      ta="start"
                      disabled={!enabled}
                      onClick={() => open(subscriber)}
                      aria-label={openLabel(subscriber)}
                    >
                      {personName(subscriber) ?? t('subscribers.table.noName')}
                    </Anchor>
                  ),
                },
                {
                  key: 'email',
                  header: t('subscribers.table.email'),
                  sortKey: 'email',
                  cell: (subscriber) => subscriber.email,
                },
                {
                  key: 'phone',
                  header: t('subscribers.table.phone'),
                  cell: (subscriber) => displayPhone(subscriber.phone) || '—',
                },
                {
                  key: 'zip',
                  header: t('subscribers.table.zip'),
                  cell: (subscriber) => subscriber.zip || '—',
                },
                {
                  key: 'status',
                  header: t('subscribers.table.status'),
                  cell: (subscriber) => (
                    <SubscribedBadge
                      subscribed={subscriber.subscribed}
                      label={
                        subscriber.subscribed
                          ? t('subscribers.table.subscribed')
                          : t('subscribers.table.unsubscribed')
                      }
                    />
                  ),
                },
                {
                  key: 'created',
                  header: t('subscribers.table.created'),
                  sortKey: 'created_at',
                  cell: (subscriber) => formatDate(subscriber.created_at, language, timeZone),
                },
              ]}
              actions={(subscriber) => (
                <Group gap="xs" wrap="nowrap">
                  <Button
                    size="xs"
                    variant="subtle"
                    disabled={!enabled}
                    onClick={() => open(subscriber)}
                    aria-label={openLabel(subscriber)}
                  >
                    {t('subscribers.actions.viewProfile')}
                  </Button>
                  {canWrite && (
                    <RowActions
                      actor={actor}
                      item={subscriber}
                      enabled={enabled}
                      remove={false}
                      label={subscriber.email}
                    />
                  )}
                </Group>
              )}
            />
          );
        }}
      </ListFrame>
      <SubscriberDialog actor={actor} />
      <CsvUploadDialog actor={uploadActor} />
    </Stack>
  );
}
