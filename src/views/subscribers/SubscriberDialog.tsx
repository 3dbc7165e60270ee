import { SimpleGrid, Stack, Switch, TextInput } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { fieldMessage } from '../shared/field-message.js';
import { changeField, textFieldProps } from '../kit/field-props.js';
import { FormDialog } from '../kit/FormDialog.js';
import { useRequiredFields } from '../kit/required-fields.js';
import { useListDialog } from '../kit/useListView.js';
import { SubscriberCreateSchema, SubscriberProfileUpdateSchema } from '../../schemas/subscribers.js';
import { problemMessage } from '../shared/problem-message.js';

import type { SubscribersActor } from './SubscribersView.js';

/** The text fields of the subscriber dialog. */
type TextField = 'email' | 'first_name' | 'last_name' | 'phone' | 'zip' | 'birthday' | 'pos_id';

/** The add and update dialogs of /subscribers, open while the machine is creating or editing. */
export function SubscriberDialog({ actor }: { actor: SubscribersActor }) {
  const { t } = useTranslation();
  const { dialog, busy, form, fieldErrors, selected } = useListDialog(actor);
  const required = useRequiredFields(actor, {
    creating: SubscriberCreateSchema,
    editing: SubscriberProfileUpdateSchema,
  });

  const text = (
    field: TextField,
    label: string,
    extra: {
      type?: string;
      autoComplete?: string;
      description?: string;
      inputMode?: 'numeric' | 'tel' | 'email';
    } = {},
  ) => (
    <TextInput
      label={label}
      {...textFieldProps(actor, form, field, required)}
      error={fieldMessage(t, fieldErrors[field], label)}
      disabled={busy}
      {...extra}
    />
  );

  return (
    <FormDialog
      actor={actor}
      size="lg"
      title={{
        creating: t('subscribers.dialog.addTitle'),
        editing: t('subscribers.dialog.editTitle', { email: selected?.email ?? '' }),
      }}
      submit={{ creating: t('subscribers.actions.add'), editing: t('subscribers.actions.save') }}
      problemText={(problem) => problemMessage(t, 'subscribers', problem)}
    >
      <Stack gap="sm">
        {text('email', t('subscribers.dialog.email'), {
          type: 'email',
          autoComplete: 'off',
          inputMode: 'email',
        })}
        <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
          {text('first_name', t('subscribers.dialog.firstName'), { autoComplete: 'off' })}
          {text('last_name', t('subscribers.dialog.lastName'), { autoComplete: 'off' })}
          {text('phone', t('subscribers.dialog.phone'), {
            type: 'tel',
            inputMode: 'tel',
            autoComplete: 'off',
            description: t('subscribers.dialog.phoneHint'),
          })}
          {text('zip', t('subscribers.dialog.zip'), {
            inputMode: 'numeric',
            autoComplete: 'off',
            description: t('subscribers.dialog.zipHint'),
          })}
          {text('birthday', t('subscribers.dialog.birthday'), { type: 'date' })}
          {dialog === 'creating' &&
            text('pos_id', t('subscribers.dialog.posId'), {
              autoComplete: 'off',
              description: t('subscribers.dialog.posIdHint'),
            })}
        </SimpleGrid>
        <Switch
          label={t('subscribers.dialog.subscribed')}
          checked={form.subscribed}
          onChange={(event) => changeField(actor, 'subscribed', event.currentTarget.checked)}
          disabled={busy}
          mt="xs"
        />
      </Stack>
    </FormDialog>
  );
}
