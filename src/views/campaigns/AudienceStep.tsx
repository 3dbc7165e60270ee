import { Alert, Group, Loader, MultiSelect, Paper, SimpleGrid, Stack, Text, TextInput } from '@mantine/core';
import { useSelector } from '@xstate/react';
import { useTranslation } from 'react-i18next';
import { formatCount, languageOf } from '../../format/index.js';
import type { EditorChoice } from '../../machines/campaign-update-mode.machine.js';
import { CAMPAIGN_LIMITS, type CampaignAudience } from '../../schemas/campaigns.js';
import { LIMITS } from '../../schemas/constants.js';
import { fieldMessage } from '../shared/field-message.js';
import type { CampaignEditorActor } from './campaign-editor-actor.js';

const asOptions = (choices: readonly EditorChoice[]) =>
  choices.map((choice) => ({ value: String(choice.id), label: choice.name }));

/** The audience step: the campaign's name, the segments and lists it goes to, and the live count. */
export function AudienceStep({ actor }: { actor: CampaignEditorActor }) {
  const { t } = useTranslation();
  const name = useSelector(actor, (state) => state.context.draft.name);
  const audience = useSelector(actor, (state) => state.context.draft.audience);
  const choices = useSelector(actor, (state) => state.context.choices);
  const fieldErrors = useSelector(actor, (state) => state.context.fieldErrors);
  const busy = useSelector(actor, (state) => state.hasTag('busy'));
  const picker = (field: keyof CampaignAudience, label: string, options: readonly EditorChoice[]) => (
    <MultiSelect
      label={label}
      data={asOptions(options)}
      value={audience[field].map(String)}
      onChange={(values) =>
        actor.send({ type: 'audience.change', audience: { [field]: values.map(Number) } })
      }
      searchable
      clearable
      hidePickedOptions
      maxValues={CAMPAIGN_LIMITS.maxAudienceEntries}
      nothingFoundMessage={t('campaigns.audience.nothingFound')}
      error={fieldMessage(t, fieldErrors[`audience.${field}`], label)}
      disabled={busy}
    />
  );
  const nameLabel = t('campaigns.fields.name');
  return (
    <SimpleGrid cols={{ base: 1, md: 3 }} spacing="lg">
      <Stack gap="md" style={{ gridColumn: 'span 2' }}>
        <TextInput
          label={nameLabel}
          value={name}
          onChange={(event) => actor.send({ type: 'name.change', value: event.currentTarget.value })}
          maxLength={LIMITS.nameMaxLength}
          withAsterisk
          error={fieldMessage(t, fieldErrors.name, nameLabel)}
          disabled={busy}
          data-autofocus
        />
        {picker('segment_ids', t('campaigns.audience.segments'), choices?.segments ?? [])}
        {picker('list_ids', t('campaigns.audience.lists'), choices?.lists ?? [])}
        <Text size="sm" c="dimmed">
          {t('campaigns.audience.narrowHint')}
        </Text>
        {picker('location_ids', t('campaigns.audience.locations'), choices?.locations ?? [])}
        {picker('location_group_ids', t('campaigns.audience.groups'), choices?.groups ?? [])}
      </Stack>
      <AudienceCountCard actor={actor} />
    </SimpleGrid>
  );
}

/** The live recipient count after suppression, re-asked as the picks change. */
function AudienceCountCard({ actor }: { actor: CampaignEditorActor }) {
  const { t, i18n } = useTranslation();
  const language = languageOf(i18n.language);
  const count = useSelector(actor, (state) => state.context.count);
  const counting = useSelector(
    actor,
    (state) => state.hasTag('counting') || state.matches({ editing: { audience: 'waiting' } }),
  );
  const empty = useSelector(actor, (state) => state.matches({ editing: { audience: 'empty' } }));
  const failed = useSelector(actor, (state) => state.matches({ editing: { audience: 'uncounted' } }));
  return (
    <Paper withBorder p="md" radius="md" aria-live="polite" style={{ alignSelf: 'start' }}>
      <Stack gap="xs">
        <Text fw={600}>{t('campaigns.audience.countTitle')}</Text>
        {counting ? (
          <Group gap="xs">
            <Loader size="xs" />
            <Text size="sm">{t('campaigns.audience.counting')}</Text>
          </Group>
        ) : empty ? (
          <Text size="sm" c="dimmed">
            {t('campaigns.audience.pickSomeone')}
          </Text>
        ) : failed ? (
          <Alert color="yellow">{t('campaigns.audience.countFailed')}</Alert>
        ) : count ? (
          <>
            <Text size="xl" fw={700} data-testid="audience-recipients">
              {t('campaigns.audience.recipients', {
                formatted: formatCount(count.recipients, language),
              })}
            </Text>
            <Text size="sm" c="dimmed">
              {t('campaigns.audience.suppressed', {
                formatted: formatCount(count.suppressed, language),
              })}
            </Text>
          </>
        ) : null}
      </Stack>
    </Paper>
  );
}
