import {
  Alert,
  Badge,
  Box,
  Code,
  Grid,
  Group,
  Loader,
  Paper,
  Select,
  Stack,
  Table,
  Text,
  Title,
  UnstyledButton,
} from '@mantine/core';
import { useSelector } from '@xstate/react';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import type { ActorRefFrom, AnyActorRef, AnyStateMachine, StateValue } from 'xstate';
import type { supportMachinesMachine } from '../../machines/support-machines.machine.js';
import { activeStateIds, type MachineChart, stateValueText } from '../../visualiser/graph.js';
import { type Box as ChartBox, fallbackBoxes } from '../../visualiser/layout.js';
import type { PathsResult } from '../../visualiser/paths.js';
import { MUTED_TEXT } from '../shell/contrast.js';
import { StatechartView } from './machines/StatechartView.js';

/** One row of the machine list. */
export interface MachineSummary {
  id: string;
  /** States, the root not counted. */
  states: number;
  /** Live actors of the machine in this tab. */
  live: number;
}

/** A live root actor the screen can follow: its event-log id and the actor. */
export interface FollowedActor {
  id: string;
  actor: AnyActorRef;
}

/** The chart's layout: still computing, or boxes (with the reason when ELK failed and a plain one is shown). */
export type ChartLayout =
  { status: 'loading' } | { status: 'ready'; boxes: ReadonlyMap<string, ChartBox>; error: string | null };

/** The screen's actor: the machine shown, the live actor followed and the chart's layout. */
export type SupportMachinesActor = ActorRefFrom<typeof supportMachinesMachine>;

const NO_VALUE: StateValue = {};

/** The chart's layout as the actor has it: ELK's boxes, a plain layout with the reason ELK failed, or loading. */
function useChartLayout(actor: SupportMachinesActor, chart: MachineChart): ChartLayout {
  const boxes = useSelector(actor, (state) => state.context.boxes);
  const error = useSelector(actor, (state) => state.context.layoutError);
  return useMemo((): ChartLayout => {
    if (boxes) return { status: 'ready', boxes: new Map(Object.entries(boxes)), error: null };
    if (error !== null) return { status: 'ready', boxes: fallbackBoxes(chart), error };
    return { status: 'loading' };
  }, [boxes, error, chart]);
}

