import { Alert, Group, Loader, Paper, SimpleGrid, Stack, Text } from '@mantine/core';
import { useSelector } from '@xstate/react';
import { useTranslation } from 'react-i18next';
import { formatCount, formatPercent, languageOf } from '../../format/index.js';
import { problemMessage } from '../shared/problem-message.js';
import type { BuilderActor } from './RuleBuilder.js';

/**
 * The builder's live count: all, marketable and trackable guests with their shares, over the header's
 * location picker. While the next count runs the last one stays, dimmed; rules lacking a value, rules the
 * server refused and a failed count each say so instead. Announced politely to screen readers.
 */
export function LiveCount({ actor }: { actor: BuilderActor }) {
  const { t, i18n } = useTranslation();
  const language = languageOf(i18n.language);
  const count = useSelector(actor, (state) => state.context.count);
  const problem = useSelector(actor, (state) => state.context.problem);
  const phase = useSelector(actor, (state) => {
    if (state.matches({ ready: 'incomplete' })) return 'incomplete';
    if (state.matches({ ready: 'refused' })) return 'refused';
    if (state.matches({ ready: 'unavailable' })) return 'unavailable';
    if (state.matches({ ready: 'counted' })) return 'counted';
    return 'counting';
  });
  const figures = count && [
    {
      key: 'all',
      label: t('segments.count.all'),
      value: count.all_customers,
      share: t('segments.count.ofAll', { pct: formatPercent(count.all_customers_pct, { empty: 'zero' }) }),
    },
    {
      key: 'marketable',
      label: t('segments.count.marketable'),
      value: count.marketable_customers,
      share: t('segments.count.ofSegment', { pct: formatPercent(count.marketable_pct, { empty: 'zero' }) }),
    },
    {
      key: 'trackable',
      label: t('segments.count.trackable'),
      value: count.trackable_customers,
      share: t('segments.count.ofSegment', { pct: formatPercent(count.trackable_pct, { empty: 'zero' }) }),
    },
  ];
  return (
    <Paper withBorder p="sm" radius="md" aria-live="polite" aria-busy={phase === 'counting'}>
      <Stack gap="xs">
        <Group justify="space-between" wrap="nowrap">
          <Text fw={600} size="sm">
            {t('segments.count.title')}
          </Text>
          {phase === 'counting' && (
            <Group gap={6} wrap="nowrap">
              <Loader size="xs" />
              <Text size="xs" c="dimmed">
                {t('segments.count.counting')}
              </Text>
            </Group>
          )}
        </Group>
        {phase === 'incomplete' && <Text size="sm">{t('segments.count.incomplete')}</Text>}
        {phase === 'refused' && (
          <Text size="sm" c="red.8">
            {t('segments.count.refused')}
          </Text>
        )}
        {phase === 'unavailable' && (
          <Alert color="red" p="xs">
            {problem?.code === 'rate_limited'
              ? t('segments.errors.rate_limited')
              : t('segments.count.failed')}{' '}
            {problem && problem.code !== 'rate_limited' ? problemMessage(t, 'segments', problem) : ''}
          </Alert>
        )}
        {figures && (phase === 'counted' || phase === 'counting') && (
          <SimpleGrid cols={{ base: 1, sm: 3 }} spacing="xs" opacity={phase === 'counting' ? 0.55 : 1}>
            {figures.map((figure) => (
              <Stack key={figure.key} gap={0} data-testid={`live-count-${figure.key}`}>
                <Text size="xs" c="dimmed">
                  {figure.label}
                </Text>
                <Text size="lg" fw={700}>
                  {formatCount(figure.value, language)}
                </Text>
                <Text size="xs" c="dimmed">
                  {figure.share}
                </Text>
              </Stack>
            ))}
          </SimpleGrid>
        )}
        <Text size="xs" c="dimmed">
          {t('segments.count.picker')}
        </Text>
      </Stack>
    </Paper>
  );
}
