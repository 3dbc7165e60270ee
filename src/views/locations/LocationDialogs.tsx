import {
  Alert,
  Button,
  Group,
  Modal,
  MultiSelect,
  Select,
  SimpleGrid,
  Stack,
  Text,
  TextInput,
} from '@mantine/core';
import { useSelector } from '@xstate/react';
import type { FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import type { ActorRefFrom } from 'xstate';
import type { LocationTextField, locationsAdminMachine } from '../../machines/locations-admin.machine.js';
import { displayLocationName, type LocationGroup } from '../../schemas/locations.js';
import { fieldMessage, hasFieldMessages, problemMessage } from './messages.js';

type AdminActor = ActorRefFrom<typeof locationsAdminMachine>;

// One empty list, so the selector's answer stays the same between renders.
const NO_GROUPS: readonly LocationGroup[] = [];

/** The add/edit location dialog and the delete confirmations of the Locations screens. */
export function LocationDialogs({ actor, timeZones }: { actor: AdminActor; timeZones: readonly string[] }) {
  const { t } = useTranslation();
  const editing = useSelector(actor, (state) => state.matches('editingLocation'));
  const deletingLocation = useSelector(actor, (state) => state.matches('deletingLocation'));
  const deletingGroup = useSelector(actor, (state) => state.matches('deletingGroup'));
  const busy = useSelector(actor, (state) => !state.matches('listing') && state.hasTag('busy'));
  const location = useSelector(actor, (state) => state.context.location);
  const group = useSelector(actor, (state) => state.context.group);
  const problem = useSelector(actor, (state) => (state.matches('listing') ? null : state.context.problem));
  const close = () => actor.send({ type: 'dialog.close' });
  const guarded = { closeOnClickOutside: !busy, closeOnEscape: !busy, withCloseButton: !busy };

  return (
    <>
      <Modal
        opened={editing}
        onClose={close}
        {...guarded}
        size="lg"
        title={
          location
            ? t('locations.locationDialog.editTitle', { name: displayLocationName(location) })
            : t('locations.locationDialog.createTitle')
        }
      >
        <LocationForm actor={actor} timeZones={timeZones} />
      </Modal>
      <Modal
        opened={deletingLocation || deletingGroup}
        onClose={close}
        {...guarded}
        title={
          deletingGroup ? t('locations.deleteDialog.groupTitle') : t('locations.deleteDialog.locationTitle')
        }
      >
        <Stack gap="md">
          <Text>
            {deletingGroup
              ? t('locations.deleteDialog.groupBody', { name: group?.name ?? '' })
              : t('locations.deleteDialog.locationBody', {
                  name: location ? displayLocationName(location) : '',
                })}
          </Text>
          {problem && <Alert color="red">{problemMessage(t, problem)}</Alert>}
          <Group justify="flex-end">
            <Button variant="default" onClick={close} disabled={busy}>
              {t('locations.actions.cancel')}
            </Button>
            <Button color="red" loading={busy} onClick={() => actor.send({ type: 'delete.confirm' })}>
              {t('locations.actions.delete')}
            </Button>
          </Group>
        </Stack>
      </Modal>
    </>
  );
}

function LocationForm({ actor, timeZones }: { actor: AdminActor; timeZones: readonly string[] }) {
  const { t } = useTranslation();
  const form = useSelector(actor, (state) => state.context.form);
  const fieldErrors = useSelector(actor, (state) => state.context.fieldErrors);
  const problem = useSelector(actor, (state) => state.context.problem);
  const busy = useSelector(actor, (state) => state.hasTag('busy'));
  const editing = useSelector(actor, (state) => state.context.location !== null);
  const groups = useSelector(actor, (state) => state.context.overview?.groups ?? NO_GROUPS);

  const change = (field: LocationTextField, value: string) =>
    actor.send({ type: 'field.change', field, value });
  const text = (
    field: LocationTextField,
    label: string,
    extra: { inputMode?: 'numeric' | 'decimal'; maxLength?: number; required?: boolean } = {},
  ) => (
    <TextInput
      label={label}
      value={form[field]}
      onChange={(event) => change(field, event.currentTarget.value)}
      error={fieldMessage(t, fieldErrors[field], label)}
      disabled={busy}
      {...extra}
    />
  );
  const submit = (event: FormEvent) => {
    event.preventDefault();
    actor.send({ type: 'dialog.submit' });
  };
  const timeZoneLabel = t('locations.fields.timeZone');

  return (
    <form onSubmit={submit} noValidate>
      <Stack gap="sm">
        {problem && !hasFieldMessages(problem) && <Alert color="red">{problemMessage(t, problem)}</Alert>}
        {text('name', t('locations.fields.name'), { required: true })}
        {text('street', t('locations.fields.street'))}
        <SimpleGrid cols={{ base: 1, xs: 3 }} spacing="sm">
          {text('city', t('locations.fields.city'))}
          {text('state', t('locations.fields.state'))}
          {text('zip', t('locations.fields.zip'), { inputMode: 'numeric', maxLength: 5 })}
        </SimpleGrid>
        <SimpleGrid cols={{ base: 1, xs: 2 }} spacing="sm">
          {text('latitude', t('locations.fields.latitude'), { inputMode: 'decimal' })}
          {text('longitude', t('locations.fields.longitude'), { inputMode: 'decimal' })}
        </SimpleGrid>
        <Text size="xs" c="dimmed">
          {t('locations.locationDialog.coordinatesHint')}
        </Text>
        <Select
          label={timeZoneLabel}
          data={timeZones as string[]}
          value={form.time_zone}
          onChange={(value) => value && change('time_zone', value)}
          error={fieldMessage(t, fieldErrors.time_zone, timeZoneLabel)}
          searchable
          allowDeselect={false}
          disabled={busy}
        />
        {editing && groups.length > 0 && (
          <MultiSelect
            label={t('locations.page.groups')}
            data={groups.map((group) => ({ value: String(group.id), label: group.name }))}
            value={form.group_ids.map(String)}
            onChange={(values) => actor.send({ type: 'groups.pick', groupIds: values.map(Number) })}
            searchable
            clearable
            disabled={busy}
          />
        )}
        <Group justify="flex-end" mt="sm">
          <Button variant="default" onClick={() => actor.send({ type: 'dialog.close' })} disabled={busy}>
            {t('locations.actions.cancel')}
          </Button>
          <Button type="submit" loading={busy}>
            {editing ? t('locations.actions.save') : t('locations.actions.create')}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
