import { Alert, Button, Container, Group, Loader, Stack, Text, Title } from '@mantine/core';
import { useSelector } from '@xstate/react';
import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';
import type { ActorRefFrom } from 'xstate';
import type {
  ReplayProblem,
  ReplaySource,
  supportReplayMachine,
} from '../../machines/support-replay.machine.js';
import { ReplaySources } from './ReplaySources.js';
import { ReplayStepper } from './ReplayStepper.js';

type ReplayActor = ActorRefFrom<typeof supportReplayMachine>;

/** The source's name as shown above the replay. */
function sourceName(t: TFunction, source: ReplaySource | null): string {
  if (!source) return '';
  if (source.kind === 'file') return t('replay.sourceFile', { name: source.name });
  if (source.kind === 'page') return t('replay.sourcePage');
  return t('replay.sourceCaptured', { id: source.id, company: source.company });
}

/** Why loading failed: the line that could not be read, or the call's message. */
function problemText(t: TFunction, problem: ReplayProblem | null): string {
  if (!problem) return t('replay.unexpected');
  if (problem.kind === 'parse')
    return t('replay.parseError', { line: problem.line, message: problem.message });
  return problem.message || t('replay.unexpected');
}

/**
 * The /support/replay page (platform staff): choose a log (a file, this page's log or a captured one), then
 * step and scrub through its replay, with each step's state and context changes.
 */
export function ReplayView({ actor }: { actor: ReplayActor }) {
  const { t } = useTranslation();
  const choosing = useSelector(actor, (state) => state.matches('choosing'));
  const loading = useSelector(actor, (state) => state.matches('loading'));
  const viewing = useSelector(actor, (state) => state.matches('viewing'));
  const empty = useSelector(actor, (state) => state.matches('empty'));
  const failed = useSelector(actor, (state) => state.matches('failed'));
  const source = useSelector(actor, (state) => state.context.source);
  const timeline = useSelector(actor, (state) => state.context.timeline);
  const problem = useSelector(actor, (state) => state.context.problem);
  const choose = () => actor.send({ type: 'source.choose' });

  return (
    <Container size="xl" py="md" px={{ base: 'xs', sm: 'md' }}>
      <Stack gap="md">
        <Title order={1}>{t('replay.title')}</Title>
        <Text c="dimmed">{t('replay.intro')}</Text>
        {!choosing && (
          <Group justify="space-between" gap="sm">
            <Text fw={600} style={{ wordBreak: 'break-all' }}>
              {sourceName(t, source)}
            </Text>
            <Button variant="light" size="xs" onClick={choose}>
              {t('replay.chooseAnother')}
            </Button>
          </Group>
        )}
        {choosing && <ReplaySources actor={actor} />}
        {loading && (
          <Group gap="xs" role="status">
            <Loader size="sm" />
            <Text>{t('replay.loading')}</Text>
          </Group>
        )}
        {failed && (
          <Alert color="red" title={t('replay.failed')} role="alert">
            {problemText(t, problem)}
          </Alert>
        )}
        {empty && <Text c="dimmed">{t('replay.empty')}</Text>}
        {viewing && timeline && <ReplayStepper actor={actor} timeline={timeline} />}
      </Stack>
    </Container>
  );
}
