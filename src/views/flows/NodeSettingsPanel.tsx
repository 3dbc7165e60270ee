import { Button, NumberInput, Select, Stack, Text, Textarea, TextInput, Title } from '@mantine/core';
import { forwardRef } from 'react';
import { useTranslation } from 'react-i18next';
import type { EditorChoice, EditorChoices } from '../../machines/campaign-update-mode.machine.js';
import { WEEKDAYS } from '../../schemas/campaigns.js';
import {
  DELAY_UNITS,
  UPDATABLE_SUBSCRIBER_FIELDS,
  type FlowActionSettings,
  type FlowDelaySettings,
  type FlowGraphItem,
} from '../../schemas/flows.js';
import { type FlowHandle, isCondition, isExit } from '../../machines/support/flow-edits.js';
import { nodeTypeName } from './node-summary.js';

type Settings = FlowGraphItem['settings'];

/** The link pickers' "nowhere" (step keys are never empty). */
const NO_LINK = '';

const options = (choices: readonly EditorChoice[]) =>
  choices.map((choice) => ({ value: String(choice.id), label: choice.name }));

/** A NumberInput's value as a number; an emptied box is 0, which the schema refuses (the node shows it). */
const numberOf = (value: number | string): number => (typeof value === 'number' ? value : Number(value) || 0);

/**
 * The settings of the selected step, a form per type (the schemas' discriminated unions): lists, segments,
 * locations, templates and senders from the pickers. Every change is sent as the step's whole new settings.
 * Below them, where the step leads (a condition's yes and no paths): connecting without a mouse.
 */
export const NodeSettingsPanel = forwardRef<
  HTMLDivElement,
  {
    item: FlowGraphItem | null;
    choices: EditorChoices;
    disabled: boolean;
    /** The steps a link may go to (every step but triggers), labelled as the canvas shows them. */
    targets: readonly { value: string; label: string }[];
    onChange: (settings: Settings) => void;
    /** Links the selected step's way out to a step, or unlinks it (null): the keyboard's way to connect. */
    onLink: (handle: FlowHandle, target: string | null) => void;
    onDelete: () => void;
  }
>(function NodeSettingsPanel({ item, choices, disabled, targets, onChange, onLink, onDelete }, ref) {
  const { t } = useTranslation();
  return (
    <Stack gap="sm" ref={ref} component="section" aria-label={t('flows.builder.nodeSettings')}>
      <Title order={3} size="h5">
        {t('flows.builder.nodeSettings')}
      </Title>
      {item === null ? (
        <Text size="sm" c="dimmed">
          {t('flows.builder.noSelection')}
        </Text>
      ) : (
        <>
          <Text size="sm" fw={600}>
            {nodeTypeName(t, item)}
          </Text>
          <SettingsForm settings={item.settings} choices={choices} disabled={disabled} onChange={onChange} />
          {!isExit(item) &&
            (isCondition(item) ? (['next', 'no'] as const) : (['next'] as const)).map((handle) => (
              <Select
                key={handle}
                label={t(
                  `flows.builder.${isCondition(item) ? (handle === 'no' ? 'linkNo' : 'linkYes') : 'linkNext'}`,
                )}
                // "Nowhere" is an option, not a clear button, so the keyboard can unlink as it links.
                data={[
                  { value: NO_LINK, label: t('flows.builder.linkNone') },
                  ...targets.filter((target) => target.value !== item.key),
                ]}
                value={(handle === 'no' ? item.no_key : item.next_key) ?? NO_LINK}
                allowDeselect={false}
                disabled={disabled}
                data-link={handle}
                onChange={(value) => onLink(handle, value === null || value === NO_LINK ? null : value)}
              />
            ))}
          <Button color="red" variant="light" disabled={disabled} onClick={onDelete}>
            {t('flows.builder.deleteNode')}
          </Button>
        </>
      )}
    </Stack>
  );
});

