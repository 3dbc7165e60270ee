import {
  Alert,
  Box,
  Button,
  Container,
  Group,
  LoadingOverlay,
  Modal,
  Stack,
  Table,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { useSelector } from '@xstate/react';
import { useTranslation } from 'react-i18next';
import { problemMessage } from '../shared/problem-message.js';
import type { ActorRefFrom } from 'xstate';
import type { hijackMachine } from '../../machines/hijack.machine.js';

import { RoleBadge } from '../account/RoleBadge.js';
import { LoadFailedAlert } from '../shared/LoadFailedAlert.js';

type HijackActor = ActorRefFrom<typeof hijackMachine>;

/**
 * The /hijack page (platform staff): what acting as someone means, a search across companies, and
 * "Act as" with a confirmation naming the user and their company.
 */
export function HijackView({ actor }: { actor: HijackActor }) {
  const { t } = useTranslation();
  const searching = useSelector(actor, (state) => state.matches({ browsing: 'searching' }));
  const failed = useSelector(actor, (state) => state.matches({ browsing: 'failed' }));
  const ready = useSelector(actor, (state) => state.matches({ browsing: 'ready' }));
  const started = useSelector(actor, (state) => state.matches('started'));
  const query = useSelector(actor, (state) => state.context.query);
  const results = useSelector(actor, (state) => state.context.results);
  const target = useSelector(actor, (state) => state.context.target);
  const problem = useSelector(actor, (state) => (state.matches('browsing') ? state.context.problem : null));

  return (
    <Container size="lg" py="md">
      <Stack gap="md">
        <Title order={1}>{t('hijack.title')}</Title>
        <Text c="dimmed">{t('hijack.intro')}</Text>
        <Alert color="yellow" title={t('hijack.auditTitle')}>
          {t('hijack.auditBody')}
        </Alert>
        {started && target && <Alert color="green">{t('hijack.started', { name: target.name })}</Alert>}
        <TextInput
          label={t('hijack.search')}
          placeholder={t('hijack.searchPlaceholder')}
          value={query}
          onChange={(event) => actor.send({ type: 'search.change', query: event.currentTarget.value })}
          disabled={started}
          type="search"
          w={360}
        />
        {failed && (
          <LoadFailedAlert
            title={t('hijack.loadFailed')}
            message={problemMessage(t, 'hijack', problem)}
            retryLabel={t('hijack.retry')}
            onRetry={() => actor.send({ type: 'search.retry' })}
          />
        )}
        <Box pos="relative" mih={80}>
          <LoadingOverlay visible={searching} />
          {results && results.length === 0 && (
            <Text c="dimmed" ta="center" py="lg">
              {query.trim() ? t('hijack.noMatch', { query: query.trim() }) : t('hijack.empty')}
            </Text>
          )}
          {results && results.length > 0 && (
            <Table.ScrollContainer minWidth={720}>
              <Table striped highlightOnHover>
                <Table.Thead>
                  <Table.Tr>
                    <Table.Th>{t('hijack.name')}</Table.Th>
                    <Table.Th>{t('hijack.email')}</Table.Th>
                    <Table.Th>{t('hijack.company')}</Table.Th>
                    <Table.Th>{t('hijack.role')}</Table.Th>
                    <Table.Th />
                  </Table.Tr>
                </Table.Thead>
                <Table.Tbody>
                  {results.map((user) => (
                    <Table.Tr key={user.id}>
                      <Table.Td>{user.name}</Table.Td>
                      <Table.Td>{user.email}</Table.Td>
                      <Table.Td>{user.company.name}</Table.Td>
                      <Table.Td>
                        <RoleBadge role={user.role} />
                      </Table.Td>
                      <Table.Td>
                        <Button
                          size="xs"
                          variant="light"
                          disabled={!ready}
                          onClick={() => actor.send({ type: 'user.actAs', user })}
                        >
                          {t('hijack.actAs')}
                        </Button>
                      </Table.Td>
                    </Table.Tr>
                  ))}
                </Table.Tbody>
              </Table>
            </Table.ScrollContainer>
          )}
        </Box>
      </Stack>
      <ConfirmDialog actor={actor} />
    </Container>
  );
}

function ConfirmDialog({ actor }: { actor: HijackActor }) {
  const { t } = useTranslation();
  const opened = useSelector(actor, (state) => state.matches('confirming') || state.matches('starting'));
  const busy = useSelector(actor, (state) => state.matches('starting'));
  const target = useSelector(actor, (state) => state.context.target);
  const problem = useSelector(actor, (state) => (state.matches('confirming') ? state.context.problem : null));
  const close = () => actor.send({ type: 'dialog.close' });
  if (!target) return null;

  return (
    <Modal
      opened={opened}
      onClose={close}
      closeOnClickOutside={!busy}
      closeOnEscape={!busy}
      withCloseButton={!busy}
      title={t('hijack.confirmTitle', { name: target.name })}
    >
      <Stack gap="md">
        <Text>
          {t('hijack.confirmBody', {
            name: target.name,
            email: target.email,
            company: target.company.name,
            role: t(`hijack.roles.${target.role}`),
          })}
        </Text>
        <Text size="sm" c="dimmed">
          {t('hijack.auditBody')}
        </Text>
        {problem && <Alert color="red">{problemMessage(t, 'hijack', problem)}</Alert>}
        <Group justify="flex-end">
          <Button variant="default" onClick={close} disabled={busy}>
            {t('hijack.cancel')}
          </Button>
          <Button color="orange" loading={busy} onClick={() => actor.send({ type: 'impersonation.confirm' })}>
            {t('hijack.confirm', { name: target.name })}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
