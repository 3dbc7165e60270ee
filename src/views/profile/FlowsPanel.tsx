import { Badge, Group, Paper, Stack, Text, Timeline, Title } from '@mantine/core';
import { useSelector } from '@xstate/react';
import { useTranslation } from 'react-i18next';
import type { TFunction } from 'i18next';
import { formatDateTime, languageOf } from '../../format/index.js';
import type { FlowPath } from '../../machines/customer-profile.machine.js';
import type { ProfileActor } from './types.js';

const STATUS_COLOR = { active: 'blue', completed: 'green', exited: 'gray' } as const;

/** A step's name: its type as the builder's palette calls it (the profile's own copy: the flows part loads with /flows). */
function stepName(t: TFunction, type: string): string {
  return t(`profile.flows.steps.${type}`, { defaultValue: type });
}

/** What happened at a step, in words; an outcome this screen does not know shows as the engine wrote it. */
function outcomeName(t: TFunction, outcome: string): string {
  return t(`profile.flows.outcomes.${outcome}`, { defaultValue: outcome });
}

/** One enrolment: the flow, its version and entry, each step with its time and outcome, then where they are now. */
function FlowPathCard({ path, timeZone }: { path: FlowPath; timeZone?: string }) {
  const { t, i18n } = useTranslation();
  const language = languageOf(i18n.language);
  const when = (value: string) => formatDateTime(value, language, timeZone);
  const waiting = path.status === 'active' ? path.steps.findLast((step) => step.done_at === null) : undefined;
  return (
    <Stack gap="xs" data-testid="flow-path">
      <Group justify="space-between" gap="xs" wrap="wrap">
        <Text fw={600}>
          {path.flow_name}{' '}
          <Text span c="dimmed" size="sm">
            {t('profile.flows.version', { version: path.version })}
          </Text>
        </Text>
        <Badge variant="light" color={STATUS_COLOR[path.status]}>
          {t(`profile.flows.status.${path.status}`)}
        </Badge>
      </Group>
      <Timeline bulletSize={12} lineWidth={2} active={path.steps.length - 1}>
        {path.steps.map((step, index) => (
          <Timeline.Item key={`${step.key}-${index}`} title={stepName(t, step.type)}>
            <Text size="xs" c="dimmed">
              {step.done_at === null
                ? t('profile.flows.since', { date: when(step.entered_at) })
                : when(step.done_at)}
              {step.outcome !== null && ` · ${outcomeName(t, step.outcome)}`}
            </Text>
          </Timeline.Item>
        ))}
      </Timeline>
      <Text size="sm">
        {path.status === 'active'
          ? waiting
            ? t('profile.flows.now', { step: stepName(t, waiting.type) })
            : t('profile.flows.due')
          : t('profile.flows.left', {
              reason: t(`profile.flows.reasons.${path.exit_reason ?? 'completed'}`),
              date: when(path.left_at ?? path.entered_at),
            })}
      </Text>
    </Stack>
  );
}

/**
 * The person's way through each flow (docs/flows.md, "Figures"), newest first: nothing when the profile has no
 * subscriber to follow or the flows are not the user's to read; an empty state when they were never in a flow.
 */
export function FlowsPanel({ actor, timeZone }: { actor: ProfileActor; timeZone?: string }) {
  const { t } = useTranslation();
  const flows = useSelector(actor, (state) => state.context.flows);
  if (flows === null) return null;
  return (
    <Paper withBorder radius="md" p="lg" aria-labelledby="profile-flows-title">
      <Stack gap="md">
        <Title order={3} size="h4" id="profile-flows-title">
          {t('profile.flows.title')}
        </Title>
        {flows.length === 0 ? (
          <Text c="dimmed" size="sm">
            {t('profile.flows.empty')}
          </Text>
        ) : (
          flows.map((path) => (
            <FlowPathCard key={`${path.flow_id}-${path.entered_at}`} path={path} timeZone={timeZone} />
          ))
        )}
      </Stack>
    </Paper>
  );
}
