import { SimpleGrid, Stack, Switch, TextInput } from '@mantine/core';
import { useSelector } from '@xstate/react';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import type { InviteField, InviteForm } from '../../machines/guests-to-invite.machine.js';
import { SubscriberCreateSchema } from '../../schemas/subscribers.js';
import { FormDialogFrame } from '../kit/FormDialog.js';
import { requiredFieldsOf } from '../kit/required-fields.js';
import { fieldMessage } from '../shared/field-message.js';
import { problemMessage } from '../shared/problem-message.js';
import type { GuestsToInviteActor } from './GuestsToInvitePanel.js';

/**
 * "Add as subscriber" for a guest to invite: the guest's first and last name (from the POS name, editable),
 * the email the marketer types, consent, and the guest's POS id shown read-only (the server links the new
 * subscriber to the guest by it). Field errors of the check and of the server show beside their fields.
 */
export function AddGuestSubscriberDialog({ actor }: { actor: GuestsToInviteActor }) {
  const { t } = useTranslation();
  const opened = useSelector(actor, (state) => !state.matches({ adding: 'closed' }));
  const busy = useSelector(actor, (state) => state.matches({ adding: 'saving' }));
  const { form, fieldErrors, guest, addProblem } = useSelector(actor, (state) => state.context);
  // The marks come from the schema that checks the form, as in every kit dialog.
  const required = useMemo(() => requiredFieldsOf(SubscriberCreateSchema, form), [form]);
  // TypeScript cannot narrow the field union by a generic field; the parameters tie field and value.
  const change = <Field extends InviteField>(field: Field, value: InviteForm[Field]) =>
    actor.send({ type: 'field.change', field, value } as Parameters<GuestsToInviteActor['send']>[0]);

  const text = (
    field: 'email' | 'first_name' | 'last_name',
    label: string,
    extra: { type?: string; inputMode?: 'email' } = {},
  ) => (
    <TextInput
      label={label}
      value={form[field]}
      onChange={(event) => change(field, event.currentTarget.value)}
      required={required.has(field)}
      error={fieldMessage(t, fieldErrors[field], label)}
      disabled={busy}
      autoComplete="off"
      {...extra}
    />
  );

  return (
    <FormDialogFrame
      opened={opened}
      busy={busy}
      problem={addProblem}
      size="lg"
      title={t('filePaging.addTitle', { name: guest?.customer_name || guest?.pos_id || '' })}
      submit={t('subscribers.actions.add')}
      onClose={() => actor.send({ type: 'dialog.close' })}
      onSubmit={() => actor.send({ type: 'dialog.submit' })}
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
          onChange={(event) => change('subscribed', event.currentTarget.checked)}
          disabled={busy}
          mt="xs"
        />
      </Stack>
    </FormDialogFrame>
  );
}
