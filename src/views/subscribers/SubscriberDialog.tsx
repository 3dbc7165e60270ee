import { Alert, Button, Group, Modal, SimpleGrid, Stack, Switch, TextInput } from '@mantine/core';
import { useSelector } from '@xstate/react';
import type { FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { READABLE_ERRORS } from './readable-errors.js';
import type { ActorRefFrom } from 'xstate';
import type { subscribersListMachine, SubscriberTextField } from '../../machines/subscribers-list.machine.js';
import { fieldMessage, hasFieldMessages } from './messages.js';
import { problemMessage } from '../shared/problem-message.js';

type SubscribersActor = ActorRefFrom<typeof subscribersListMachine>;

/** The add and update dialogs of /subscribers, open while the machine is adding or updating. */
export function SubscriberDialog({ actor }: { actor: SubscribersActor }) {
  const { t } = useTranslation();
  const adding = useSelector(actor, (state) => state.matches('adding'));
  const updating = useSelector(actor, (state) => state.matches('updating'));
  const busy = useSelector(actor, (state) => !state.matches('listing') && state.hasTag('busy'));
  const selectedEmail = useSelector(actor, (state) => state.context.selected?.email ?? '');
  const close = () => actor.send({ type: 'dialog.close' });

  return (
    <Modal
      opened={adding || updating}
      onClose={close}
      closeOnClickOutside={!busy}
      closeOnEscape={!busy}
      withCloseButton={!busy}
      closeButtonProps={{ 'aria-label': t('subscribers.actions.close') }}
      size="lg"
      title={
        updating
          ? t('subscribers.dialog.editTitle', { email: selectedEmail })
          : t('subscribers.dialog.addTitle')
      }
    >
      <SubscriberForm actor={actor} mode={updating ? 'update' : 'add'} />
    </Modal>
  );
}

function SubscriberForm({ actor, mode }: { actor: SubscribersActor; mode: 'add' | 'update' }) {
  const { t } = useTranslation();
  const form = useSelector(actor, (state) => state.context.form);
  const fieldErrors = useSelector(actor, (state) => state.context.fieldErrors);
  const problem = useSelector(actor, (state) => state.context.problem);
  const busy = useSelector(actor, (state) => state.hasTag('busy'));

  const text = (
    field: SubscriberTextField,
    label: string,
    extra: {
      type?: string;
      autoComplete?: string;
      description?: string;
      required?: boolean;
      inputMode?: 'numeric' | 'tel' | 'email';
    } = {},
  ) => (
    <TextInput
      label={label}
      value={form[field]}
      onChange={(event) => actor.send({ type: 'field.change', field, value: event.currentTarget.value })}
      error={fieldMessage(t, 'subscribers', fieldErrors[field], label)}
      disabled={busy}
      {...extra}
    />
  );
  const submit = (event: FormEvent) => {
    event.preventDefault();
    actor.send({ type: 'dialog.submit' });
  };

  return (
    <form onSubmit={submit} noValidate style={READABLE_ERRORS}>
      <Stack gap="sm">
        {problem && !hasFieldMessages(problem) && (
          <Alert color="red" role="alert">
            {problemMessage(t, 'subscribers', problem)}
          </Alert>
        )}
        {text('email', t('subscribers.dialog.email'), {
          type: 'email',
          autoComplete: 'off',
          required: true,
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
          {mode === 'add' &&
            text('pos_id', t('subscribers.dialog.posId'), {
              autoComplete: 'off',
              description: t('subscribers.dialog.posIdHint'),
            })}
        </SimpleGrid>
        <Switch
          label={t('subscribers.dialog.subscribed')}
          checked={form.subscribed}
          onChange={(event) => actor.send({ type: 'subscribed.change', value: event.currentTarget.checked })}
          disabled={busy}
          mt="xs"
        />
        <Group justify="flex-end" mt="sm">
          <Button variant="default" onClick={() => actor.send({ type: 'dialog.close' })} disabled={busy}>
            {t('subscribers.actions.cancel')}
          </Button>
          <Button type="submit" loading={busy}>
            {mode === 'add' ? t('subscribers.actions.add') : t('subscribers.actions.save')}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
