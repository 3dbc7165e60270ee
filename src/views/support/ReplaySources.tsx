import { Alert, Button, FileInput, Group, Loader, Paper, Stack, Table, Text, Title } from '@mantine/core';
import { useSelector } from '@xstate/react';
import { useTranslation } from 'react-i18next';
import type { ActorRefFrom } from 'xstate';
import type { supportReplayMachine } from '../../machines/support-replay.machine.js';
import { formatMoment } from '../account/messages.js';
import { LogSender } from './LogSender.js';

type ReplayActor = ActorRefFrom<typeof supportReplayMachine>;

/** Where a log comes from: a local .jsonl file, the page's own log, or a log captured on the server. */
export function ReplaySources({ actor }: { actor: ReplayActor }) {
  const { t, i18n } = useTranslation();
  const listing = useSelector(actor, (state) => state.matches({ choosing: 'listing' }));
  const listFailed = useSelector(actor, (state) => state.matches({ choosing: 'listFailed' }));
  const logs = useSelector(actor, (state) => state.context.logs);
  const listProblem = useSelector(actor, (state) => state.context.listProblem);
  const busy = useSelector(actor, (state) => state.hasTag('busy') && state.matches('loading'));

  return (
    <Stack gap="md">
      <Title order={2} size="h3">
        {t('replay.sources')}
      </Title>
      <Paper withBorder p="md">
        <Stack gap="sm">
          <FileInput
            label={t('replay.file')}
            description={t('replay.fileHint')}
            accept=".jsonl,.ndjson,application/x-ndjson,text/plain"
            clearable={false}
            disabled={busy}
            maw={420}
            onChange={(file) => {
              if (file) actor.send({ type: 'source.load', source: { kind: 'file', name: file.name, file } });
            }}
          />
          <div>
            <Button
              variant="light"
              disabled={busy}
              onClick={() => actor.send({ type: 'source.load', source: { kind: 'page' } })}
            >
              {t('replay.pageLog')}
            </Button>
            <Text size="xs" c="dimmed" mt={4}>
              {t('replay.pageLogHint')}
            </Text>
          </div>
        </Stack>
      </Paper>
      <Stack gap="xs">
        <Title order={3} size="h4">
          {t('replay.captured')}
        </Title>
        {listing && (
          <Group gap="xs">
            <Loader size="sm" />
            <Text size="sm" c="dimmed">
              {t('replay.loading')}
            </Text>
          </Group>
        )}
        {listFailed && (
          <Alert color="red">
            <Stack gap="sm" align="flex-start">
              <Text size="sm">
                {t('replay.listFailed', { message: listProblem?.message ?? t('replay.unexpected') })}
              </Text>
              <Button variant="light" onClick={() => actor.send({ type: 'logs.retry' })}>
                {t('replay.retry')}
              </Button>
            </Stack>
          </Alert>
        )}
        {logs && logs.length === 0 && (
          <Text c="dimmed" py="md">
            {t('replay.noCaptured')}
          </Text>
        )}
        {logs && logs.length > 0 && (
          <Table.ScrollContainer minWidth={560}>
            <Table striped highlightOnHover aria-label={t('replay.captured')}>
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>{t('replay.company')}</Table.Th>
                  <Table.Th>{t('replay.user')}</Table.Th>
                  <Table.Th>{t('replay.date')}</Table.Th>
                  <Table.Th ta="right">{t('replay.entries')}</Table.Th>
                  <Table.Th />
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {logs.map((log) => {
                  return (
                    <Table.Tr key={log.id}>
                      <Table.Td>{log.company_name}</Table.Td>
                      <Table.Td>
                        <LogSender log={log} />
                      </Table.Td>
                      <Table.Td>{formatMoment(log.created_at, i18n.language)}</Table.Td>
                      <Table.Td ta="right">{log.entry_count}</Table.Td>
                      <Table.Td>
                        <Button
                          size="xs"
                          variant="light"
                          disabled={busy}
                          aria-label={`${t('replay.load')}: ${t('replay.sourceCaptured', { id: log.id, company: log.company_name })}`}
                          onClick={() =>
                            actor.send({
                              type: 'source.load',
                              source: { kind: 'captured', id: log.id, company: log.company_name },
                            })
                          }
                        >
                          {t('replay.load')}
                        </Button>
                      </Table.Td>
                    </Table.Tr>
                  );
                })}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
        )}
      </Stack>
    </Stack>
  );
}
