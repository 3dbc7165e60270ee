import { ActionIcon, Button, Group, Paper, Stack, Text, Title, Tooltip } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { NoFilters } from '../../machines/kit/list-machine.js';
import {
  formatApproximateCount,
  formatCount,
  formatCurrency,
  formatDate,
  languageOf,
} from '../../format/index.js';
import type { Guest } from '../../schemas/guests.js';
import { ConfirmDeleteDialog } from '../kit/ConfirmDeleteDialog.js';
import type { ListActor } from '../kit/list-actor.js';
import { ListFrame } from '../kit/ListFrame.js';
import { ListTable } from '../kit/ListTable.js';
import { useListView } from '../kit/useListView.js';
import { problemMessage } from '../shared/problem-message.js';
import { ConsentBadge } from '../profile/consent.js';
import { CsvUploadDialog, type CsvUploadActor } from '../subscribers/CsvUploadDialog.js';
import { maskedCard } from './messages.js';

/** The guest list machine as this view sees it. */
export type GuestListActor = ListActor<Guest, NoFilters>;

/**
 * The guest list of /guest/analytics: search, export, CSV upload (marketers and above), POS checks CSV upload
 * (admins and owners, as the API allows), a paged table and the delete confirmation (admins and owners).
 */
export function GuestListView({
  actor,
  uploadActor,
  canUpload,
  checksUploadActor,
  canDelete,
  timeZone,
}: {
  actor: GuestListActor;
  uploadActor: CsvUploadActor;
  canUpload: boolean;
  /** The POS checks upload, for callers who may send checks; absent otherwise. */
  checksUploadActor?: CsvUploadActor | null;
  canDelete: boolean;
  timeZone?: string;
}) {
  const { t, i18n } = useTranslation();
  const language = languageOf(i18n.language);
  const { browsing, exporting, total, totalEstimated, search, notice, listProblem } = useListView(actor);
  const nameOf = (guest: Guest) => guest.customer_name.trim() || t('guests.list.unnamed');
  const noticeText = (): string | null => {
    if (notice === 'deleted' || notice === 'exported') return t(`guests.notices.${notice}`);
    if (notice === 'exportFailed') return t('guests.list.exportFailed');
    return null;
  };

  return (
    <Paper withBorder radius="md" p="lg">
      <Stack gap="md">
        <Title order={3}>{t('guests.list.title')}</Title>
        <ListFrame
          actor={actor}
          texts={{
            search: t('guests.list.search'),
            searchPlaceholder: t('guests.list.searchPlaceholder'),
            empty: t('guests.list.empty'),
            noMatch: t('guests.list.noMatch', { query: search.trim() }),
            loadFailed: t('guests.list.loadFailed'),
            problem: problemMessage(t, 'guests', listProblem),
            notice: noticeText(),
            summary: totalEstimated
              ? t('guests.list.totalAbout', { count: formatApproximateCount(total, language) })
              : t('guests.list.total', { count: formatCount(total, language) }),
          }}
          toolbar={
            <>
              <Button
                variant="light"
                loading={exporting}
                disabled={!browsing}
                onClick={() => actor.send({ type: 'export.start' })}
              >
                {t('guests.list.export')}
              </Button>
              {canUpload && (
                <Button variant="light" onClick={() => uploadActor.send({ type: 'dialog.open' })}>
                  {t('guests.list.upload')}
                </Button>
              )}
              {checksUploadActor && (
                <Button variant="light" onClick={() => checksUploadActor.send({ type: 'dialog.open' })}>
                  {t('guests.list.uploadChecks')}
                </Button>
              )}
            </>
          }
        >
          {(guests, enabled) => (
            <ListTable
              items={guests}
              rowKey={(guest) => guest.id}
              label={t('guests.list.title')}
              minWidth={860}
              columns={[
                {
                  key: 'name',
                  header: t('guests.list.name'),
                  primary: true,
                  cell: (guest) => (
                    <Button
                      variant="subtle"
                      size="compact-sm"
                      px={4}
                      disabled={!enabled}
                      aria-label={t('guests.list.openLabel', { name: nameOf(guest) })}
                      onClick={() => actor.send({ type: 'item.open', item: guest })}
                    >
                      {nameOf(guest)}
                    </Button>
                  ),
                },
                {
                  key: 'card',
                  header: t('guests.list.card'),
                  cell: (guest) => (
                    <Text ff="monospace" size="sm">
                      {maskedCard(guest.last_four_digits)}
                    </Text>
                  ),
                },
                { key: 'pos', header: t('guests.list.posId'), cell: (guest) => guest.pos_id },
                {
                  key: 'visits',
                  header: t('guests.list.visits'),
                  align: 'right',
                  cell: (guest) => formatCount(guest.visit_count, language),
                },
                {
                  key: 'spend',
                  header: t('guests.list.totalSpend'),
                  align: 'right',
                  cell: (guest) => formatCurrency(guest.total_spend),
                },
                {
                  key: 'lastVisit',
                  header: t('guests.list.lastVisit'),
                  cell: (guest) => formatDate(guest.last_visit_at, language, timeZone),
                },
                {
                  key: 'subscriber',
                  header: t('guests.list.emailConsent'),
                  cell: (guest) => <ConsentBadge consent={guest.email_consent} inTable />,
                },
              ]}
              actions={(guest) => (
                <Group gap="xs" wrap="nowrap">
                  <Button
                    size="xs"
                    variant="light"
                    disabled={!enabled}
                    onClick={() => actor.send({ type: 'item.open', item: guest })}
                    aria-label={t('guests.list.openLabel', { name: nameOf(guest) })}
                  >
                    {t('guests.list.open')}
                  </Button>
                  {canDelete && (
                    <Tooltip label={t('guests.list.deleteLabel', { name: nameOf(guest) })}>
                      <ActionIcon
                        variant="light"
                        color="red"
                        size="md"
                        disabled={!enabled}
                        aria-label={t('guests.list.deleteLabel', { name: nameOf(guest) })}
                        onClick={() => actor.send({ type: 'item.delete', item: guest })}
                      >
                        <TrashIcon />
                      </ActionIcon>
                    </Tooltip>
                  )}
                </Group>
              )}
            />
          )}
        </ListFrame>
      </Stack>
      <ConfirmDeleteDialog
        actor={actor}
        title={t('guests.deleteDialog.title')}
        message={(guest) => t('guests.deleteDialog.body', { name: nameOf(guest) })}
        problemText={(problem) => problemMessage(t, 'guests', problem)}
        confirm={t('guests.deleteDialog.confirm')}
      />
      <CsvUploadDialog actor={uploadActor} />
      {checksUploadActor && <CsvUploadDialog actor={checksUploadActor} />}
    </Paper>
  );
}

/** A small bin icon (no icon package in the app). */
function TrashIcon() {
  return (
    <svg
      width="16"
      height="16"
      viewBox="0 0 24 24"
      fill="none"
      stroke="currentColor"
      strokeWidth="2"
      aria-hidden
    >
      <path
        d="M3 6h18M8 6V4h8v2M19 6l-1 14H6L5 6M10 11v6M14 11v6"
        strokeLinecap="round"
        strokeLinejoin="round"
      />
    </svg>
  );
}