/** The machine list: id, number of states and live actors; each id selects the machine. */
function MachineList({
  machines,
  selected,
  onSelect,
}: {
  machines: readonly MachineSummary[];
  selected: string;
  onSelect: (id: string) => void;
}) {
  const { t } = useTranslation();
  return (
    <Table.ScrollContainer minWidth={240}>
      <Table highlightOnHover horizontalSpacing="xs" aria-label={t('visualiser.list.label')}>
        <Table.Thead>
          <Table.Tr>
            <Table.Th>{t('visualiser.list.machine')}</Table.Th>
            <Table.Th ta="right">{t('visualiser.list.states')}</Table.Th>
            <Table.Th ta="right">{t('visualiser.list.live')}</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {machines.map((machine) => (
            <Table.Tr
              key={machine.id}
              data-machine-id={machine.id}
              bg={machine.id === selected ? 'var(--mantine-primary-color-light)' : undefined}
            >
              <Table.Td>
                <UnstyledButton
                  onClick={() => onSelect(machine.id)}
                  aria-pressed={machine.id === selected}
                  aria-label={t('visualiser.list.show', { id: machine.id })}
                  fw={machine.id === selected ? 700 : 500}
                  ff="monospace"
                  fz="sm"
                  style={{ textDecoration: 'underline', textUnderlineOffset: 3 }}
                >
                  {machine.id}
                </UnstyledButton>
              </Table.Td>
              <Table.Td ta="right">{machine.states}</Table.Td>
              <Table.Td ta="right">
                {machine.live > 0 ? <Badge color="teal.9">{machine.live}</Badge> : machine.live}
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}

/** The chosen live actor's state as text, and the chart with its active states highlighted. */
function LiveChart({
  machine,
  chart,
  layout,
  followed,
}: {
  machine: AnyStateMachine;
  chart: MachineChart;
  layout: ChartLayout;
  followed: FollowedActor | null;
}) {
  const { t } = useTranslation();
  const value = useSelector(
    followed?.actor,
    (snapshot) => (snapshot as { value?: StateValue } | undefined)?.value,
  );
  const active = useMemo(
    () => new Set(followed && value !== undefined ? activeStateIds(machine, value ?? NO_VALUE) : []),
    [machine, followed, value],
  );
  return (
    <Stack gap="xs">
      {followed && (
        <Text size="sm">
          {t('visualiser.live.state')}: <Code data-testid="live-actor-id">{followed.id}</Code>{' '}
          <Code data-testid="live-state" color="teal.1">
            {value === undefined ? '' : stateValueText(value)}
          </Code>
        </Text>
      )}
      <Box
        role="region"
        aria-label={t('visualiser.chart.label', { id: chart.machineId })}
        data-testid="statechart"
        // While laying out, the panel keeps a chart's room; then the chart sizes it.
        h={layout.status === 'loading' ? 200 : undefined}
        style={{
          border: '1px solid var(--mantine-color-default-border)',
          borderRadius: 8,
          overflow: 'hidden',
        }}
      >
        {layout.status === 'loading' ? (
          <Group h="100%" justify="center" role="status">
            <Loader size="sm" />
            <Text size="sm">{t('visualiser.chart.loading')}</Text>
          </Group>
        ) : (
          <StatechartView key={chart.machineId} chart={chart} boxes={layout.boxes} active={active} />
        )}
      </Box>
      {layout.status === 'ready' && layout.error && (
        <Alert color="yellow">{t('visualiser.chart.failed', { message: layout.error })}</Alert>
      )}
      <Text size="xs" c={MUTED_TEXT}>
        {t('visualiser.chart.legend')}
      </Text>
    </Stack>
  );
}

/** The reachable paths: each a sequence of events ending in a state, with their count. */
function PathList({ paths }: { paths: PathsResult }) {
  const { t } = useTranslation();
  return (
    <Stack gap="xs">
      <Group gap="sm">
        <Title order={3} size="h4">
          {t('visualiser.paths.title')}
        </Title>
        {paths.computed && (
          <Text size="sm" fw={600} data-testid="path-count">
            {t('visualiser.paths.count', { count: paths.paths.length })}
          </Text>
        )}
      </Group>
      {paths.computed ? (
        <Box component="ol" m={0} pl="lg" data-testid="paths">
          {paths.paths.map((path) => (
            <Text component="li" key={`${path.events.join(' ')}→${path.state}`} size="sm" ff="monospace">
              {path.events.length > 0 ? path.events.join(' → ') : t('visualiser.paths.start')}{' '}
              <Text span c={MUTED_TEXT} ff="inherit">
                {t('visualiser.paths.reaches')}
              </Text>{' '}
              <Text span fw={700} ff="inherit">
                {path.state}
              </Text>
            </Text>
          ))}
        </Box>
      ) : (
        <Alert color="gray" data-testid="paths-not-computed">
          {t('visualiser.paths.notComputed', { reason: paths.reason })}
        </Alert>
      )}
    </Stack>
  );
}

/**
 * /support/machines: the machines of the app (id, states, live actors), the selected one's statechart
 * with the chosen live actor's states highlighted and its state as text, and its reachable paths. The
 * selection, the followed actor and the layout are the actor's; the view sends what the user picks.
 */
export function MachinesView({
  actor,
  machines,
  machine,
  chart,
  paths,
  liveActors,
}: {
  actor: SupportMachinesActor;
  machines: readonly MachineSummary[];
  /** The machine the actor shows. */
  machine: AnyStateMachine;
  chart: MachineChart;
  paths: PathsResult;
  /** The live actors of the shown machine. */
  liveActors: readonly FollowedActor[];
}) {
  const { t } = useTranslation();
  const selected = useSelector(actor, (state) => state.context.machineId);
  const followedId = useSelector(actor, (state) => state.context.followedId);
  const layout = useChartLayout(actor, chart);
  // The chosen actor while it lives, else the newest one of the machine.
  const followed = liveActors.find((live) => live.id === followedId) ?? liveActors.at(-1) ?? null;
  const onSelect = (machineId: string) => actor.send({ type: 'machine.select', machineId });
  return (
    <Stack gap="md">
      <Title order={1}>{t('visualiser.titles.machines')}</Title>
      <Text c={MUTED_TEXT}>{t('visualiser.intro')}</Text>
      <Grid gap="md">
        <Grid.Col span={{ base: 12, md: 4 }}>
          <Paper withBorder p="xs" radius="md">
            <Title order={2} size="h4" px="xs" pb="xs">
              {t('visualiser.list.label')}
            </Title>
            <MachineList machines={machines} selected={selected} onSelect={onSelect} />
          </Paper>
        </Grid.Col>
        <Grid.Col span={{ base: 12, md: 8 }}>
          <Stack gap="md">
            <Title order={2} size="h3">
              {t('visualiser.chart.title', { id: chart.machineId })}
            </Title>
            {liveActors.length > 0 ? (
              <Select
                label={t('visualiser.live.actor')}
                data={liveActors.map((live) => live.id)}
                value={followed?.id ?? null}
                onChange={(id) => id && actor.send({ type: 'actor.follow', actorId: id })}
                allowDeselect={false}
                maw={320}
              />
            ) : (
              <Text size="sm" c={MUTED_TEXT}>
                {t('visualiser.live.none')}
              </Text>
            )}
            <LiveChart machine={machine} chart={chart} layout={layout} followed={followed} />
            <PathList paths={paths} />
          </Stack>
        </Grid.Col>
      </Grid>
    </Stack>
  );
}
