import { Alert, Button, Group, Modal, Stack, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { ApiProblem } from '../../machines/support/api-problem.js';
import type { ListActor } from './list-actor.js';
import { useListDialog } from './useListView.js';

/** A list screen's delete confirmation: what will be deleted, why the last try failed, cancel and delete. */
export function ConfirmDeleteDialog<Item, Form extends object>({
  actor,
  title,
  message,
  problemText,
  confirm,
}: {
  actor: ListActor<Item, Form>;
  title: string;
  /** What deleting the selected item does, in the user's language. */
  message: (item: Item) => string;
  /** A failed delete in the user's language. */
  problemText: (problem: ApiProblem) => string | null;
  /** The confirm button; "Delete" when not given. */
  confirm?: string;
}) {
  const { t } = useTranslation();
  const { dialog, busy, selected, problem } = useListDialog(actor);
  const failure = problem ? problemText(problem) : null;
  const close = () => actor.send({ type: 'dialog.close' });
  return (
    <Modal
      opened={dialog === 'deleting'}
      onClose={close}
      closeOnClickOutside={!busy}
      closeOnEscape={!busy}
      withCloseButton={!busy}
      closeButtonProps={{ 'aria-label': t('kit.close') }}
      title={title}
    >
      <Stack gap="md">
        {selected !== null && <Text>{message(selected)}</Text>}
        {failure && (
          <Alert color="red" role="alert">
            {failure}
          </Alert>
        )}
        <Group justify="flex-end">
          <Button variant="default" onClick={close} disabled={busy}>
            {t('kit.cancel')}
          </Button>
          {/* Red 9 (hover 8): white on Mantine's red 6 or 7 is below AA contrast. */}
          <Button color="red.9" loading={busy} onClick={() => actor.send({ type: 'delete.confirm' })}>
            {confirm ?? t('kit.delete')}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
