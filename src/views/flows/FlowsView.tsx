import { Stack, Text } from '@mantine/core';
import { useSelector } from '@xstate/react';
import { useTranslation } from 'react-i18next';
import type { ActorRefFrom } from 'xstate';
import { formatCount, formatCurrency, languageOf } from '../../format/index.js';
import type { flowActionsMachine } from '../../machines/flow-actions.machine.js';
import type { FlowFilters, FlowForm } from '../../machines/flows.machine.js';
import { FLOW_STATUSES, FlowCreateSchema, type FlowStatus, type FlowSummary } from '../../schemas/flows.js';
import type { ListActor } from '../kit/list-actor.js';
import { useListView } from '../kit/useListView.js';
import { ListScreenTable } from '../shared/ListScreenTable.js';
import { NameDialog } from '../shared/NameDialog.js';
import { problemMessage } from '../shared/problem-message.js';
import { RowActionButtons } from '../shared/RowActionButtons.js';
import { StatusFilterToolbar } from '../shared/StatusFilterToolbar.js';
import { FlowStatusBadge } from './FlowStatusBadge.js';

/** The flow list actor, as the view sees it (it also takes the status filter). */
export type FlowsActor = ListActor<FlowSummary, FlowForm> & {
  send(command: { type: 'filters.change'; filters: Partial<FlowFilters> }): void;
};

/** The duplicate, pause and resume machine's running actor. */
export type FlowActionsActor = ActorRefFrom<typeof flowActionsMachine>;

/** The notice of the last row action: what was done, to which flow. */
export interface FlowActedNotice {
  action: 'duplicate' | 'pause' | 'resume';
  name: string;
}

/**
 * /flows: every flow with its state, trigger, locations, guests in it, emails sent, revenue (— until
 * attribution), version and unpublished changes; searched by name and filtered by status; "New flow" (a
 * name, then the builder), open, duplicate, pause or resume, and a confirmed delete. The empty state says why.
 */
