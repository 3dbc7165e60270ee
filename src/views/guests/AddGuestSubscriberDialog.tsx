import { SimpleGrid, Stack, Switch, TextInput } from '@mantine/core';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { SubscriberCreateSchema } from '../../schemas/subscribers.js';
import { changeField, textFieldProps } from '../kit/field-props.js';
import { FormDialog } from '../kit/FormDialog.js';
import { useRequiredFields } from '../kit/required-fields.js';
import { useListDialog } from '../kit/useListView.js';
import { fieldMessage } from '../shared/field-message.js';
import { problemMessage } from '../shared/problem-message.js';
import type { GuestsToInviteActor } from './GuestsToInvitePanel.js';
import { inviteDialogActor } from './invite-dialog-actor.js';

/**
 * "Add as subscriber" for a guest to invite: the guest's first and last name (from the POS name, editable),
 * the email the marketer types, consent, and the guest's POS id shown read-only (the server links the new
 * subscriber to the guest by it). Field errors of the check and of the server show beside their fields.
 */
export function AddGuestSubscriberDialog({ actor }: { actor: GuestsToInviteActor }) {
  const { t } = useTranslation();
  const dialogActor = useMemo(() => inviteDialogActor(actor), [actor]);
  const { busy, form, fieldErrors, selected } = useListDialog(dialogActor);
  const required = useRequiredFields(dialogActor, { creating: SubscriberCreateSchema });

  const text = (
    field: 'email' | 'first_name' | 'last_name',
    label: string,
    extra: { type?: string; inputMode?: 'email' } = {},
  ) => (
    <TextInput
      label={label}
      {...textFieldProps(dialogActor, form, field, required)}
      error={fieldMessage(t, fieldErrors[field], label)}
      disabled={busy}
      autoComplete="off"
      {...extra}
    />
  );

  const title = t('filePaging.addTitle', { name: selected?.customer_name || selected?.pos_id || '' });
  return (
    <FormDialog
      actor={dialogActor}
      size="lg"
      title={{ creating: title, editing: title }}
      submit={{ creating: t('subscribers.actions.add'), editing: t('subscribers.actions.add') }}
      problemText={(problem) => problemMessage(t, 'subscribers', problem)}
    >
      <Stack gap="sm">
        {text('email', t('subscribers.dialog.email'), { type: 'email', inputMode: 'email' })}
        <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
          {text('first_name', t('subscribers.dialog.firstName'))}
          {text('last_name', t('subscribers.dialog.lastName'))}
        </SimpleGrid>
        <TextInput
          label={t('subscribers.dialog.posId')}
          value={form.pos_id}
          readOnly
          description={t('filePaging.posIdLinked')}
          error={fieldMessage(t, fieldErrors.pos_id, t('subscribers.dialog.posId'))}
        />
        <Switch
          label={t('subscribers.dialog.subscribed')}
          checked={form.subscribed}
          onChange={(event) => changeField(dialogActor, 'subscribed', event.currentTarget.checked)}
          disabled={busy}
          mt="xs"
        />
      </Stack>
    </FormDialog>
  );
}
