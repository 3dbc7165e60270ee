import { Modal, MultiSelect, NumberInput, Select, Stack, TextInput } from '@mantine/core';
import { useSelector } from '@xstate/react';
import { useTranslation } from 'react-i18next';
import type { FlowBuilderActor } from './flow-builder-actor.js';

/** The flow's own settings: name, the locations or groups it is kept to, and how often a guest may enter. */
export function FlowSettingsDialog({
  actor,
  opened,
  disabled,
  onClose,
}: {
  actor: FlowBuilderActor;
  opened: boolean;
  disabled: boolean;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const fields = useSelector(actor, (state) => state.context.fields);
  const choices = useSelector(actor, (state) => state.context.choices);
  const change = (changed: Partial<typeof fields>) => actor.send({ type: 'flow.fields', fields: changed });
  const ids = (values: string[]) => values.map(Number);
  return (
    <Modal opened={opened} onClose={onClose} title={t('flows.builder.settings')}>
      <Stack gap="md">
        <TextInput
          label={t('flows.fields.name')}
          value={fields.name}
          required
          disabled={disabled}
          onChange={(event) => change({ name: event.currentTarget.value })}
        />
        <MultiSelect
          label={t('flows.fields.locations')}
          description={t('flows.fields.scopeHint')}
          data={choices.locations.map((choice) => ({ value: String(choice.id), label: choice.name }))}
          value={fields.location_ids.map(String)}
          searchable
          disabled={disabled}
          onChange={(values) => change({ location_ids: ids(values) })}
        />
        <MultiSelect
          label={t('flows.fields.groups')}
          data={choices.groups.map((choice) => ({ value: String(choice.id), label: choice.name }))}
          value={fields.location_group_ids.map(String)}
          searchable
          disabled={disabled}
          onChange={(values) => change({ location_group_ids: ids(values) })}
        />
        <Select
          label={t('flows.fields.reentry')}
          data={[
            { value: 'once', label: t('flows.fields.reentryOnce') },
            { value: 'after_days', label: t('flows.fields.reentryAfter') },
          ]}
          value={fields.reentry}
          allowDeselect={false}
          disabled={disabled}
          onChange={(value) =>
            value === 'after_days'
              ? change({ reentry: 'after_days', reentry_days: fields.reentry_days ?? 30 })
              : change({ reentry: 'once', reentry_days: null })
          }
        />
        {fields.reentry === 'after_days' && (
          <NumberInput
            label={t('flows.fields.reentryDays')}
            value={fields.reentry_days ?? ''}
            min={1}
            allowDecimal={false}
            disabled={disabled}
            onChange={(value) => change({ reentry_days: typeof value === 'number' ? value : null })}
          />
        )}
      </Stack>
    </Modal>
  );
}
