import {
  Alert,
  Button,
  Checkbox,
  Group,
  LoadingOverlay,
  Modal,
  Pagination,
  Stack,
  Table,
  Text,
  TextInput,
} from '@mantine/core';
import { useSelector } from '@xstate/react';
import type { FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { READABLE_ERRORS } from '../subscribers/readable-errors.js';
import { LIMITS } from '../../schemas/constants.js';
import { LoadFailedAlert } from '../shared/LoadFailedAlert.js';
import { problemMessage } from '../shared/problem-message.js';
import { fieldMessage, hasFieldMessages, personName } from '../subscribers/messages.js';
import type { SubscriberListsActor } from './SubscriberListsView.js';

/** The name dialog (create, rename), the delete confirmation and the add-members picker. */
export function ListDialogs({ actor }: { actor: SubscriberListsActor }) {
  return (
    <>
      <NameDialog actor={actor} />
      <DeleteDialog actor={actor} />
      <MemberPicker actor={actor} />
    </>
  );
}

function NameDialog({ actor }: { actor: SubscriberListsActor }) {
  const { t } = useTranslation();
  const creating = useSelector(actor, (state) => state.matches('creating'));
  const renaming = useSelector(actor, (state) => state.matches('renaming'));
  const busy = useSelector(
    actor,
    (state) => (state.matches('creating') || state.matches('renaming')) && state.hasTag('busy'),
  );
  const name = useSelector(actor, (state) => state.context.name);
  const selected = useSelector(actor, (state) => state.context.selected);
  const fieldErrors = useSelector(actor, (state) => state.context.fieldErrors);
  const problem = useSelector(actor, (state) => state.context.problem);
  const close = () => actor.send({ type: 'dialog.close' });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    actor.send({ type: 'dialog.submit' });
  };
  const label = t('subscriberLists.dialog.name');
  return (
    <Modal
      opened={creating || renaming}
      onClose={close}
      closeOnClickOutside={!busy}
      closeOnEscape={!busy}
      withCloseButton={!busy}
      closeButtonProps={{ 'aria-label': t('subscriberLists.actions.close') }}
      title={
        renaming
          ? t('subscriberLists.dialog.renameTitle', { name: selected?.name ?? '' })
          : t('subscriberLists.dialog.createTitle')
      }
    >
      <form onSubmit={submit} noValidate style={READABLE_ERRORS}>
        <Stack gap="sm">
          {problem && !hasFieldMessages(problem) && (
            <Alert color="red" role="alert">
              {problemMessage(t, 'subscriberLists', problem)}
            </Alert>
          )}
          <TextInput
            label={label}
            value={name}
            required
            maxLength={LIMITS.nameMaxLength}
            onChange={(event) => actor.send({ type: 'name.change', value: event.currentTarget.value })}
            error={fieldMessage(t, 'subscriberLists', fieldErrors.name, label)}
            disabled={busy}
            data-autofocus
          />
          <Group justify="flex-end" mt="sm">
            <Button variant="default" onClick={close} disabled={busy}>
              {t('subscriberLists.actions.cancel')}
            </Button>
            <Button type="submit" loading={busy}>
              {renaming ? t('subscriberLists.actions.save') : t('subscriberLists.actions.create')}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}

function DeleteDialog({ actor }: { actor: SubscriberListsActor }) {
  const { t } = useTranslation();
  const deleting = useSelector(actor, (state) => state.matches('deleting'));
  const busy = useSelector(actor, (state) => state.matches({ deleting: 'removing' }));
  const selected = useSelector(actor, (state) => state.context.selected);
  const problem = useSelector(actor, (state) => (state.matches('deleting') ? state.context.problem : null));
  const close = () => actor.send({ type: 'dialog.close' });
  return (
    <Modal
      opened={deleting}
      onClose={close}
      closeOnClickOutside={!busy}
      closeOnEscape={!busy}
      withCloseButton={!busy}
      closeButtonProps={{ 'aria-label': t('subscriberLists.actions.close') }}
      title={t('subscriberLists.dialog.deleteTitle')}
    >
      <Stack gap="md">
        <Text>
          {t('subscriberLists.dialog.deleteConfirm', {
            name: selected?.name ?? '',
            members: selected?.member_count ?? 0,
          })}
        </Text>
        {problem && (
          <Alert color="red" role="alert">
            {problemMessage(t, 'subscriberLists', problem)}
          </Alert>
        )}
        <Group justify="flex-end">
          <Button variant="default" onClick={close} disabled={busy}>
            {t('subscriberLists.actions.cancel')}
          </Button>
          <Button color="red.8" loading={busy} onClick={() => actor.send({ type: 'delete.confirm' })}>
            {t('subscriberLists.actions.delete')}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}

function MemberPicker({ actor }: { actor: SubscriberListsActor }) {
  const { t } = useTranslation();
  const opened = useSelector(actor, (state) => state.matches({ members: 'picking' }));
  const searching = useSelector(actor, (state) => state.matches({ members: { picking: 'searching' } }));
  const failed = useSelector(actor, (state) => state.matches({ members: { picking: 'failed' } }));
  const choosing = useSelector(actor, (state) => state.matches({ members: { picking: 'choosing' } }));
  const saving = useSelector(actor, (state) => state.matches({ members: { picking: 'saving' } }));
  const query = useSelector(actor, (state) => state.context.query);
  const candidates = useSelector(actor, (state) => state.context.candidates);
  const page = useSelector(actor, (state) => state.context.candidatesPage);
  const picked = useSelector(actor, (state) => state.context.picked);
  const list = useSelector(actor, (state) => state.context.selected);
  const problem = useSelector(actor, (state) =>
    state.matches({ members: 'picking' }) ? state.context.problem : null,
  );
  const pages = candidates ? Math.max(1, Math.ceil(candidates.count / LIMITS.subscribersPageSize)) : 1;
  const close = () => actor.send({ type: 'dialog.close' });

  return (
    <Modal
      opened={opened}
      onClose={close}
      closeOnClickOutside={!saving}
      closeOnEscape={!saving}
      withCloseButton={!saving}
      closeButtonProps={{ 'aria-label': t('subscriberLists.actions.close') }}
      size="lg"
      title={t('subscriberLists.picker.title', { name: list?.name ?? '' })}
    >
      <Stack gap="md">
        <TextInput
          label={t('subscriberLists.picker.search')}
          placeholder={t('subscriberLists.picker.searchPlaceholder')}
          type="search"
          value={query}
          onChange={(event) => actor.send({ type: 'search.change', query: event.currentTarget.value })}
          data-autofocus
        />
        {failed && (
          <LoadFailedAlert
            title={t('subscriberLists.picker.loadFailed')}
            message={problemMessage(t, 'subscriberLists', problem)}
            retryLabel={t('subscriberLists.actions.retry')}
            onRetry={() => actor.send({ type: 'candidates.retry' })}
          />
        )}
        {choosing && problem && (
          <Alert color="red" role="alert">
            {problemMessage(t, 'subscriberLists', problem)}
          </Alert>
        )}
        <Stack pos="relative" mih={80} gap={0}>
          <LoadingOverlay visible={searching || saving} />
          {candidates && candidates.results.length === 0 && (
            <Text c="dimmed" ta="center" py="lg">
              {t('subscriberLists.picker.noMatch')}
            </Text>
          )}
          {candidates && candidates.results.length > 0 && (
            <Table highlightOnHover verticalSpacing="xs">
              <Table.Tbody>
                {candidates.results.map((candidate) => {
                  const inList = list !== null && candidate.list_ids.includes(list.id);
                  return (
                    <Table.Tr key={candidate.id}>
                      <Table.Td w={40}>
                        <Checkbox
                          aria-label={t('subscriberLists.picker.pick', { email: candidate.email })}
                          checked={inList || picked.includes(candidate.id)}
                          disabled={inList || saving}
                          onChange={() => actor.send({ type: 'candidate.toggle', id: candidate.id })}
                        />
                      </Table.Td>
                      <Table.Td>
                        <Text size="sm" fw={500}>
                          {personName(candidate) ?? t('subscriberLists.table.noName')}
                        </Text>
                        <Text size="xs" c="dimmed">
                          {candidate.email}
                        </Text>
                      </Table.Td>
                      <Table.Td>
                        {inList && (
                          <Text size="xs" c="dimmed">
                            {t('subscriberLists.picker.already')}
                          </Text>
                        )}
                      </Table.Td>
                    </Table.Tr>
                  );
                })}
              </Table.Tbody>
            </Table>
          )}
        </Stack>
        {pages > 1 && (
          <Pagination
            size="sm"
            total={pages}
            value={page}
            disabled={!choosing}
            onChange={(next) => actor.send({ type: 'candidates.page', page: next })}
            getControlProps={(control) => ({ 'aria-label': t(`subscriberLists.pagination.${control}`) })}
            getItemProps={(item) => ({ 'aria-label': t('subscriberLists.pagination.page', { page: item }) })}
          />
        )}
        <Group justify="space-between">
          <Text size="sm" c="dimmed" aria-live="polite">
            {t('subscriberLists.picker.picked', { picked: picked.length })}
          </Text>
          <Group gap="sm">
            <Button variant="default" onClick={close} disabled={saving}>
              {t('subscriberLists.actions.cancel')}
            </Button>
            <Button
              loading={saving}
              disabled={picked.length === 0 || !choosing}
              onClick={() => actor.send({ type: 'dialog.submit' })}
            >
              {t('subscriberLists.actions.addPicked')}
            </Button>
          </Group>
        </Group>
      </Stack>
    </Modal>
  );
}
