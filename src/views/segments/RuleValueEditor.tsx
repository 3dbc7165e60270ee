import { Group, MultiSelect, NumberInput, Select, TagsInput, TextInput } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { HTML_LANG } from '../../schemas/constants.js';
import { DAY_PARTS, RFM_CELLS } from '../../schemas/segment-catalogue.js';
import type { BuilderChoices } from '../../machines/segment-builder.machine.js';
import type { BuilderValueKind } from '../../machines/support/segment-draft.js';
import { languageOf } from '../../format/index.js';

/** What one value editor is told: the kind, the value as edited, and where a change goes. */
interface ValueEditorProps {
  kind: BuilderValueKind;
  value: unknown;
  onChange: (value: unknown) => void;
  /** The field's visible label. */
  label: string;
  /** Its accessible name: the rule it belongs to too. */
  name: string;
  error?: string | undefined;
  choices: BuilderChoices;
}

/** A number as the API takes it; an emptied field is null (the rule then lacks a value). */
const numberOf = (value: number | string): number | null =>
  value === '' || typeof value === 'string' ? (value === '' ? null : Number(value)) : value;

/** The weekday or month names of the interface language (1-based), from the browser's Intl. */
function calendarNames(language: string, what: 'weekdays' | 'months'): { value: string; label: string }[] {
  const locale = HTML_LANG[languageOf(language)];
  if (what === 'months') {
    const format = new Intl.DateTimeFormat(locale, { month: 'long', timeZone: 'UTC' });
    return Array.from({ length: 12 }, (_, index) => ({
      value: String(index + 1),
      label: format.format(Date.UTC(2024, index, 1)),
    }));
  }
  // 1 January 2024 was a Monday: the API's weekday 1.
  const format = new Intl.DateTimeFormat(locale, { weekday: 'long', timeZone: 'UTC' });
  return Array.from({ length: 7 }, (_, index) => ({
    value: String(index + 1),
    label: format.format(Date.UTC(2024, 0, 1 + index)),
  }));
}

/** One scalar value's field, chosen by its kind. */
function ScalarEditor({ kind, value, onChange, label, name, error }: Omit<ValueEditorProps, 'choices'>) {
  const { t } = useTranslation();
  const common = { label, 'aria-label': name, error, size: 'sm' as const, w: { base: '100%', sm: 150 } };
  const shown = typeof value === 'number' ? value : '';
  switch (kind) {
    case 'date':
      return (
        <TextInput
          {...common}
          type="date"
          value={typeof value === 'string' ? value : ''}
          onChange={(event) => onChange(event.currentTarget.value || null)}
        />
      );
    case 'boolean':
      return (
        <Select
          {...common}
          allowDeselect={false}
          data={[
            { value: 'true', label: t('segments.builder.yes') },
            { value: 'false', label: t('segments.builder.no') },
          ]}
          value={value === false ? 'false' : 'true'}
          onChange={(next) => onChange(next === 'true')}
        />
      );
    case 'dollars':
      return (
        <NumberInput
          {...common}
          leftSection="$"
          min={0}
          decimalScale={2}
          thousandSeparator=","
          value={shown}
          onChange={(next) => onChange(numberOf(next))}
        />
      );
    case 'probability':
      return (
        <NumberInput
          {...common}
          min={0}
          max={1}
          step={0.05}
          decimalScale={2}
          value={shown}
          onChange={(next) => onChange(numberOf(next))}
        />
      );
    case 'percent':
      return (
        <NumberInput
          {...common}
          rightSection="%"
          min={1}
          max={100}
          allowDecimal={false}
          value={shown}
          onChange={(next) => onChange(numberOf(next))}
        />
      );
    default:
      // count, days
      return (
        <NumberInput
          {...common}
          min={0}
          allowDecimal={false}
          allowNegative={false}
          value={shown}
          onChange={(next) => onChange(numberOf(next))}
        />
      );
  }
}

/**
 * A rule's value editor, chosen by the catalogue's value kind: a number (count, days, dollars, probability,
 * percent), a date, yes or no, a list of the company's locations, items, categories or lists, day parts,
 * weekdays, months, zips or RFM cells; nothing for a kind without a value; and two fields for a range.
 */
export function RuleValueEditor({
  range,
  ...props
}: ValueEditorProps & {
  /** Whether the operator takes `[min, max]`. */
  range: boolean;
}) {
  const { t, i18n } = useTranslation();
  const { kind, value, onChange, label, name, error, choices } = props;
  if (kind === 'none') return null;
  if (range) {
    const [from, to] = Array.isArray(value) ? (value as unknown[]) : [null, null];
    return (
      <Group gap="xs" wrap="wrap" align="flex-start">
        <ScalarEditor
          kind={kind}
          value={from}
          label={t('segments.builder.from')}
          name={`${name} — ${t('segments.builder.from')}`}
          error={error}
          onChange={(next) => onChange([next, to ?? null])}
        />
        <ScalarEditor
          kind={kind}
          value={to}
          label={t('segments.builder.to')}
          name={`${name} — ${t('segments.builder.to')}`}
          onChange={(next) => onChange([from ?? null, next])}
        />
      </Group>
    );
  }
  const list = (data: { value: string; label: string }[], numeric: boolean) => (
    <MultiSelect
      label={label}
      aria-label={name}
      error={error}
      size="sm"
      w={{ base: '100%', sm: 260 }}
      searchable
      nothingFoundMessage={t('segments.builder.nothingToPick')}
      data={data}
      value={Array.isArray(value) ? (value as unknown[]).map(String) : []}
      onChange={(next) => onChange(numeric ? next.map(Number) : next)}
      comboboxProps={{ withinPortal: true }}
    />
  );
  const named = (items: { id: number; name: string }[]) =>
    items.map((item) => ({ value: String(item.id), label: item.name }));
  switch (kind) {
    case 'location_ids':
      return list(named(choices.locations), true);
    case 'item_ids':
      return list(named(choices.items), true);
    case 'category_ids':
      return list(named(choices.categories), true);
    case 'list_ids':
      return list(named(choices.lists), true);
    case 'campaign_ids':
      return list([], true);
    case 'day_parts':
      return list(
        DAY_PARTS.map((part) => ({ value: part, label: t(`segments.builder.dayParts.${part}`) })),
        false,
      );
    case 'weekdays':
      return list(calendarNames(i18n.language, 'weekdays'), true);
    case 'months':
      return list(calendarNames(i18n.language, 'months'), true);
    case 'rfm_cells':
      return list(
        RFM_CELLS.map((cell) => ({ value: cell, label: t(`segmentRules.rfmCells.${cell}`) })),
        false,
      );
    case 'zips':
      return (
        <TagsInput
          label={label}
          aria-label={name}
          error={error}
          size="sm"
          w={{ base: '100%', sm: 260 }}
          value={Array.isArray(value) ? (value as unknown[]).map(String) : []}
          onChange={onChange}
        />
      );
    default:
      return <ScalarEditor {...props} />;
  }
}
