import { Alert, Button, Group, Modal, Stack } from '@mantine/core';
import type { FormEvent, ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import type { ApiProblem } from '../../machines/support/api-problem.js';
import { hasFieldMessages } from '../shared/problem-message.js';
import { READABLE_ERRORS } from '../shared/readable-errors.js';
import type { ListActor } from './list-actor.js';
import { useListDialog } from './useListView.js';

/**
 * A list screen's add and edit dialog: open while the machine is creating or editing, its fields as
 * `children`, the failure that belongs to no field above them, and cancel and submit. It cannot be
 * dismissed while saving.
 */
export function FormDialog<Item, Form extends object>({
  actor,
  title,
  submit,
  problemText,
  size,
  children,
}: {
  actor: ListActor<Item, Form>;
  /** The title while adding and while editing. */
  title: { creating: string; editing: string };
  /** The submit button while adding and while editing. */
  submit: { creating: string; editing: string };
  /** A failed save in the user's language; not shown when the server named the fields at fault. */
  problemText: (problem: ApiProblem) => string | null;
  /** The dialog's width (Mantine's modal sizes); Mantine's default when not given. */
  size?: string;
  children: ReactNode;
}) {
  const { t } = useTranslation();
  const { dialog, busy, problem } = useListDialog(actor);
  // Field errors are shown beside their fields; anything else above them.
  const failure = problem && !hasFieldMessages(problem) ? problemText(problem) : null;
  const mode = dialog === 'editing' ? 'editing' : 'creating';
  const close = () => actor.send({ type: 'dialog.close' });
  const send = (event: FormEvent) => {
    event.preventDefault();
    actor.send({ type: 'dialog.submit' });
  };
  return (
    <Modal
      opened={dialog === 'creating' || dialog === 'editing'}
      onClose={close}
      closeOnClickOutside={!busy}
      closeOnEscape={!busy}
      withCloseButton={!busy}
      closeButtonProps={{ 'aria-label': t('kit.close') }}
      title={title[mode]}
      size={size}
    >
      {/* Field errors in the readable red (Mantine's default red is below AA contrast on white). */}
      <form onSubmit={send} noValidate style={READABLE_ERRORS}>
        <Stack gap="sm">
          {failure && (
            <Alert color="red" role="alert">
              {failure}
            </Alert>
          )}
          {children}
          <Group justify="flex-end" mt="sm">
            <Button variant="default" onClick={close} disabled={busy}>
              {t('kit.cancel')}
            </Button>
            <Button type="submit" loading={busy}>
              {submit[mode]}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
