import { Alert, Button, Group, Stack, Text, Title } from '@mantine/core';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { formatCount, formatCurrency, formatPercent, languageOf } from '../../format/index.js';
import type { SegmentForm } from '../../machines/segments.machine.js';
import type { Segment } from '../../schemas/segment-records.js';
import { ConfirmDeleteDialog } from '../kit/ConfirmDeleteDialog.js';
import type { ListActor } from '../kit/list-actor.js';
import { ListFrame } from '../kit/ListFrame.js';
import { ListTable } from '../kit/ListTable.js';
import { useListView } from '../kit/useListView.js';
import { problemMessage } from '../shared/problem-message.js';

/** The segments list actor, as the view sees it. */
export type SegmentsActor = ListActor<Segment, SegmentForm>;

/** What a row's clone and export buttons do (other machines than the list's). */
export interface SegmentRowCommands {
  clone: (segment: Segment) => void;
  export: (segment: Segment) => void;
  /** The segment being exported, whose button shows it. */
  exporting: number | null;
  /** The row's "Export in the background" button (the background exports' own actor). */
  background: (segment: Segment) => ReactNode;
}

const NOTICES = ['created', 'updated', 'deleted'] as const;

/**
 * /segments: the company's segments with their cached figures (guests, marketable and trackable with their
 * shares, average CLV; "computing…" until a segment's figures are first worked out), searched and paged, with
 * add, and per row the dashboard, edit, clone, export and delete. The add and update dialog and the clone
 * dialog come from the screen (`dialogs`), as does a notice of the clone or export (`notice`).
 */
export function SegmentsView({
  actor,
  rows,
  canWrite,
  canDelete,
  dialogs,
  notice,
  headerActions,
}: {
  actor: SegmentsActor;
  rows: SegmentRowCommands;
  /** Marketers and above add, edit and clone segments. */
  canWrite: boolean;
  /** Admins and owners delete them. */
  canDelete: boolean;
  dialogs: ReactNode;
  notice: { text: string; failed: boolean; onClose: () => void } | null;
  /** Beside the title: the button that opens the background exports. */
  headerActions?: ReactNode;
}) {
  const { t, i18n } = useTranslation();
  const language = languageOf(i18n.language);
  const { notice: listNotice, listProblem, total } = useListView(actor);
  const noticeKey = NOTICES.find((key) => key === listNotice) ?? null;
  const figure = (segment: Segment, count: number, pct: number) =>
    segment.segmentcache.computed_at === null ? (
      <Text size="sm" c="dimmed" fs="italic">
        {t('segments.table.computing')}
      </Text>
    ) : (
      <Stack gap={0} align="flex-end">
        <Text size="sm">{formatCount(count, language)}</Text>
        <Text size="xs" c="dimmed">
          {formatPercent(pct, { empty: 'zero' })}
        </Text>
      </Stack>
    );
  return (
    <Stack gap="lg">
      <Group justify="space-between" gap="sm">
        <Title order={2}>{t('segments.page.title')}</Title>
        {headerActions}
      </Group>
      {notice && (
        <Alert
          color={notice.failed ? 'red' : 'green'}
          withCloseButton
          closeButtonLabel={t('kit.close')}
          onClose={notice.onClose}
        >
          {notice.text}
        </Alert>
      )}
      <ListFrame
        actor={actor}
        texts={{
          intro: t('segments.page.intro'),
          add: canWrite ? t('segments.actions.add') : undefined,
          empty: canWrite ? `${t('segments.empty')} ${t('segments.emptyHint')}` : t('segments.empty'),
          noMatch: t('segments.noMatch'),
          loadFailed: t('segments.loadFailed'),
          problem: problemMessage(t, 'segments', listProblem),
          notice: noticeKey ? t(`segments.notices.${noticeKey}`) : null,
          summary: t('segments.total', { total: formatCount(total, language) }),
          search: t('segments.search'),
          searchPlaceholder: t('segments.searchPlaceholder'),
        }}
      >
        {(segments, browsing) => (
          <ListTable
            items={segments}
            rowKey={(segment) => segment.id}
            label={t('segments.page.title')}
            columns={[
              {
                key: 'name',
                header: t('segments.table.name'),
                primary: true,
                cell: (segment) => (
                  <Stack gap={0}>
                    <Text size="sm" fw={500}>
                      {segment.name}
                    </Text>
                    {segment.description && (
                      <Text size="xs" c="dimmed" lineClamp={2}>
                        {segment.description}
                      </Text>
                    )}
                  </Stack>
                ),
              },
              {
                key: 'all',
                header: t('segments.table.all'),
                align: 'right',
                cell: (segment) =>
                  figure(segment, segment.segmentcache.all_customers, segment.segmentcache.all_customers_pct),
              },
              {
                key: 'marketable',
                header: t('segments.table.marketable'),
                align: 'right',
                cell: (segment) =>
                  figure(
                    segment,
                    segment.segmentcache.marketable_customers,
                    segment.segmentcache.marketable_pct,
                  ),
              },
              {
                key: 'trackable',
                header: t('segments.table.trackable'),
                align: 'right',
                cell: (segment) =>
                  figure(
                    segment,
                    segment.segmentcache.trackable_customers,
                    segment.segmentcache.trackable_pct,
                  ),
              },
              {
                key: 'clv',
                header: t('segments.table.clv'),
                align: 'right',
                cell: (segment) =>
                  segment.segmentcache.computed_at === null
                    ? ''
                    : formatCurrency(segment.segmentcache.all_clv),
              },
            ]}
            actions={(segment) => (
              <SegmentRowActions
                actor={actor}
                segment={segment}
                rows={rows}
                enabled={browsing}
                canWrite={canWrite}
                canDelete={canDelete}
              />
            )}
          />
        )}
      </ListFrame>
      {dialogs}
      <ConfirmDeleteDialog
        actor={actor}
        title={t('segments.dialog.deleteTitle')}
        message={(segment) => t('segments.dialog.deleteConfirm', { name: segment.name })}
        problemText={(problem) => problemMessage(t, 'segments', problem)}
      />
    </Stack>
  );
}

