import {
  Alert,
  Badge,
  Button,
  Divider,
  Group,
  NumberInput,
  Paper,
  Select,
  MultiSelect,
  Stack,
  Text,
} from '@mantine/core';
import { useSelector } from '@xstate/react';
import { useTranslation } from 'react-i18next';
import type { ActorRefFrom } from 'xstate';
import type { BuilderChoices, segmentBuilderMachine } from '../../machines/segment-builder.machine.js';
import type { FieldErrors } from '../../machines/support/api-problem.js';
import {
  operatorOf,
  rulesLackingValues,
  takesOption,
  type DraftGroup,
  type DraftRule,
} from '../../machines/support/segment-draft.js';
import type { SegmentType } from '../../schemas/segment-catalogue.js';
import { fieldMessage } from '../shared/field-message.js';
import { LoadFailedAlert } from '../shared/LoadFailedAlert.js';
import { problemMessage } from '../shared/problem-message.js';
import { LiveCount } from './LiveCount.js';
import { RuleValueEditor } from './RuleValueEditor.js';

/** The rule builder's actor, as its view sees it. */
export type BuilderActor = ActorRefFrom<typeof segmentBuilderMachine>;

/**
 * The visual rule builder: groups joined by "or", each a card of rules joined by "and"; each rule's type (not-live
 * types shown disabled with the reason), condition, value editor (by the catalogue's value kind) and options;
 * add, duplicate and remove rules and groups; undo; the live count. Problems are shown on the rule they name.
 */
export function RuleBuilder({ actor }: { actor: BuilderActor }) {
  const { t } = useTranslation();
  const loading = useSelector(actor, (state) => state.matches('loading'));
  const failed = useSelector(actor, (state) => state.matches('failed'));
  const types = useSelector(actor, (state) => state.context.types);
  const choices = useSelector(actor, (state) => state.context.choices);
  const groups = useSelector(actor, (state) => state.context.groups);
  const canUndo = useSelector(actor, (state) => state.context.history.length > 0 && state.matches('ready'));
  const ruleErrors = useSelector(actor, (state) => state.context.ruleErrors);
  const setErrors = useSelector(actor, (state) => state.context.setErrors);
  const problem = useSelector(actor, (state) => state.context.problem);
  const incomplete = useSelector(actor, (state) => state.matches({ ready: 'incomplete' }));
  if (failed)
    return (
      <LoadFailedAlert
        title={t('segments.builder.failed')}
        message={problemMessage(t, 'segments', problem)}
        retryLabel={t('kit.retry')}
        onRetry={() => actor.send({ type: 'catalogue.retry' })}
      />
    );
  if (loading || !types || !choices)
    return (
      <Text size="sm" c="dimmed">
        {t('segments.builder.loading')}
      </Text>
    );
  const lacking = incomplete ? new Set(rulesLackingValues(types, groups)) : new Set<string>();
  return (
    <Stack gap="sm">
      <Group justify="space-between" wrap="wrap" gap="xs">
        <Stack gap={0}>
          <Text fw={600}>{t('segments.builder.title')}</Text>
          <Text size="xs" c="dimmed">
            {t('segments.builder.hint')}
          </Text>
        </Stack>
        <Button
          size="xs"
          variant="default"
          disabled={!canUndo}
          onClick={() => actor.send({ type: 'edit.undo' })}
        >
          {t('segments.builder.undo')}
        </Button>
      </Group>
      <LiveCount actor={actor} />
      {Object.keys(setErrors).length > 0 && (
        <Alert color="red" p="xs">
          {Object.entries(setErrors).map(([path, failure]) => (
            <Text key={path} size="sm">
              {fieldMessage(t, failure, t('segments.builder.title'))}
            </Text>
          ))}
        </Alert>
      )}
      {groups.length === 0 && <Text size="sm">{t('segments.builder.noGroups')}</Text>}
      {groups.map((group, index) => (
        <Stack key={group.key} gap="sm">
          {index > 0 && (
            <Divider
              label={
                <Badge variant="light" color="grape">
                  {t('segments.builder.or')}
                </Badge>
              }
            />
          )}
          <GroupCard
            actor={actor}
            group={group}
            number={index + 1}
            types={types}
            choices={choices}
            ruleErrors={ruleErrors}
            lacking={lacking}
          />
        </Stack>
      ))}
      <Group>
        <Button size="xs" variant="light" onClick={() => actor.send({ type: 'group.add' })}>
          {t('segments.builder.addGroup')}
        </Button>
      </Group>
    </Stack>
  );
}

