import {
  Alert,
  Badge,
  Button,
  Code,
  Group,
  List,
  NativeSelect,
  Paper,
  ScrollArea,
  SimpleGrid,
  Slider,
  Stack,
  Table,
  Text,
  Title,
  UnstyledButton,
} from '@mantine/core';
import { useSelector } from '@xstate/react';
import { useEffect, useMemo, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import type { ActorRefFrom } from 'xstate';
import type { supportReplayMachine } from '../../machines/support-replay.machine.js';
import { stateText } from '../../replay/replay.js';
import {
  compactJson,
  type ContextChange,
  type ReplayTimeline,
  stepChanges,
  type TimelineStep,
  visibleIndices,
} from '../../replay/steps.js';

type ReplayActor = ActorRefFrom<typeof supportReplayMachine>;

const KIND_COLORS: Record<ContextChange['kind'], string> = {
  added: 'green',
  removed: 'red',
  changed: 'blue',
};

/** A replayed log: the actor filter, step buttons and scrubber, the step list and the selected step's detail. */
export function ReplayStepper({ actor, timeline }: { actor: ReplayActor; timeline: ReplayTimeline }) {
  const { t } = useTranslation();
  const index = useSelector(actor, (state) => state.context.index);
  const filter = useSelector(actor, (state) => state.context.actor);
  const shown = useMemo(() => visibleIndices(timeline, filter), [timeline, filter]);
  const position = shown.indexOf(index);
  const step = position === -1 ? undefined : timeline.steps[index];

  return (
    <Stack gap="md">
      {timeline.broken.length > 0 && (
        <Alert color="yellow" title={t('replay.broken')}>
          <List size="sm" spacing={2}>
            {timeline.broken.map((broken) => (
              <List.Item key={broken.actor}>
                <Code>{broken.actor}</Code> ({broken.machine}): {broken.reason}
              </List.Item>
            ))}
          </List>
        </Alert>
      )}
      <Group gap="sm" align="flex-end" wrap="wrap">
        <NativeSelect
          label={t('replay.filter')}
          value={filter ?? ''}
          onChange={(event) => actor.send({ type: 'filter.actor', actor: event.currentTarget.value || null })}
          data={[
            { value: '', label: t('replay.allActors') },
            ...timeline.actors.map((name) => ({ value: name, label: name })),
          ]}
          maw={320}
        />
        <Group gap={4} wrap="wrap">
          <Button size="xs" variant="default" onClick={() => actor.send({ type: 'step.first' })}>
            {t('replay.first')}
          </Button>
          <Button size="xs" variant="default" onClick={() => actor.send({ type: 'step.previous' })}>
            {t('replay.previous')}
          </Button>
          <Button size="xs" variant="default" onClick={() => actor.send({ type: 'step.next' })}>
            {t('replay.next')}
          </Button>
          <Button size="xs" variant="default" onClick={() => actor.send({ type: 'step.last' })}>
            {t('replay.last')}
          </Button>
        </Group>
      </Group>
      {shown.length === 0 ? (
        <Text c="dimmed">{t('replay.noStepsForActor')}</Text>
      ) : (
        <>
          <Stack gap={4}>
            <Text size="sm" aria-live="polite">
              {t('replay.position', { current: position + 1, total: shown.length })}
            </Text>
            {shown.length > 1 && (
              <Slider
                min={0}
                max={shown.length - 1}
                step={1}
                value={Math.max(0, position)}
                onChange={(value) => actor.send({ type: 'step.select', index: shown[value] ?? index })}
                label={(value) => `#${timeline.steps[shown[value] ?? 0]?.seq ?? ''}`}
                thumbLabel={t('replay.scrubber')}
                mb="sm"
              />
            )}
          </Stack>
          <SimpleGrid cols={{ base: 1, md: 2 }} spacing="md">
            <StepList actor={actor} timeline={timeline} shown={shown} index={index} />
            {step && <StepDetail timeline={timeline} step={step} />}
          </SimpleGrid>
        </>
      )}
    </Stack>
  );
}

/** The shown steps, the selected one marked and kept in view; choosing one selects it. */
function StepList({
  actor,
  timeline,
  shown,
  index,
}: {
  actor: ReplayActor;
  timeline: ReplayTimeline;
  shown: number[];
  index: number;
}) {
  const { t } = useTranslation();
  const selected = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    // A block body: Chromium's scrollIntoView answers a promise, which React would take for a clean-up.
    void selected.current?.scrollIntoView({ block: 'nearest' });
  }, [index]);
  return (
    <Paper withBorder>
      <Title order={3} size="h5" px="sm" pt="xs">
        {t('replay.steps')}
      </Title>
      <ScrollArea h={360} type="auto">
        <Stack gap={0} p={4} role="list" aria-label={t('replay.steps')}>
          {shown.map((at) => {
            const item = timeline.steps[at]!;
            const current = at === index;
            return (
              <UnstyledButton
                key={at}
                role="listitem"
                ref={current ? selected : undefined}
                aria-current={current ? 'step' : undefined}
                onClick={() => actor.send({ type: 'step.select', index: at })}
                px="xs"
                py={4}
                style={{
                  borderRadius: 4,
                  background: current ? 'var(--mantine-primary-color-light)' : undefined,
                }}
              >
                <Text size="xs" ff="monospace" style={{ wordBreak: 'break-all' }}>
                  #{item.seq} · {item.actor} · {item.machine}
                </Text>
                <Text size="sm" fw={current ? 600 : 400} style={{ wordBreak: 'break-all' }}>
                  {item.event}
                </Text>
              </UnstyledButton>
            );
          })}
        </Stack>
      </ScrollArea>
    </Paper>
  );
}

