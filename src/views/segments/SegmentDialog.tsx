import { MultiSelect, Stack, Textarea, TextInput } from '@mantine/core';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import type { BuilderChoices } from '../../machines/segment-builder.machine.js';
import { SegmentWriteSchema } from '../../schemas/segment-records.js';
import { changeField, textFieldProps } from '../kit/field-props.js';
import { FormDialog } from '../kit/FormDialog.js';
import { useRequiredFields } from '../kit/required-fields.js';
import { useListDialog } from '../kit/useListView.js';
import { fieldMessage } from '../shared/field-message.js';
import { problemMessage } from '../shared/problem-message.js';
import type { SegmentsActor } from './SegmentsView.js';

/**
 * The segment add and update dialog (spec §2): name, description, the segment's own locations and location
 * groups (optional), and the rule builder (`builder`, with its live count), wide on a desktop and the whole
 * screen on a phone. Problems the server names are shown on their fields; rule problems on their rules.
 */
export function SegmentDialog({
  actor,
  builder,
  choices,
  fullScreen,
}: {
  actor: SegmentsActor;
  builder: ReactNode;
  /** The company's locations and groups, once the builder has loaded them. */
  choices: BuilderChoices | null;
  /** A phone: the dialog takes the whole screen. */
  fullScreen: boolean;
}) {
  const { t } = useTranslation();
  const { busy, form, fieldErrors, selected } = useListDialog(actor);
  const required = useRequiredFields(actor, { creating: SegmentWriteSchema, editing: SegmentWriteSchema });
  const name = t('segments.dialog.name');
  const description = t('segments.dialog.description');
  const locations = t('segments.dialog.locations');
  const groups = t('segments.dialog.groups');
  const options = (items: { id: number; name: string }[] | undefined) =>
    (items ?? []).map((item) => ({ value: String(item.id), label: item.name }));
  return (
    <FormDialog
      actor={actor}
      size={fullScreen ? '100%' : 'xl'}
      title={{
        creating: t('segments.dialog.addTitle'),
        editing: t('segments.dialog.updateTitle', { name: selected?.name ?? '' }),
      }}
      submit={{ creating: t('segments.actions.add'), editing: t('segments.dialog.save') }}
      problemText={(problem) => problemMessage(t, 'segments', problem)}
    >
      <Stack gap="sm">
        <TextInput
          label={name}
          {...textFieldProps(actor, form, 'name', required)}
          maxLength={200}
          error={fieldMessage(t, fieldErrors.name, name)}
          disabled={busy}
          data-autofocus
        />
        <Textarea
          label={description}
          value={form.description}
          onChange={(event) => changeField(actor, 'description', event.currentTarget.value)}
          maxLength={2000}
          autosize
          minRows={1}
          maxRows={4}
          error={fieldMessage(t, fieldErrors.description, description)}
          disabled={busy}
        />
        <MultiSelect
          label={locations}
          description={t('segments.dialog.locationsHint')}
          data={options(choices?.locations)}
          value={form.location_ids.map(String)}
          onChange={(value) => changeField(actor, 'location_ids', value.map(Number))}
          searchable
          clearable
          error={fieldMessage(t, fieldErrors.location_ids, locations)}
          disabled={busy || !choices}
          comboboxProps={{ withinPortal: true }}
        />
        {(choices?.groups.length ?? 0) > 0 && (
          <MultiSelect
            label={groups}
            data={options(choices?.groups)}
            value={form.group_ids.map(String)}
            onChange={(value) => changeField(actor, 'group_ids', value.map(Number))}
            searchable
            clearable
            error={fieldMessage(t, fieldErrors.group_ids, groups)}
            disabled={busy}
            comboboxProps={{ withinPortal: true }}
          />
        )}
        {builder}
      </Stack>
    </FormDialog>
  );
}
