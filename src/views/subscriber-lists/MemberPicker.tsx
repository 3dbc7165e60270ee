import { Alert, Button, Checkbox, Group, Modal, Stack, Table, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { Subscriber, SubscriberList } from '../../schemas/subscribers.js';
import { formatCount, languageOf } from '../../format/index.js';
import { changeField } from '../kit/field-props.js';
import type { ListActor } from '../kit/list-actor.js';
import { ListFrame } from '../kit/ListFrame.js';
import { useListDialog, useListView } from '../kit/useListView.js';
import { problemMessage } from '../shared/problem-message.js';
import { personName } from '../subscribers/messages.js';
import type { ListMembersActor } from './MembersPanel.js';

/** The picker's candidates actor: subscribers, searched and paged. */
export type MemberCandidatesActor = ListActor<Subscriber>;

/**
 * The add-members picker: the candidates (searched as one types, 8 to a page) with a tick each; the
 * ticks are the members machine's add dialog, and "Add to list" submits it. Those already on the list
 * are ticked and cannot be unticked.
 */
export function MemberPicker({
  members,
  candidates,
  list,
}: {
  members: ListMembersActor;
  candidates: MemberCandidatesActor;
  list: SubscriberList;
}) {
  const { t, i18n } = useTranslation();
  const language = languageOf(i18n.language);
  const { busy: saving, form, problem } = useListDialog(members);
  const { listProblem, total } = useListView(candidates);
  const picked = form.subscriber_ids;
  const close = () => members.send({ type: 'dialog.close' });
  const toggle = (id: number) =>
    changeField(
      members,
      'subscriber_ids',
      picked.includes(id) ? picked.filter((one) => one !== id) : [...picked, id],
    );
  return (
    <Modal
      opened
      onClose={close}
      closeOnClickOutside={!saving}
      closeOnEscape={!saving}
      withCloseButton={!saving}
      closeButtonProps={{ 'aria-label': t('kit.close') }}
      size="lg"
      title={t('subscriberLists.picker.title', { name: list.name })}
    >
      <Stack gap="md">
        {problem && (
          <Alert color="red" role="alert">
            {problemMessage(t, 'subscriberLists', problem)}
          </Alert>
        )}
        <ListFrame
          actor={candidates}
          texts={{
            search: t('subscriberLists.picker.search'),
            searchPlaceholder: t('subscriberLists.picker.searchPlaceholder'),
            empty: t('subscriberLists.picker.noMatch'),
            loadFailed: t('subscriberLists.picker.loadFailed'),
            problem: problemMessage(t, 'subscriberLists', listProblem),
            notice: null,
            summary: t('subscriberLists.picker.total', { total: formatCount(total, language) }),
          }}
        >
          {(found) => (
            <Table highlightOnHover verticalSpacing="xs">
              <Table.Tbody>
                {found.map((candidate) => {
                  const inList = candidate.list_ids.includes(list.id);
                  return (
                    <Table.Tr key={candidate.id}>
                      <Table.Td w={40}>
                        <Checkbox
                          aria-label={t('subscriberLists.picker.pick', { email: candidate.email })}
                          checked={inList || picked.includes(candidate.id)}
                          disabled={inList || saving}
                          onChange={() => toggle(candidate.id)}
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
        </ListFrame>
        <Group justify="space-between">
          <Text size="sm" c="dimmed" aria-live="polite">
            {t('subscriberLists.picker.picked', { picked: picked.length })}
          </Text>
          <Group gap="sm">
            <Button variant="default" onClick={close} disabled={saving}>
              {t('kit.cancel')}
            </Button>
            <Button
              loading={saving}
              disabled={picked.length === 0}
              onClick={() => members.send({ type: 'dialog.submit' })}
            >
              {t('subscriberLists.actions.addPicked')}
            </Button>
          </Group>
        </Group>
      </Stack>
    </Modal>
  );
}
