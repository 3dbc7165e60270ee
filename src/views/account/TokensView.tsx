import {
  Alert,
  Badge,
  Box,
  Button,
  Code,
  CopyButton,
  Group,
  LoadingOverlay,
  Modal,
  Stack,
  Table,
  Text,
  TextInput,
} from '@mantine/core';
import { useSelector } from '@xstate/react';
import type { FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import type { ActorRefFrom } from 'xstate';
import type { companyTokensMachine } from '../../machines/company-tokens.machine.js';
import { fieldMessage, formatMoment, hasFieldMessages, problemMessage } from './messages.js';
import { LoadFailedAlert } from '../shared/LoadFailedAlert.js';

type TokensActor = ActorRefFrom<typeof companyTokensMachine>;

/** The API tokens tab (admins and owners): the tokens with their state, creation that shows the key once, revocation. */
export function TokensView({ actor, timeZone }: { actor: TokensActor; timeZone?: string }) {
  const { t, i18n } = useTranslation();
  const loading = useSelector(actor, (state) => state.matches('loading'));
  const failed = useSelector(actor, (state) => state.matches('failed'));
  const browsing = useSelector(actor, (state) => state.matches('browsing'));
  const list = useSelector(actor, (state) => state.context.list);
  const problem = useSelector(actor, (state) => (state.matches('failed') ? state.context.problem : null));
  const notice = useSelector(actor, (state) => state.context.notice);
  const moment = (iso: string | null) =>
    iso ? formatMoment(iso, i18n.language, timeZone) : t('account.never');

  return (
    <Stack gap="md">
      <Text c="dimmed">{t('account.tokens.intro')}</Text>
      {notice && browsing && (
        <Alert color="green" withCloseButton onClose={() => actor.send({ type: 'notice.dismiss' })}>
          {t(notice === 'created' ? 'account.tokens.createdNotice' : 'account.tokens.revokedNotice')}
        </Alert>
      )}
      <Group justify="flex-end">
        <Button onClick={() => actor.send({ type: 'token.add' })} disabled={!browsing}>
          {t('account.tokens.add')}
        </Button>
      </Group>
      {failed && (
        <LoadFailedAlert
          title={t('account.tokens.loadFailed')}
          message={problemMessage(t, 'account', problem)}
          retryLabel={t('account.actions.retry')}
          onRetry={() => actor.send({ type: 'list.retry' })}
        />
      )}
      <Box pos="relative" mih={80}>
        <LoadingOverlay visible={loading} />
        {list && list.length === 0 && (
          <Text c="dimmed" ta="center" py="lg">
            {t('account.tokens.empty')}
          </Text>
        )}
        {list && list.length > 0 && (
          <Table.ScrollContainer minWidth={720}>
            <Table striped highlightOnHover>
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>{t('account.tokens.name')}</Table.Th>
                  <Table.Th>{t('account.tokens.prefix')}</Table.Th>
                  <Table.Th>{t('account.tokens.created')}</Table.Th>
                  <Table.Th>{t('account.tokens.lastUsed')}</Table.Th>
                  <Table.Th>{t('account.tokens.status')}</Table.Th>
                  <Table.Th>{t('account.actions.column')}</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {list.map((token) => (
                  <Table.Tr key={token.id}>
                    <Table.Td>{token.name}</Table.Td>
                    <Table.Td>
                      <Code>{`rgl_${token.key_prefix}_…`}</Code>
                    </Table.Td>
                    <Table.Td>{moment(token.created_at)}</Table.Td>
                    <Table.Td>{moment(token.last_used_at)}</Table.Td>
                    <Table.Td>
                      {token.revoked_at ? (
                        <Badge color="gray" variant="light" title={moment(token.revoked_at)}>
                          {t('account.tokens.revoked')}
                        </Badge>
                      ) : (
                        <Badge color="green" variant="light">
                          {t('account.tokens.active')}
                        </Badge>
                      )}
                    </Table.Td>
                    <Table.Td>
                      {!token.revoked_at && (
                        <Button
                          size="xs"
                          variant="light"
                          color="red"
                          disabled={!browsing}
                          onClick={() => actor.send({ type: 'token.revoke', token })}
                        >
                          {t('account.tokens.revoke')}
                        </Button>
                      )}
                    </Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
        )}
      </Box>
      <CreateTokenDialog actor={actor} />
      <RevokeTokenDialog actor={actor} />
    </Stack>
  );
}

function CreateTokenDialog({ actor }: { actor: TokensActor }) {
  const { t } = useTranslation();
  const opened = useSelector(actor, (state) => state.matches('creating'));
  const revealed = useSelector(actor, (state) => state.matches({ creating: 'revealed' }));
  const busy = useSelector(actor, (state) => state.matches({ creating: 'saving' }));
  const name = useSelector(actor, (state) => state.context.form.name);
  const created = useSelector(actor, (state) => state.context.created);
  const fieldErrors = useSelector(actor, (state) => state.context.fieldErrors);
  const problem = useSelector(actor, (state) => (state.matches('creating') ? state.context.problem : null));
  const close = () => actor.send({ type: 'dialog.close' });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    actor.send({ type: 'dialog.submit' });
  };
  const nameLabel = t('account.tokens.name');

  return (
    <Modal
      opened={opened}
      onClose={close}
      // The key is shown once: closing by a stray click outside would lose it.
      closeOnClickOutside={!busy && !revealed}
      closeOnEscape={!busy}
      withCloseButton={!busy}
      title={revealed ? t('account.tokens.keyTitle') : t('account.tokens.createTitle')}
    >
      {revealed && created ? (
        <Stack gap="md">
          <Alert color="yellow">{t('account.tokens.keyWarning')}</Alert>
          <Code block>{created.key}</Code>
          <Group justify="space-between">
            <CopyButton value={created.key}>
              {({ copied, copy }) => (
                <Button variant="light" color={copied ? 'teal' : 'blue'} onClick={copy}>
                  {copied ? t('account.tokens.copied') : t('account.tokens.copy')}
                </Button>
              )}
            </CopyButton>
            <Button onClick={close}>{t('account.tokens.done')}</Button>
          </Group>
        </Stack>
      ) : (
        <form onSubmit={submit} noValidate>
          <Stack gap="md">
            {problem && !hasFieldMessages(problem) && (
              <Alert color="red">{problemMessage(t, 'account', problem)}</Alert>
            )}
            <TextInput
              label={nameLabel}
              placeholder={t('account.tokens.namePlaceholder')}
              value={name}
              onChange={(event) =>
                actor.send({ type: 'field.change', field: 'name', value: event.currentTarget.value })
              }
              error={fieldMessage(t, fieldErrors.name, nameLabel)}
              disabled={busy}
              data-autofocus
            />
            <Group justify="flex-end">
              <Button variant="default" onClick={close} disabled={busy}>
                {t('account.actions.cancel')}
              </Button>
              <Button type="submit" loading={busy}>
                {t('account.tokens.create')}
              </Button>
            </Group>
          </Stack>
        </form>
      )}
    </Modal>
  );
}

function RevokeTokenDialog({ actor }: { actor: TokensActor }) {
  const { t } = useTranslation();
  const opened = useSelector(actor, (state) => state.matches('revoking'));
  const busy = useSelector(actor, (state) => state.matches({ revoking: 'removing' }));
  const selected = useSelector(actor, (state) => state.context.selected);
  const problem = useSelector(actor, (state) => (state.matches('revoking') ? state.context.problem : null));
  const close = () => actor.send({ type: 'dialog.close' });

  return (
    <Modal
      opened={opened}
      onClose={close}
      closeOnClickOutside={!busy}
      closeOnEscape={!busy}
      withCloseButton={!busy}
      title={t('account.tokens.revokeTitle')}
    >
      <Stack gap="md">
        <Text>{t('account.tokens.revokeConfirm', { name: selected?.name ?? '' })}</Text>
        {problem && <Alert color="red">{problemMessage(t, 'account', problem)}</Alert>}
        <Group justify="flex-end">
          <Button variant="default" onClick={close} disabled={busy}>
            {t('account.actions.cancel')}
          </Button>
          <Button color="red" loading={busy} onClick={() => actor.send({ type: 'revoke.confirm' })}>
            {t('account.tokens.revoke')}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
