import { Alert, Button, Group, Modal, MultiSelect, Stack, Textarea, TextInput } from '@mantine/core';
import { useSelector } from '@xstate/react';
import type { FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { hasFieldMessages, problemMessage } from '../shared/problem-message.js';
import { fieldMessage } from '../shared/field-message.js';
import type { ActorRefFrom } from 'xstate';
import type { locationGroupCreateMachine } from '../../machines/location-group-create.machine.js';
import { displayLocationName, type Location } from '../../schemas/locations.js';
import { LocationGroupCreateSchema } from '../../schemas/location-writes.js';
import { DIALOG_DROPDOWN, DIALOG_DROPDOWN_HEIGHT } from '../kit/dialog-dropdown.js';
import { requiredFieldsOf } from '../kit/required-fields.js';
import { READABLE_ERRORS } from '../shared/readable-errors.js';

/**
 * The location group dialog (create, or rename and change members): a required name, a description
 * and the member locations, open while its machine is visible.
 */
export function GroupDialog({
  actor,
  locations,
}: {
  actor: ActorRefFrom<typeof locationGroupCreateMachine>;
  /** The locations one can add to the group. */
  locations: readonly Location[];
}) {
  const { t } = useTranslation();
  const visible = useSelector(actor, (state) => state.matches('visible'));
  const busy = useSelector(actor, (state) => state.hasTag('busy'));
  const group = useSelector(actor, (state) => state.context.group);
  const form = useSelector(actor, (state) => state.context.form);
  const fieldErrors = useSelector(actor, (state) => state.context.fieldErrors);
  const problem = useSelector(actor, (state) => state.context.problem);
  const close = () => actor.send({ type: 'dialog.close' });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    actor.send({ type: 'dialog.submit' });
  };
  const nameLabel = t('locations.fields.name');
  const descriptionLabel = t('locations.fields.description');
  const membersLabel = t('locations.fields.members');
  const required = requiredFieldsOf(LocationGroupCreateSchema, form);

  return (
    <Modal
      opened={visible}
      onClose={close}
      closeOnClickOutside={!busy}
      closeOnEscape={!busy}
      withCloseButton={!busy}
      closeButtonProps={{ 'aria-label': t('kit.close') }}
      title={
        group
          ? t('locations.groupDialog.editTitle', { name: group.name })
          : t('locations.groupDialog.createTitle')
      }
    >
      {/* Field errors in the readable red, as in the kit's dialogs. */}
      <form onSubmit={submit} noValidate style={READABLE_ERRORS}>
        <Stack gap="sm">
          {problem && !hasFieldMessages(problem) && (
            <Alert color="red" role="alert">
              {problemMessage(t, 'locations', problem)}
            </Alert>
          )}
          <TextInput
            label={nameLabel}
            required={required.has('name')}
            value={form.name}
            onChange={(event) =>
              actor.send({ type: 'field.change', field: 'name', value: event.currentTarget.value })
            }
            error={fieldMessage(t, fieldErrors.name, nameLabel)}
            disabled={busy}
            data-autofocus
          />
          <Textarea
            label={descriptionLabel}
            value={form.description}
            onChange={(event) =>
              actor.send({ type: 'field.change', field: 'description', value: event.currentTarget.value })
            }
            error={fieldMessage(t, fieldErrors.description, descriptionLabel)}
            required={required.has('description')}
            disabled={busy}
            autosize
            minRows={2}
          />
          <MultiSelect
            label={membersLabel}
            description={t('locations.groupDialog.membersHint')}
            data={locations.map((location) => ({
              value: String(location.id),
              label: displayLocationName(location),
            }))}
            value={form.location_ids.map(String)}
            onChange={(values) => actor.send({ type: 'members.change', locationIds: values.map(Number) })}
            error={fieldMessage(t, fieldErrors.location_ids, membersLabel)}
            required={required.has('location_ids')}
            searchable
            clearable
            disabled={busy}
            comboboxProps={DIALOG_DROPDOWN}
            maxDropdownHeight={DIALOG_DROPDOWN_HEIGHT}
          />
          <Group justify="flex-end" mt="sm">
            <Button variant="default" onClick={close} disabled={busy}>
              {t('locations.actions.cancel')}
            </Button>
            <Button type="submit" loading={busy}>
              {group ? t('locations.actions.save') : t('locations.actions.create')}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