/** The selected step: its event, its actor's state after it, and the context changes against the actor's previous step. */
function StepDetail({ timeline, step }: { timeline: ReplayTimeline; step: TimelineStep }) {
  const { t } = useTranslation();
  const changes = useMemo(() => stepChanges(timeline, step.index), [timeline, step.index]);
  return (
    <Paper withBorder p="sm">
      <Stack gap="sm">
        <div>
          <Text size="xs" c="dimmed">
            {t('replay.seq')}
            {step.seq} · {new Date(step.at).toISOString()}
          </Text>
          <Text fw={600} style={{ wordBreak: 'break-all' }}>
            {step.event}
          </Text>
          <Text size="sm" style={{ wordBreak: 'break-all' }}>
            {t('replay.actor')}: <Code>{step.actor}</Code> · {t('replay.machine')}:{' '}
            <Code>{step.machine}</Code>
          </Text>
        </div>
        <div>
          <Text size="sm" fw={600}>
            {t('replay.state')}
          </Text>
          <Code block style={{ whiteSpace: 'pre-wrap', wordBreak: 'break-all' }}>
            {stateText(step.value)}
          </Code>
          {step.status !== 'active' && (
            <Badge mt={4} color="gray" variant="light">
              {t('replay.status', { status: step.status })}
            </Badge>
          )}
          {step.skipped && (
            <Text size="sm" c="dimmed" mt={4}>
              {t('replay.skipped', { reason: step.skipped })}
            </Text>
          )}
        </div>
        {step.context !== null && (
          <div>
            <Text size="sm" fw={600}>
              {t('replay.diff')}
            </Text>
            {step.previous === null && (
              <Text size="xs" c="dimmed">
                {t('replay.firstStep')}
              </Text>
            )}
            {changes.length === 0 ? (
              <Text size="sm" c="dimmed">
                {t('replay.noChanges')}
              </Text>
            ) : (
              <Table.ScrollContainer minWidth={320}>
                <Table fz="xs" verticalSpacing={4} aria-label={t('replay.diff')}>
                  <Table.Tbody>
                    {changes.map((change) => (
                      <Table.Tr key={change.path}>
                        <Table.Td style={{ verticalAlign: 'top' }}>
                          <Badge size="xs" variant="light" color={KIND_COLORS[change.kind]}>
                            {t(`replay.${change.kind}`)}
                          </Badge>
                        </Table.Td>
                        <Table.Td style={{ verticalAlign: 'top' }}>
                          <Code>{change.path}</Code>
                        </Table.Td>
                        <Table.Td ff="monospace" style={{ wordBreak: 'break-all' }}>
                          {change.kind === 'added'
                            ? compactJson(change.after)
                            : change.kind === 'removed'
                              ? compactJson(change.before)
                              : `${compactJson(change.before)} → ${compactJson(change.after)}`}
                        </Table.Td>
                      </Table.Tr>
                    ))}
                  </Table.Tbody>
                </Table>
              </Table.ScrollContainer>
            )}
          </div>
        )}
      </Stack>
    </Paper>
  );
}
