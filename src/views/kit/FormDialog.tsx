import { Alert, Button, Group, Modal, Stack } from '@mantine/core';
import type { FormEvent, ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import type { ApiProblem } from '../../machines/support/api-problem.js';
import { hasFieldMessages } from '../shared/problem-message.js';
import { READABLE_ERRORS } from '../shared/readable-errors.js';
import type { ListActor } from './list-actor.js';
import { useListDialog } from './useListView.js';

/** The texts and look of a form dialog, whatever machine holds it. */
interface FormDialogTexts {
  /** A failed save in the user's language; not shown when the server named the fields at fault. */
  problemText: (problem: ApiProblem) => string | null;
  /** The dialog's width (Mantine's modal sizes); Mantine's default when not given. */
  size?: string;
  children: ReactNode;
}

/**
 * A list screen's add and edit dialog: open while the list machine is creating or editing, its fields as
 * `children`, the failure that belongs to no field above them, and cancel and submit. It cannot be
 * dismissed while saving.
 */
export function FormDialog<Item, Form extends object>({
  actor,
  title,
  submit,
  ...texts
}: FormDialogTexts & {
  actor: ListActor<Item, Form>;
  /** The title while adding and while editing. */
  title: { creating: string; editing: string };
  /** The submit button while adding and while editing. */
  submit: { creating: string; editing: string };
}) {
  const { dialog, busy, problem } = useListDialog(actor);
  const mode = dialog === 'editing' ? 'editing' : 'creating';
  return (
    <FormDialogFrame
      {...texts}
      opened={dialog === 'creating' || dialog === 'editing'}
      busy={busy}
      problem={problem}
      title={title[mode]}
      submit={submit[mode]}
      onClose={() => actor.send({ type: 'dialog.close' })}
      onSubmit={() => actor.send({ type: 'dialog.submit' })}
    />
  );
}

/**
 * The kit's form dialog for a machine that is not a list (a profile's details, a guest to invite): the
 * same modal, failure alert, cancel and submit, told by its screen whether it is open, busy or failed.
 */
export function FormDialogFrame({
  opened,
  busy,
  problem,
  title,
  submit,
  onClose,
  onSubmit,
  problemText,
  size,
  children,
}: FormDialogTexts & {
  opened: boolean;
  busy: boolean;
  problem: ApiProblem | null;
  title: string;
  submit: string;
  onClose: () => void;
  onSubmit: () => void;
}) {
  const { t } = useTranslation();
  // Field errors are shown beside their fields; anything else above them.
  const failure = problem && !hasFieldMessages(problem) ? problemText(problem) : null;
  const send = (event: FormEvent) => {
    event.preventDefault();
    onSubmit();
  };
  return (
    <Modal
      opened={opened}
      onClose={onClose}
      closeOnClickOutside={!busy}
      closeOnEscape={!busy}
      withCloseButton={!busy}
      closeButtonProps={{ 'aria-label': t('kit.close') }}
      title={title}
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
            <Button variant="default" onClick={onClose} disabled={busy}>
              {t('kit.cancel')}
            </Button>
            <Button type="submit" loading={busy}>
              {submit}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