export function FlowsView({
  actor,
  actions,
  status,
  canWrite,
  acted,
  onOpen,
}: {
  actor: FlowsActor;
  actions: FlowActionsActor;
  /** The status filter shown (null: every flow). */
  status: FlowStatus | null;
  /** Marketers and above create, change and delete flows. */
  canWrite: boolean;
  acted: FlowActedNotice | null;
  onOpen: (flow: FlowSummary) => void;
}) {
  const { t, i18n } = useTranslation();
  const language = languageOf(i18n.language);
  const { notice, listProblem, total } = useListView(actor);
  const acting = useSelector(actions, (state) => state.matches('acting'));
  const actionProblem = useSelector(actions, (state) => state.context.problem);
  const count = (value: number) => formatCount(value, language);
  const noticeText = acted
    ? t(`flows.notices.${acted.action}`, { name: acted.name })
    : notice === 'deleted'
      ? t('flows.notices.deleted')
      : null;
  const filtered = status !== null;
  const create = () => actor.send({ type: 'item.add' });
  const scope = (flow: FlowSummary) =>
    flow.location_ids.length + flow.location_group_ids.length === 0
      ? t('flows.allLocations')
      : t('flows.scoped', {
          locations: count(flow.location_ids.length),
          groups: count(flow.location_group_ids.length),
        });
  const busy = (browsing: boolean) => !browsing || acting;
  return (
    <ListScreenTable
      actor={actor}
      title={t('flows.page.title')}
      actionProblem={
        actionProblem && {
          text: (
            <>
              {t('flows.actionFailed')} {problemMessage(t, 'flows', actionProblem)}
            </>
          ),
          onDismiss: () => actions.send({ type: 'problem.dismiss' }),
        }
      }
      toolbar={
        <StatusFilterToolbar
          label={t('flows.filter.status')}
          allLabel={t('flows.filter.all')}
          statuses={FLOW_STATUSES}
          statusLabel={(value) => t(`flows.status.${value}`)}
          value={status}
          onChange={(value) => actor.send({ type: 'filters.change', filters: { status: value } })}
          create={canWrite ? { label: t('flows.actions.create'), onClick: create } : null}
        />
      }
      texts={{
        intro: t('flows.page.intro'),
        search: t('flows.search'),
        empty: filtered
          ? t('flows.emptyFiltered')
          : `${t('flows.empty')} ${canWrite ? t('flows.emptyHint') : t('flows.emptyReader')}`,
        noMatch: t('flows.noMatch'),
        loadFailed: t('flows.loadFailed'),
        problem: problemMessage(t, 'flows', listProblem),
        notice: noticeText,
        summary: t('flows.total', { total: count(total) }),
      }}
      rowKey={(flow) => flow.id}
      minWidth={1000}
      columns={[
        {
          key: 'name',
          header: t('flows.table.name'),
          primary: true,
          cell: (flow) => (
            <Stack gap={2}>
              <Text size="sm" fw={500}>
                {flow.name}
              </Text>
              {flow.has_unpublished_changes && flow.status !== 'draft' && (
                <Text size="xs" fw={600}>
                  {t('flows.unpublished')}
                </Text>
              )}
            </Stack>
          ),
        },
        {
          key: 'status',
          header: t('flows.table.status'),
          cell: (flow) => <FlowStatusBadge status={flow.status} />,
        },
        {
          key: 'trigger',
          header: t('flows.table.trigger'),
          cell: (flow) =>
            flow.trigger_type
              ? t(`flows.types.${flow.trigger_type}`, { defaultValue: flow.trigger_type })
              : t('flows.noTrigger'),
        },
        { key: 'locations', header: t('flows.table.locations'), cell: scope },
        {
          key: 'inFlow',
          header: t('flows.table.inFlow'),
          align: 'right',
          cell: (flow) => count(flow.in_flow),
        },
        {
          key: 'emailsSent',
          header: t('flows.table.emailsSent'),
          align: 'right',
          cell: (flow) => count(flow.emails_sent),
        },
        {
          key: 'revenue',
          header: t('flows.table.revenue'),
          align: 'right',
          cell: (flow) => (flow.revenue_cents === null ? '—' : formatCurrency(flow.revenue_cents / 100)),
        },
        {
          key: 'version',
          header: t('flows.table.version'),
          cell: (flow) =>
            flow.version === null
              ? t('flows.notPublished')
              : t('flows.versionNumber', { version: flow.version }),
        },
      ]}
      rowActions={(flow, browsing) => {
        const toggle = flow.status === 'live' ? 'pause' : 'resume';
        // Pause and Resume share one place, as wide as the wider; a draft keeps it empty so Duplicate and
        // Delete line up on every row.
        const toggleLabels = [t('flows.actions.pause'), t('flows.actions.resume')];
        return (
          <RowActionButtons
            actions={[
              {
                key: 'open',
                label: t('flows.actions.open'),
                ariaLabel: t('flows.actions.openOf', { name: flow.name }),
                variant: 'light',
                onClick: () => onOpen(flow),
              },
              canWrite &&
                (flow.status === 'live' || flow.status === 'paused'
                  ? {
                      key: 'toggle',
                      label: t(`flows.actions.${toggle}`),
                      ariaLabel: t(`flows.actions.${toggle}Of`, { name: flow.name }),
                      variant: 'subtle',
                      slotLabels: toggleLabels,
                      disabled: busy(browsing),
                      onClick: () => actions.send({ type: 'flow.act', action: toggle, flow }),
                    }
                  : { key: 'toggle', empty: true, slotLabels: toggleLabels, variant: 'subtle' }),
              canWrite && {
                key: 'duplicate',
                label: t('flows.actions.duplicate'),
                ariaLabel: t('flows.actions.duplicateOf', { name: flow.name }),
                variant: 'subtle',
                disabled: busy(browsing),
                onClick: () =>
                  actions.send({
                    type: 'flow.act',
                    action: 'duplicate',
                    flow,
                    name: t('flows.copyName', { name: flow.name }),
                  }),
              },
              canWrite && {
                key: 'delete',
                label: t('kit.delete'),
                ariaLabel: t('flows.actions.deleteOf', { name: flow.name }),
                variant: 'subtle',
                color: 'red',
                disabled: !browsing,
                onClick: () => actor.send({ type: 'item.delete', item: flow }),
              },
            ]}
          />
        );
      }}
      createFirst={!filtered && canWrite ? { label: t('flows.actions.createFirst'), onClick: create } : null}
      deleteDialog={{
        title: t('flows.dialog.deleteTitle'),
        message: (flow) => t('flows.dialog.deleteConfirm', { name: flow.name }),
        problemText: (problem) => problemMessage(t, 'flows', problem),
      }}
    >
      <NameDialog
        actor={actor}
        label={t('flows.dialog.name')}
        title={{ creating: t('flows.dialog.createTitle'), editing: t('flows.dialog.createTitle') }}
        submit={{ creating: t('flows.dialog.create'), editing: t('flows.dialog.create') }}
        schemas={{ creating: FlowCreateSchema }}
        problemText={(problem) => problemMessage(t, 'flows', problem)}
      />
    </ListScreenTable>
  );
}