function SettingsForm({
  settings,
  choices,
  disabled,
  onChange,
}: {
  settings: Settings;
  choices: EditorChoices;
  disabled: boolean;
  onChange: (settings: Settings) => void;
}) {
  const { t } = useTranslation();
  const pick = (
    label: string,
    list: readonly EditorChoice[],
    value: number | null,
    set: (id: number) => void,
  ) => (
    <Select
      label={t(`flows.fields.${label}`)}
      data={options(list)}
      value={value === null ? null : String(value)}
      allowDeselect={false}
      searchable
      disabled={disabled}
      onChange={(picked) => picked !== null && set(Number(picked))}
    />
  );
  const number = (label: string, value: number, set: (value: number) => void, min = 1) => (
    <NumberInput
      label={t(`flows.fields.${label}`)}
      value={value}
      min={min}
      allowDecimal={false}
      disabled={disabled}
      onChange={(changed) => set(numberOf(changed))}
    />
  );
  const s = settings;
  switch (s.type) {
    case 'new_subscriber':
    case 'first_visit':
    case 'first_visit_anniversary':
    case 'exit':
      return null;
    case 'joined_list':
    case 'add_to_list':
    case 'remove_from_list':
      return pick('list', choices.lists, s.list_id, (list_id) => onChange({ ...s, list_id }));
    case 'entered_segment':
      return pick('segment', choices.segments, s.segment_id, (segment_id) => onChange({ ...s, segment_id }));
    case 'visit_at_location':
      return pick('location', choices.locations, s.location_id, (location_id) =>
        onChange({ ...s, location_id }),
      );
    case 'nth_visit':
      return number('visitNumber', s.visit_number, (visit_number) => onChange({ ...s, visit_number }), 2);
    case 'no_visit_for':
      return number('days', s.days, (days) => onChange({ ...s, days }));
    case 'birthday':
      return number('daysBefore', s.days_before, (days_before) => onChange({ ...s, days_before }), 0);
    case 'spend_passes':
      return number('amount', s.amount_cents, (amount_cents) => onChange({ ...s, amount_cents }));
    case 'send_email':
      return <EmailForm settings={s} choices={choices} disabled={disabled} onChange={onChange} />;
    case 'update_field':
      return (
        <>
          <Select
            label={t('flows.fields.field')}
            data={UPDATABLE_SUBSCRIBER_FIELDS.map((field) => ({
              value: field,
              label: t(`flows.subscriberFields.${field}`),
            }))}
            value={s.field}
            allowDeselect={false}
            disabled={disabled}
            onChange={(field) => field && onChange({ ...s, field: field })}
          />
          <TextInput
            label={t('flows.fields.value')}
            value={s.value}
            disabled={disabled}
            onChange={(event) => onChange({ ...s, value: event.currentTarget.value })}
          />
        </>
      );
    case 'notify_staff':
      return (
        <>
          <TextInput
            label={t('flows.fields.emails')}
            value={s.emails.join(', ')}
            disabled={disabled}
            onChange={(event) =>
              onChange({
                ...s,
                emails: event.currentTarget.value
                  .split(',')
                  .map((email) => email.trim())
                  .filter((email, index, all) => email !== '' || index === all.length - 1),
              })
            }
          />
          <TextInput
            label={t('flows.fields.subject')}
            value={s.subject}
            disabled={disabled}
            onChange={(event) => onChange({ ...s, subject: event.currentTarget.value })}
          />
          <Textarea
            label={t('flows.fields.message')}
            value={s.message}
            autosize
            minRows={2}
            disabled={disabled}
            onChange={(event) => onChange({ ...s, message: event.currentTarget.value })}
          />
        </>
      );
    case 'webhook':
      return (
        <TextInput
          label={t('flows.fields.url')}
          value={s.url}
          type="url"
          disabled={disabled}
          onChange={(event) => onChange({ ...s, url: event.currentTarget.value })}
        />
      );
    case 'condition':
      return <ConditionForm settings={s} choices={choices} disabled={disabled} onChange={onChange} />;
    case 'wait':
    case 'wait_until':
      return <DelayForm settings={s} disabled={disabled} onChange={onChange} />;
  }
}

