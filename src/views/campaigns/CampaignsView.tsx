import { Stack, Text } from '@mantine/core';
import { useSelector } from '@xstate/react';
import { useTranslation } from 'react-i18next';
import type { ActorRefFrom } from 'xstate';
import { formatCount, formatDateTime, formatPercent, languageOf } from '../../format/index.js';
import type { campaignDuplicateMachine } from '../../machines/campaign-duplicate.machine.js';
import type { CampaignFilters } from '../../machines/campaigns.machine.js';
import { CAMPAIGN_STATUSES, type CampaignStatus, type CampaignSummary } from '../../schemas/campaigns.js';
import type { ListActor } from '../kit/list-actor.js';
import { useListView } from '../kit/useListView.js';
import { ListScreenTable } from '../shared/ListScreenTable.js';
import { problemMessage } from '../shared/problem-message.js';
import { RowActionButtons } from '../shared/RowActionButtons.js';
import { StatusFilterToolbar } from '../shared/StatusFilterToolbar.js';
import { CampaignStatusBadge } from './CampaignStatusBadge.js';

/** The campaign list actor, as the view sees it (it also takes the status filter). */
export type CampaignsActor = ListActor<CampaignSummary> & {
  send(command: { type: 'filters.change'; filters: Partial<CampaignFilters> }): void;
};

/** The duplicate machine's running actor. */
export type CampaignDuplicateActor = ActorRefFrom<typeof campaignDuplicateMachine>;

/**
 * /campaigns: every campaign with its status, next or last send and figures (recipients, sent, open and
 * click rates), searched by name and filtered by status; "New campaign", open, duplicate and a confirmed
 * delete. The empty state says why it is empty and offers to create one.
 */
