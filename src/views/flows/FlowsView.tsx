import { Alert, Box, Button, Group, Select, Stack, Text, TextInput, Title } from '@mantine/core';
import { useSelector } from '@xstate/react';
import { useTranslation } from 'react-i18next';
import type { ActorRefFrom } from 'xstate';
import { formatCount, formatCurrency, languageOf } from '../../format/index.js';
import type { flowActionsMachine } from '../../machines/flow-actions.machine.js';
import type { FlowFilters, FlowForm } from '../../machines/flows.machine.js';
import { FLOW_STATUSES, FlowCreateSchema, type FlowStatus, type FlowSummary } from '../../schemas/flows.js';
import { LIMITS } from '../../schemas/constants.js';
import { ConfirmDeleteDialog } from '../kit/ConfirmDeleteDialog.js';
import { FormDialog } from '../kit/FormDialog.js';
import type { ListActor } from '../kit/list-actor.js';
import { ListFrame } from '../kit/ListFrame.js';
import { ListTable } from '../kit/ListTable.js';
import { textFieldProps } from '../kit/field-props.js';
import { useRequiredFields } from '../kit/required-fields.js';
import { useListDialog, useListView } from '../kit/useListView.js';
import { fieldMessage } from '../shared/field-message.js';
import { problemMessage } from '../shared/problem-message.js';
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
  const { notice, listProblem, total, items } = useListView(actor);
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
  return (
    <Stack gap="lg">
      <Title order={2}>{t('flows.page.title')}</Title>
      {actionProblem && (
        <Alert
          color="red"
          withCloseButton
          closeButtonLabel={t('kit.close')}
          onClose={() => actions.send({ type: 'problem.dismiss' })}
        >
          {t('flows.actionFailed')} {problemMessage(t, 'flows', actionProblem)}
        </Alert>
      )}
      <ListFrame
        actor={actor}
        toolbar={
          <Group gap="sm" align="flex-end" wrap="wrap">
            <Select
              label={t('flows.filter.status')}
              data={[
                { value: 'all', label: t('flows.filter.all') },
                ...FLOW_STATUSES.map((value) => ({ value, label: t(`flows.status.${value}`) })),
              ]}
              value={status ?? 'all'}
              allowDeselect={false}
              onChange={(value) =>
                actor.send({
                  type: 'filters.change',
                  filters: { status: value === 'all' || value === null ? null : value },
                })
              }
              w={180}
            />
            {canWrite && <Button onClick={create}>{t('flows.actions.create')}</Button>}
          </Group>
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
      >
        {(flows, browsing) => (
          <ListTable
            items={flows}
            rowKey={(flow) => flow.id}
            label={t('flows.page.title')}
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
                cell: (flow) =>
                  flow.revenue_cents === null ? '—' : formatCurrency(flow.revenue_cents / 100),
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
            actions={(flow) => (
              <Group gap="xs" wrap="nowrap">
                <Button
                  size="xs"
                  variant="light"
                  onClick={() => onOpen(flow)}
                  aria-label={t('flows.actions.openOf', { name: flow.name })}
                >
                  {t('flows.actions.open')}
                </Button>
                {canWrite && (
                  <>
                    {(flow.status === 'live' || flow.status === 'paused') && (
                      <Button
                        size="xs"
                        variant="subtle"
                        disabled={!browsing || acting}
                        onClick={() =>
                          actions.send({
                            type: 'flow.act',
                            action: flow.status === 'live' ? 'pause' : 'resume',
                            flow,
                          })
                        }
                        aria-label={t(
                          flow.status === 'live' ? 'flows.actions.pauseOf' : 'flows.actions.resumeOf',
                          {
                            name: flow.name,
                          },
                        )}
                      >
                        {t(flow.status === 'live' ? 'flows.actions.pause' : 'flows.actions.resume')}
                      </Button>
                    )}
                    <Button
                      size="xs"
                      variant="subtle"
                      disabled={!browsing || acting}
                      onClick={() =>
                        actions.send({
                          type: 'flow.act',
                          action: 'duplicate',
                          flow,
                          name: t('flows.copyName', { name: flow.name }),
                        })
                      }
                      aria-label={t('flows.actions.duplicateOf', { name: flow.name })}
                    >
                      {t('flows.actions.duplicate')}
                    </Button>
                    <Button
                      size="xs"
                      variant="subtle"
                      color="red"
                      disabled={!browsing}
                      onClick={() => actor.send({ type: 'item.delete', item: flow })}
                      aria-label={t('flows.actions.deleteOf', { name: flow.name })}
                    >
                      {t('kit.delete')}
                    </Button>
                  </>
                )}
              </Group>
            )}
          />
        )}
      </ListFrame>
      {items && items.length === 0 && !filtered && canWrite && (
        <Group justify="center">
          <Button variant="light" onClick={create}>
            {t('flows.actions.createFirst')}
          </Button>
        </Group>
      )}
      <NameDialog actor={actor} />
      <ConfirmDeleteDialog
        actor={actor}
        title={t('flows.dialog.deleteTitle')}
        message={(flow) => t('flows.dialog.deleteConfirm', { name: flow.name })}
        problemText={(problem) => problemMessage(t, 'flows', problem)}
      />
    </Stack>
  );
}

/** "New flow": its name; the builder opens once it is made. */
function NameDialog({ actor }: { actor: FlowsActor }) {
  const { t } = useTranslation();
  const { busy, form, fieldErrors } = useListDialog(actor);
  const label = t('flows.dialog.name');
  const required = useRequiredFields(actor, { creating: FlowCreateSchema });
  return (
    <FormDialog
      actor={actor}
      title={{ creating: t('flows.dialog.createTitle'), editing: t('flows.dialog.createTitle') }}
      submit={{ creating: t('flows.dialog.create'), editing: t('flows.dialog.create') }}
      problemText={(problem) => problemMessage(t, 'flows', problem)}
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