function EmailForm({
  settings: s,
  choices,
  disabled,
  onChange,
}: {
  settings: Extract<FlowActionSettings, { type: 'send_email' }>;
  choices: EditorChoices;
  disabled: boolean;
  onChange: (settings: Settings) => void;
}) {
  const { t } = useTranslation();
  const senders = choices.senders.filter((sender) => sender.verified);
  return (
    <>
      <Select
        label={t('flows.fields.template')}
        data={options(choices.templates)}
        value={s.template_id === null ? null : String(s.template_id)}
        searchable
        clearable
        disabled={disabled}
        onChange={(picked) => onChange({ ...s, template_id: picked === null ? null : Number(picked) })}
      />
      <TextInput
        label={t('flows.fields.subject')}
        value={s.subject}
        disabled={disabled}
        onChange={(event) => onChange({ ...s, subject: event.currentTarget.value })}
      />
      <TextInput
        label={t('flows.fields.preheader')}
        value={s.preheader}
        disabled={disabled}
        onChange={(event) => onChange({ ...s, preheader: event.currentTarget.value })}
      />
      <Select
        label={t('flows.fields.sender')}
        data={[
          { value: 'default', label: t('flows.fields.defaultSender') },
          ...senders.map((sender) => ({
            value: String(sender.id),
            label: `${sender.name} <${sender.email}>`,
          })),
        ]}
        value={s.sender_id === null ? 'default' : String(s.sender_id)}
        allowDeselect={false}
        disabled={disabled}
        onChange={(picked) =>
          onChange({ ...s, sender_id: picked === null || picked === 'default' ? null : Number(picked) })
        }
      />
    </>
  );
}

function ConditionForm({
  settings: s,
  choices,
  disabled,
  onChange,
}: {
  settings: Extract<FlowActionSettings, { type: 'condition' }>;
  choices: EditorChoices;
  disabled: boolean;
  onChange: (settings: Settings) => void;
}) {
  const { t } = useTranslation();
  const conditions = [
    'in_segment',
    'visited_since_entering',
    'opened_last_email',
    'clicked_last_email',
  ] as const;
  const firstSegment = choices.segments[0]?.id;
  return (
    <>
      <Select
        label={t('flows.fields.condition')}
        data={conditions
          .filter((condition) => condition !== 'in_segment' || firstSegment !== undefined)
          .map((condition) => ({ value: condition, label: t(`flows.conditions.${condition}`) }))}
        value={s.rule.condition}
        allowDeselect={false}
        disabled={disabled}
        onChange={(condition) => {
          if (condition === 'in_segment' && firstSegment !== undefined)
            onChange({ ...s, rule: { condition: 'in_segment', segment_id: firstSegment } });
          else if (condition && condition !== 'in_segment')
            onChange({
              ...s,
              rule: { condition: condition } as typeof s.rule,
            });
        }}
      />
      {s.rule.condition === 'in_segment' && (
        <Select
          label={t('flows.fields.segment')}
          data={options(choices.segments)}
          value={String(s.rule.segment_id)}
          allowDeselect={false}
          searchable
          disabled={disabled}
          onChange={(picked) =>
            picked !== null &&
            onChange({ ...s, rule: { condition: 'in_segment', segment_id: Number(picked) } })
          }
        />
      )}
    </>
  );
}

function DelayForm({
  settings: s,
  disabled,
  onChange,
}: {
  settings: FlowDelaySettings;
  disabled: boolean;
  onChange: (settings: Settings) => void;
}) {
  const { t } = useTranslation();
  if (s.type === 'wait')
    return (
      <>
        <NumberInput
          label={t('flows.fields.waitAmount')}
          value={s.amount}
          min={1}
          allowDecimal={false}
          disabled={disabled}
          onChange={(amount) => onChange({ ...s, amount: numberOf(amount) })}
        />
        <Select
          label={t('flows.fields.unit')}
          data={DELAY_UNITS.map((unit) => ({ value: unit, label: t(`flows.units.${unit}`) }))}
          value={s.unit}
          allowDeselect={false}
          disabled={disabled}
          onChange={(unit) => unit && onChange({ ...s, unit: unit })}
        />
      </>
    );
  return (
    <>
      <Select
        label={t('flows.fields.weekday')}
        data={WEEKDAYS.map((day) => ({ value: day, label: t(`flows.weekdays.${day}`) }))}
        value={s.weekday}
        allowDeselect={false}
        disabled={disabled}
        onChange={(weekday) => weekday && onChange({ ...s, weekday: weekday })}
      />
      <TextInput
        label={t('flows.fields.time')}
        type="time"
        value={s.time}
        disabled={disabled}
        onChange={(event) => onChange({ ...s, time: event.currentTarget.value })}
      />
    </>
  );
}