/** A segment's Dashboard, Edit, Clone, Export and Delete buttons, each named after it for screen readers. */
function SegmentRowActions({
  actor,
  segment,
  rows,
  enabled,
  canWrite,
  canDelete,
}: {
  actor: SegmentsActor;
  segment: Segment;
  rows: SegmentRowCommands;
  enabled: boolean;
  canWrite: boolean;
  canDelete: boolean;
}) {
  const { t } = useTranslation();
  const name = segment.name;
  return (
    <Group gap="xs" wrap="wrap" justify="flex-end">
      <Button
        size="xs"
        variant="light"
        disabled={!enabled}
        onClick={() => actor.send({ type: 'item.open', item: segment })}
        aria-label={t('segments.actions.dashboardOf', { name })}
      >
        {t('segments.actions.dashboard')}
      </Button>
      {canWrite && (
        <Button
          size="xs"
          variant="subtle"
          disabled={!enabled}
          onClick={() => actor.send({ type: 'item.edit', item: segment })}
          aria-label={t('segments.actions.updateOf', { name })}
        >
          {t('segments.actions.update')}
        </Button>
      )}
      {canWrite && (
        <Button
          size="xs"
          variant="subtle"
          disabled={!enabled}
          onClick={() => rows.clone(segment)}
          aria-label={t('segments.actions.cloneOf', { name })}
        >
          {t('segments.actions.clone')}
        </Button>
      )}
      <Button
        size="xs"
        variant="subtle"
        disabled={rows.exporting !== null}
        loading={rows.exporting === segment.id}
        onClick={() => rows.export(segment)}
        aria-label={t('segments.actions.exportOf', { name })}
      >
        {t('segments.actions.export')}
      </Button>
      {rows.background(segment)}
      {canDelete && (
        <Button
          size="xs"
          variant="subtle"
          color="red"
          disabled={!enabled}
          onClick={() => actor.send({ type: 'item.delete', item: segment })}
          aria-label={t('segments.actions.deleteOf', { name })}
        >
          {t('kit.delete')}
        </Button>
      )}
    </Group>
  );
}