/** One group: its rules joined by "and", and its add, duplicate and remove buttons. */
function GroupCard({
  actor,
  group,
  number,
  types,
  choices,
  ruleErrors,
  lacking,
}: {
  actor: BuilderActor;
  group: DraftGroup;
  number: number;
  types: SegmentType[];
  choices: BuilderChoices;
  ruleErrors: Record<string, FieldErrors>;
  lacking: ReadonlySet<string>;
}) {
  const { t } = useTranslation();
  return (
    <Paper withBorder p="sm" radius="md" component="fieldset" m={0} style={{ minWidth: 0 }}>
      <Stack gap="sm">
        <Group justify="space-between" wrap="wrap" gap="xs">
          <Text component="legend" fw={600} size="sm" p={0}>
            {t('segments.builder.group', { number })}
          </Text>
          <Group gap={4} wrap="wrap">
            <Button
              size="compact-xs"
              variant="subtle"
              onClick={() => actor.send({ type: 'group.duplicate', group: group.key })}
              aria-label={t('segments.builder.duplicateGroup', { number })}
            >
              {t('segments.builder.duplicate')}
            </Button>
            <Button
              size="compact-xs"
              variant="subtle"
              color="red"
              onClick={() => actor.send({ type: 'group.remove', group: group.key })}
              aria-label={t('segments.builder.removeGroup', { number })}
            >
              {t('segments.builder.remove')}
            </Button>
          </Group>
        </Group>
        {group.rules.length === 0 && (
          <Text size="sm" c="dimmed">
            {t('segments.builder.emptyGroup')}
          </Text>
        )}
        {group.rules.map((rule, index) => (
          <Stack key={rule.key} gap={4}>
            {index > 0 && (
              <Text size="xs" fw={600} c="dimmed" tt="uppercase">
                {t('segments.builder.and')}
              </Text>
            )}
            <RuleRow
              actor={actor}
              group={group}
              rule={rule}
              label={t('segments.builder.rule', { number: index + 1, group: number })}
              names={{ number: index + 1, group: number }}
              types={types}
              choices={choices}
              errors={ruleErrors[rule.key] ?? {}}
              lacksValue={lacking.has(rule.key)}
            />
          </Stack>
        ))}
        <Group>
          <Button
            size="xs"
            variant="subtle"
            onClick={() => actor.send({ type: 'rule.add', group: group.key })}
          >
            {t('segments.builder.addRule')}
          </Button>
        </Group>
      </Stack>
    </Paper>
  );
}

