import {
  Alert,
  Badge,
  Box,
  Button,
  Group,
  LoadingOverlay,
  Modal,
  Stack,
  Switch,
  Table,
  Text,
  TextInput,
} from '@mantine/core';
import { useSelector } from '@xstate/react';
import type { FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import type { ActorRefFrom } from 'xstate';
import type { emailSendersMachine, SenderTextField } from '../../machines/email-senders.machine.js';
import { fieldMessage, hasFieldMessages, problemMessage } from './messages.js';
import { LoadFailedAlert } from '../shared/LoadFailedAlert.js';

type SendersActor = ActorRefFrom<typeof emailSendersMachine>;

/** The Email senders tab: the sender addresses of campaign email; admins and owners add, edit and delete them. */
export function SendersView({ actor, canManage }: { actor: SendersActor; canManage: boolean }) {
  const { t } = useTranslation();
  const loading = useSelector(actor, (state) => state.matches('loading'));
  const failed = useSelector(actor, (state) => state.matches('failed'));
  const browsing = useSelector(actor, (state) => state.matches('browsing'));
  const list = useSelector(actor, (state) => state.context.list);
  const problem = useSelector(actor, (state) => (state.matches('failed') ? state.context.problem : null));
  const notice = useSelector(actor, (state) => state.context.notice);

  return (
    <Stack gap="md">
      <Text c="dimmed">{t('account.senders.intro')}</Text>
      {notice && browsing && (
        <Alert color="green" withCloseButton onClose={() => actor.send({ type: 'notice.dismiss' })}>
          {t(`account.senders.${notice}`)}
        </Alert>
      )}
      {canManage ? (
        <Group justify="flex-end">
          <Button onClick={() => actor.send({ type: 'sender.add' })} disabled={!browsing}>
            {t('account.senders.add')}
          </Button>
        </Group>
      ) : (
        <Text size="sm" c="dimmed">
          {t('account.senders.readOnly')}
        </Text>
      )}
      {failed && (
        <LoadFailedAlert
          title={t('account.senders.loadFailed')}
          message={problemMessage(t, 'account', problem)}
          retryLabel={t('account.actions.retry')}
          onRetry={() => actor.send({ type: 'list.retry' })}
        />
      )}
      <Box pos="relative" mih={80}>
        <LoadingOverlay visible={loading} />
        {list && list.length === 0 && (
          <Text c="dimmed" ta="center" py="lg">
            {t('account.senders.empty')}
          </Text>
        )}
        {list && list.length > 0 && (
          <Table.ScrollContainer minWidth={640}>
            <Table striped highlightOnHover>
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>{t('account.senders.name')}</Table.Th>
                  <Table.Th>{t('account.senders.email')}</Table.Th>
                  <Table.Th>{t('account.senders.replyTo')}</Table.Th>
                  <Table.Th />
                  {canManage && <Table.Th>{t('account.actions.column')}</Table.Th>}
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {list.map((sender) => (
                  <Table.Tr key={sender.id}>
                    <Table.Td>{sender.name}</Table.Td>
                    <Table.Td>{sender.email}</Table.Td>
                    <Table.Td>{sender.reply_to}</Table.Td>
                    <Table.Td>
                      <Group gap="xs" wrap="nowrap">
                        {sender.is_default && (
                          <Badge variant="filled">{t('account.senders.isDefault')}</Badge>
                        )}
                        <Badge color={sender.verified_at ? 'green' : 'gray'} variant="light">
                          {sender.verified_at
                            ? t('account.senders.verified')
                            : t('account.senders.unverified')}
                        </Badge>
                      </Group>
                    </Table.Td>
                    {canManage && (
                      <Table.Td>
                        <Group gap="xs" wrap="nowrap">
                          <Button
                            size="xs"
                            variant="light"
                            disabled={!browsing}
                            onClick={() => actor.send({ type: 'sender.edit', sender })}
                          >
                            {t('account.actions.edit')}
                          </Button>
                          <Button
                            size="xs"
                            variant="light"
                            color="red"
                            disabled={!browsing}
                            onClick={() => actor.send({ type: 'sender.delete', sender })}
                          >
                            {t('account.actions.delete')}
                          </Button>
                        </Group>
                      </Table.Td>
                    )}
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
        )}
      </Box>
      <SenderDialog actor={actor} />
      <DeleteSenderDialog actor={actor} />
    </Stack>
  );
}

function SenderDialog({ actor }: { actor: SendersActor }) {
  const { t } = useTranslation();
  const creating = useSelector(actor, (state) => state.matches('creating'));
  const editing = useSelector(actor, (state) => state.matches('editing'));
  const busy = useSelector(
    actor,
    (state) => (state.matches('creating') || state.matches('editing')) && state.hasTag('busy'),
  );
  const form = useSelector(actor, (state) => state.context.form);
  const fieldErrors = useSelector(actor, (state) => state.context.fieldErrors);
  const problem = useSelector(actor, (state) => state.context.problem);
  const close = () => actor.send({ type: 'dialog.close' });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    actor.send({ type: 'dialog.submit' });
  };
  const text = (
    field: SenderTextField,
    label: string,
    extra: { type?: string; description?: string } = {},
  ) => (
    <TextInput
      label={label}
      value={form[field]}
      onChange={(event) => actor.send({ type: 'field.change', field, value: event.currentTarget.value })}
      error={fieldMessage(t, fieldErrors[field], label)}
      disabled={busy}
      {...extra}
    />
  );

  return (
    <Modal
      opened={creating || editing}
      onClose={close}
      closeOnClickOutside={!busy}
      closeOnEscape={!busy}
      withCloseButton={!busy}
      title={editing ? t('account.senders.editTitle') : t('account.senders.createTitle')}
    >
      <form onSubmit={submit} noValidate>
        <Stack gap="sm">
          {problem && !hasFieldMessages(problem) && (
            <Alert color="red">{problemMessage(t, 'account', problem)}</Alert>
          )}
          {text('name', t('account.senders.name'))}
          {text('email', t('account.senders.email'), { type: 'email' })}
          {text('reply_to', t('account.senders.replyTo'), {
            type: 'email',
            description: t('account.senders.replyToHint'),
          })}
          <Switch
            label={t('account.senders.makeDefault')}
            checked={form.is_default}
            onChange={(event) => actor.send({ type: 'default.change', value: event.currentTarget.checked })}
            disabled={busy}
          />
          <Group justify="flex-end" mt="sm">
            <Button variant="default" onClick={close} disabled={busy}>
              {t('account.actions.cancel')}
            </Button>
            <Button type="submit" loading={busy}>
              {editing ? t('account.actions.save') : t('account.senders.add')}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}

function DeleteSenderDialog({ actor }: { actor: SendersActor }) {
  const { t } = useTranslation();
  const opened = useSelector(actor, (state) => state.matches('deleting'));
  const busy = useSelector(actor, (state) => state.matches({ deleting: 'removing' }));
  const selected = useSelector(actor, (state) => state.context.selected);
  const problem = useSelector(actor, (state) => (state.matches('deleting') ? state.context.problem : null));
  const close = () => actor.send({ type: 'dialog.close' });

  return (
    <Modal
      opened={opened}
      onClose={close}
      closeOnClickOutside={!busy}
      closeOnEscape={!busy}
      withCloseButton={!busy}
      title={t('account.senders.deleteTitle')}
    >
      <Stack gap="md">
        <Text>
          {t('account.senders.deleteConfirm', { name: selected?.name ?? '', email: selected?.email ?? '' })}
        </Text>
        {problem && <Alert color="red">{problemMessage(t, 'account', problem)}</Alert>}
        <Group justify="flex-end">
          <Button variant="default" onClick={close} disabled={busy}>
            {t('account.actions.cancel')}
          </Button>
          <Button color="red" loading={busy} onClick={() => actor.send({ type: 'delete.confirm' })}>
            {t('account.actions.delete')}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
