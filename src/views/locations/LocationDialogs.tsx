import { MultiSelect, Select, SimpleGrid, Text, TextInput } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { problemMessage } from '../shared/problem-message.js';
import { fieldMessage } from '../shared/field-message.js';
import {
  LocationEditSchema,
  LocationFormSchema,
  type LocationForm,
  type LocationRow,
} from '../../machines/locations-admin.machine.js';
import { displayLocationName, type LocationGroup } from '../../schemas/locations.js';
import { ConfirmDeleteDialog } from '../kit/ConfirmDeleteDialog.js';
import { changeField, textFieldProps } from '../kit/field-props.js';
import { FormDialog } from '../kit/FormDialog.js';
import { DIALOG_DROPDOWN, DIALOG_DROPDOWN_HEIGHT } from '../kit/dialog-dropdown.js';
import type { ListActor } from '../kit/list-actor.js';
import { useRequiredFields } from '../kit/required-fields.js';
import { useListDialog } from '../kit/useListView.js';

/** The locations list's actor, as the Locations views see it. */
export type LocationsActor = ListActor<LocationRow, LocationForm>;

/** The text fields of the location dialog. */
type LocationTextField = Exclude<keyof LocationForm, 'group_ids'>;

/** The add/edit location dialog and the location delete confirmation of the Locations screens. */
export function LocationDialogs({
  actor,
  groups,
  timeZones,
}: {
  actor: LocationsActor;
  /** The groups an edited location can belong to. */
  groups: readonly LocationGroup[];
  timeZones: readonly string[];
}) {
  const { t } = useTranslation();
  const { selected } = useListDialog(actor);
  return (
    <>
      <FormDialog
        actor={actor}
        size="lg"
        title={{
          creating: t('locations.locationDialog.createTitle'),
          editing: t('locations.locationDialog.editTitle', {
            name: selected ? displayLocationName(selected) : '',
          }),
        }}
        submit={{ creating: t('locations.actions.create'), editing: t('kit.save') }}
        problemText={(problem) => problemMessage(t, 'locations', problem)}
      >
        <LocationFields actor={actor} groups={groups} timeZones={timeZones} />
      </FormDialog>
      <ConfirmDeleteDialog
        actor={actor}
        title={t('locations.deleteDialog.locationTitle')}
        message={(location) =>
          t('locations.deleteDialog.locationBody', { name: displayLocationName(location) })
        }
        problemText={(problem) => problemMessage(t, 'locations', problem)}
      />
    </>
  );
}

function LocationFields({
  actor,
  groups,
  timeZones,
}: {
  actor: LocationsActor;
  groups: readonly LocationGroup[];
  timeZones: readonly string[];
}) {
  const { t } = useTranslation();
  const { dialog, busy, form, fieldErrors } = useListDialog(actor);
  const required = useRequiredFields(actor, { creating: LocationFormSchema, editing: LocationEditSchema });
  const text = (
    field: LocationTextField,
    label: string,
    extra: { inputMode?: 'numeric' | 'decimal'; maxLength?: number } = {},
  ) => (
    <TextInput
      label={label}
      {...textFieldProps(actor, form, field, required)}
      error={fieldMessage(t, fieldErrors[field], label)}
      disabled={busy}
      {...extra}
    />
  );
  const timeZoneLabel = t('locations.fields.timeZone');

  return (
    <>
      {text('name', t('locations.fields.name'))}
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
        onChange={(value) => value && changeField(actor, 'time_zone', value)}
        error={fieldMessage(t, fieldErrors.time_zone, timeZoneLabel)}
        searchable
        allowDeselect={false}
        required={required.has('time_zone')}
        disabled={busy}
      />
      {/* Groups are picked when editing: a new location joins groups from the group dialog. */}
      {dialog === 'editing' && groups.length > 0 && (
        <MultiSelect
          label={t('locations.page.groups')}
          data={groups.map((group) => ({ value: String(group.id), label: group.name }))}
          value={form.group_ids.map(String)}
          onChange={(values) => changeField(actor, 'group_ids', values.map(Number))}
          searchable
          clearable
          comboboxProps={DIALOG_DROPDOWN}
          maxDropdownHeight={DIALOG_DROPDOWN_HEIGHT}
          disabled={busy}
        />
      )}
    </>
  );
}
