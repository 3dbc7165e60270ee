import { Alert, Button, Group, Modal, Select, SimpleGrid, Stack, Switch, TextInput } from '@mantine/core';
import { useSelector } from '@xstate/react';
import { useTranslation } from 'react-i18next';
import type { DetailsTextField } from '../../machines/profile-details.js';
import { fieldMessage } from '../shared/field-message.js';
import { hasFieldMessages, problemMessage } from '../shared/problem-message.js';
import { READABLE_ERRORS } from '../shared/readable-errors.js';
import type { ProfileActor } from './types.js';

/** The value of the source-location choice that stands for "no location". */
const NO_LOCATION = '';

/**
 * The details dialog of a subscriber's profile: the add dialog's fields but the POS id (the update call leaves
 * it alone), checked by the update's own rules; the server's field errors show beside their fields.
 */
export function DetailsDialog({ actor }: { actor: ProfileActor }) {
  const { t } = useTranslation();
  const open = useSelector(
    actor,
    (state) =>
      state.matches({ viewing: { editingDetails: 'editing' } }) ||
      state.matches({ viewing: { editingDetails: 'saving' } }),
  );
  const busy = useSelector(actor, (state) => state.matches({ viewing: { editingDetails: 'saving' } }));
  const form = useSelector(actor, (state) => state.context.detailsForm);
  const errors = useSelector(actor, (state) => state.context.detailsErrors);
  const locations = useSelector(actor, (state) => state.context.locations);
  const problem = useSelector(actor, (state) =>
    state.matches({ viewing: 'editingDetails' }) ? state.context.problem : null,
  );
  const close = () => actor.send({ type: 'dialog.close' });
  const showProblem = problem !== null && !hasFieldMessages(problem);

  const text = (
    field: DetailsTextField,
    label: string,
    extra: {
      type?: string;
      required?: boolean;
      description?: string;
      inputMode?: 'numeric' | 'tel' | 'email';
      autoFocus?: boolean;
    } = {},
  ) => (
    <TextInput
      label={label}
      value={form?.[field] ?? ''}
      error={fieldMessage(t, errors[field], label)}
      disabled={busy}
      autoComplete="off"
      data-autofocus={extra.autoFocus || undefined}
      onChange={(event) => actor.send({ type: 'details.change', field, value: event.currentTarget.value })}
      type={extra.type}
      required={extra.required}
      description={extra.description}
      inputMode={extra.inputMode}
    />
  );

  return (
    <Modal
      opened={open}
      onClose={close}
      size="lg"
      closeOnClickOutside={!busy}
      closeOnEscape={!busy}
      withCloseButton={!busy}
      title={t('profile.details.dialogTitle')}
      closeButtonProps={{ 'aria-label': t('profile.close') }}
    >
      <form
        style={READABLE_ERRORS}
        onSubmit={(event) => {
          event.preventDefault();
          actor.send({ type: 'dialog.submit' });
        }}
      >
        <Stack gap="sm">
          {text('email', t('profile.details.email'), {
            type: 'email',
            required: true,
            inputMode: 'email',
            autoFocus: true,
          })}
          <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
            {text('first_name', t('profile.details.firstName'))}
            {text('last_name', t('profile.details.lastName'))}
            {text('phone', t('profile.details.phone'), {
              type: 'tel',
              inputMode: 'tel',
              description: t('subscribers.dialog.phoneHint'),
            })}
            {text('zip', t('profile.details.zip'), {
              inputMode: 'numeric',
              description: t('subscribers.dialog.zipHint'),
            })}
            {text('birthday', t('profile.details.birthday'), { type: 'date' })}
            <Select
              label={t('profile.details.sourceLocation')}
              description={t('profile.details.sourceLocationHint')}
              data={[
                { value: NO_LOCATION, label: t('profile.details.noSourceLocation') },
                ...locations.map((location) => ({ value: String(location.id), label: location.name })),
              ]}
              value={form?.source_location_id == null ? NO_LOCATION : String(form.source_location_id)}
              onChange={(value) =>
                actor.send({
                  type: 'details.change',
                  field: 'source_location_id',
                  value: value === null || value === NO_LOCATION ? null : Number(value),
                })
              }
              error={fieldMessage(t, errors.source_location_id, t('profile.details.sourceLocation'))}
              allowDeselect={false}
              searchable
              disabled={busy}
              comboboxProps={{ withinPortal: true }}
            />
          </SimpleGrid>
          <Switch
            label={t('profile.details.subscribed')}
            checked={form?.subscribed ?? false}
            onChange={(event) =>
              actor.send({ type: 'details.change', field: 'subscribed', value: event.currentTarget.checked })
            }
            disabled={busy}
            mt="xs"
          />
          {showProblem && <Alert color="red">{problemMessage(t, 'profile', problem)}</Alert>}
          <Group justify="flex-end">
            <Button variant="default" onClick={close} disabled={busy}>
              {t('profile.details.cancel')}
            </Button>
            <Button type="submit" loading={busy}>
              {t('profile.details.save')}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