/** One rule: type, condition, value, options and its buttons, with the problems the server named on it. */
function RuleRow({
  actor,
  group,
  rule,
  label,
  names,
  types,
  choices,
  errors,
  lacksValue,
}: {
  actor: BuilderActor;
  group: DraftGroup;
  rule: DraftRule;
  label: string;
  names: { number: number; group: number };
  types: SegmentType[];
  choices: BuilderChoices;
  errors: FieldErrors;
  lacksValue: boolean;
}) {
  const { t } = useTranslation();
  const at = { group: group.key, rule: rule.key };
  const type = types.find((entry) => entry.type === rule.type);
  const operator = operatorOf(types, rule.type, rule.operator);
  const notLive = t('segmentRules.notLive');
  const message = (field: string, name: string) => fieldMessage(t, errors[field], name);
  const valueLabel = `${label}: ${t('segments.builder.value')}`;
  const otherErrors = Object.entries(errors).filter(
    ([field]) => !['type', 'operator', 'value', 'window_days', 'group_ids'].includes(field),
  );
  return (
    <Paper p="xs" radius="sm" bg="var(--mantine-color-gray-0)" role="group" aria-label={label}>
      <Group gap="xs" align="flex-start" wrap="wrap">
        <Select
          size="sm"
          w={{ base: '100%', sm: 200 }}
          label={t('segments.builder.type')}
          aria-label={`${label}: ${t('segments.builder.type')}`}
          allowDeselect={false}
          searchable
          data={types.map((entry) => ({
            value: entry.type,
            label: entry.live ? entry.label : `${entry.label} — ${notLive}`,
            disabled: !entry.live && entry.type !== rule.type,
          }))}
          value={rule.type}
          error={message('type', t('segments.builder.type'))}
          onChange={(value) => value && actor.send({ type: 'rule.type', ...at, value })}
          comboboxProps={{ withinPortal: true }}
        />
        <Select
          size="sm"
          w={{ base: '100%', sm: 170 }}
          label={t('segments.builder.operator')}
          aria-label={`${label}: ${t('segments.builder.operator')}`}
          allowDeselect={false}
          data={(type?.operators ?? []).map((item) => ({ value: item.operator, label: item.label }))}
          value={rule.operator}
          error={message('operator', t('segments.builder.operator'))}
          onChange={(value) => value && actor.send({ type: 'rule.operator', ...at, value })}
          comboboxProps={{ withinPortal: true }}
        />
        {operator && (
          <RuleValueEditor
            kind={operator.value_kind}
            range={operator.range}
            value={rule.value}
            label={t('segments.builder.value')}
            name={valueLabel}
            choices={choices}
            error={
              message('value', t('segments.builder.value')) ??
              (lacksValue ? t('segments.builder.needsValue') : undefined)
            }
            onChange={(value) => actor.send({ type: 'rule.value', ...at, value })}
          />
        )}
        {takesOption(types, rule.type, 'window_days') && (
          <NumberInput
            size="sm"
            w={{ base: '100%', sm: 170 }}
            label={type?.options.find((item) => item.option === 'window_days')?.label}
            aria-label={`${label}: ${type?.options.find((item) => item.option === 'window_days')?.label ?? ''}`}
            placeholder={t('segments.builder.allTime')}
            min={1}
            allowDecimal={false}
            allowNegative={false}
            value={rule.window_days ?? ''}
            error={message('window_days', t('segments.builder.value'))}
            onChange={(value) =>
              actor.send({ type: 'rule.window', ...at, value: value === '' ? null : Number(value) })
            }
          />
        )}
        {takesOption(types, rule.type, 'group_ids') && (
          <MultiSelect
            size="sm"
            w={{ base: '100%', sm: 220 }}
            label={type?.options.find((item) => item.option === 'group_ids')?.label}
            data={choices.groups.map((item) => ({ value: String(item.id), label: item.name }))}
            value={rule.group_ids.map(String)}
            error={message('group_ids', t('segments.builder.value'))}
            onChange={(value) => actor.send({ type: 'rule.groups', ...at, value: value.map(Number) })}
            comboboxProps={{ withinPortal: true }}
          />
        )}
        <Group gap={4} mt={{ base: 0, sm: 26 }} wrap="nowrap">
          <Button
            size="compact-sm"
            variant="subtle"
            onClick={() => actor.send({ type: 'rule.duplicate', ...at })}
            aria-label={t('segments.builder.duplicateRule', names)}
          >
            {t('segments.builder.duplicate')}
          </Button>
          <Button
            size="compact-sm"
            variant="subtle"
            color="red"
            onClick={() => actor.send({ type: 'rule.remove', ...at })}
            aria-label={t('segments.builder.removeRule', names)}
          >
            {t('segments.builder.remove')}
          </Button>
        </Group>
      </Group>
      {otherErrors.length > 0 && (
        <Alert color="red" p="xs" mt="xs">
          {otherErrors.map(([field, failure]) => (
            <Text key={field} size="sm">
              {fieldMessage(t, failure, t('segments.builder.type'))}
            </Text>
          ))}
        </Alert>
      )}
    </Paper>
  );
}
