import { Anchor, Button, Group, Paper, Stack, Table, Text, Title, VisuallyHidden } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { ListNotice } from '../../machines/kit/list-machine.js';
import type { SubscriberForm } from '../../machines/subscribers-list.machine.js';
import { formatCount, formatDate, languageOf } from '../../format/index.js';
import { LIMITS } from '../../schemas/constants.js';
import type { Subscriber } from '../../schemas/subscribers.js';
import type { ListActor } from '../kit/list-actor.js';
import { ListFrame } from '../kit/ListFrame.js';
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
  const { browsing, exporting, total, page, search, notice, listProblem } = useListView(actor);
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
              ? t('subscribers.total', {
                  from: formatCount((page - 1) * size + 1, language),
                  to: formatCount(Math.min(page * size, total), language),
                  total: formatCount(total, language),
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
        {(subscribers, enabled) => (
          <Paper withBorder radius="md">
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
                  {subscribers.map((subscriber) => {
                    const name = personName(subscriber);
                    const openLabel = t('subscribers.actions.viewProfileOf', {
                      name: name ?? subscriber.email,
                    });
                    const open = () => actor.send({ type: 'item.open', item: subscriber });
                    return (
                      <Table.Tr key={subscriber.id}>
                        <Table.Td>
                          <Anchor
                            component="button"
                            type="button"
                            size="sm"
                            fw={600}
                            disabled={!enabled}
                            onClick={open}
                            aria-label={openLabel}
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
                              disabled={!enabled}
                              onClick={open}
                              aria-label={openLabel}
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
                        </Table.Td>
                      </Table.Tr>
                    );
                  })}
                </Table.Tbody>
              </Table>
            </Table.ScrollContainer>
          </Paper>
        )}
      </ListFrame>
      <SubscriberDialog actor={actor} />
      <CsvUploadDialog actor={uploadActor} />
    </Stack>
  );
}