export function CampaignsView({
  actor,
  duplicator,
  status,
  canWrite,
  copiedName,
  timeZone,
  onCreate,
  onOpen,
}: {
  actor: CampaignsActor;
  duplicator: CampaignDuplicateActor;
  /** The status filter shown (null: every campaign). */
  status: CampaignStatus | null;
  /** Marketers and above create, copy and delete campaigns. */
  canWrite: boolean;
  /** The name of the copy just made, for its notice. */
  copiedName: string | null;
  timeZone?: string;
  onCreate: () => void;
  onOpen: (campaign: CampaignSummary) => void;
}) {
  const { t, i18n } = useTranslation();
  const language = languageOf(i18n.language);
  const { notice, listProblem, total } = useListView(actor);
  const copying = useSelector(duplicator, (state) => state.matches('duplicating'));
  const copyProblem = useSelector(duplicator, (state) => state.context.problem);
  const count = (value: number) => formatCount(value, language);
  const when = (value: string | null) => (value ? formatDateTime(value, language, timeZone) : '—');
  const noticeText = copiedName
    ? t('campaigns.notices.duplicated', { name: copiedName })
    : notice === 'deleted'
      ? t('campaigns.notices.deleted')
      : null;
  const filtered = status !== null;
  return (
    <ListScreenTable
      actor={actor}
      title={t('campaigns.page.title')}
      actionProblem={
        copyProblem && {
          text: (
            <>
              {t('campaigns.duplicateFailed')} {problemMessage(t, 'campaigns', copyProblem)}
            </>
          ),
          onDismiss: () => duplicator.send({ type: 'problem.dismiss' }),
        }
      }
      toolbar={
        <StatusFilterToolbar
          label={t('campaigns.filter.status')}
          allLabel={t('campaigns.filter.all')}
          statuses={CAMPAIGN_STATUSES}
          statusLabel={(value) => t(`campaigns.status.${value}`)}
          value={status}
          onChange={(value) => actor.send({ type: 'filters.change', filters: { status: value } })}
          create={canWrite ? { label: t('campaigns.actions.create'), onClick: onCreate } : null}
        />
      }
      texts={{
        intro: t('campaigns.page.intro'),
        search: t('campaigns.search'),
        empty: filtered
          ? t('campaigns.emptyFiltered')
          : canWrite
            ? `${t('campaigns.empty')} ${t('campaigns.emptyHint')}`
            : t('campaigns.empty'),
        noMatch: t('campaigns.noMatch'),
        loadFailed: t('campaigns.loadFailed'),
        problem: problemMessage(t, 'campaigns', listProblem),
        notice: noticeText,
        summary: t('campaigns.total', { total: count(total) }),
      }}
      rowKey={(campaign) => campaign.id}
      minWidth={980}
      columns={[
        {
          key: 'name',
          header: t('campaigns.table.name'),
          primary: true,
          cell: (campaign) => (
            <Stack gap={2}>
              <Text size="sm" fw={500}>
                {campaign.name}
              </Text>
              {campaign.template_name && (
                <Text size="xs" c="dimmed">
                  {campaign.template_name}
                </Text>
              )}
            </Stack>
          ),
        },
        {
          key: 'status',
          header: t('campaigns.table.status'),
          cell: (campaign) => <CampaignStatusBadge status={campaign.status} />,
        },
        {
          key: 'schedule',
          header: t('campaigns.table.schedule'),
          cell: (campaign) => (
            <Stack gap={2}>
              <Text size="sm">{t(`campaigns.repeat.${campaign.repeat_on}`)}</Text>
              {campaign.next_run_at && (
                <Text size="xs" c="dimmed">
                  {t('campaigns.table.next', { when: when(campaign.next_run_at) })}
                </Text>
              )}
            </Stack>
          ),
        },
        {
          key: 'recipients',
          header: t('campaigns.table.recipients'),
          align: 'right',
          cell: (campaign) => count(campaign.recipients),
        },
        {
          key: 'sent',
          header: t('campaigns.table.sent'),
          align: 'right',
          cell: (campaign) => count(campaign.sent),
        },
        {
          key: 'open',
          header: t('campaigns.table.openRate'),
          align: 'right',
          cell: (campaign) => formatPercent(campaign.open_rate, { empty: 'zero' }),
        },
        {
          key: 'click',
          header: t('campaigns.table.clickRate'),
          align: 'right',
          cell: (campaign) => formatPercent(campaign.click_rate, { empty: 'zero' }),
        },
        {
          key: 'last',
          header: t('campaigns.table.lastSent'),
          cell: (campaign) => when(campaign.last_sent_at),
        },
      ]}
      rowActions={(campaign, browsing) => (
        <RowActionButtons
          actions={[
            {
              key: 'open',
              label: t('campaigns.actions.open'),
              ariaLabel: t('campaigns.actions.openOf', { name: campaign.name }),
              variant: 'light',
              onClick: () => onOpen(campaign),
            },
            canWrite && {
              key: 'duplicate',
              label: t('campaigns.actions.duplicate'),
              ariaLabel: t('campaigns.actions.duplicateOf', { name: campaign.name }),
              variant: 'subtle',
              disabled: !browsing || copying,
              onClick: () =>
                duplicator.send({
                  type: 'campaign.duplicate',
                  campaign,
                  name: t('campaigns.copyName', { name: campaign.name }),
                }),
            },
            canWrite && {
              key: 'delete',
              label: t('kit.delete'),
              ariaLabel: t('campaigns.actions.deleteOf', { name: campaign.name }),
              variant: 'subtle',
              color: 'red',
              disabled: !browsing || campaign.status === 'sending',
              onClick: () => actor.send({ type: 'item.delete', item: campaign }),
            },
          ]}
        />
      )}
      createFirst={
        !filtered && canWrite ? { label: t('campaigns.actions.createFirst'), onClick: onCreate } : null
      }
      deleteDialog={{
        title: t('campaigns.dialog.deleteTitle'),
        message: (campaign) => t('campaigns.dialog.deleteConfirm', { name: campaign.name }),
        problemText: (problem) => problemMessage(t, 'campaigns', problem),
      }}
    />
  );
}
