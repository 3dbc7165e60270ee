import { Alert, Badge, Group, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { formatCount, formatCurrency, formatDate, formatPercent, languageOf } from '../../format/index.js';
import type { GuestClv } from '../../schemas/guest-metrics.js';
import { Tile } from './Tile.js';

/**
 * The guest's lifetime value (docs/clv.md): predicted CLV over the fit's horizon, the next twelve months'
 * value, expected visits and the probability they are still a guest. Historical averages are marked as such;
 * before the company's first fit, or for a guest the fit did not see, it says the figures are not there yet.
 */
export function ClvBlock({
  clv,
  hasVisits,
  timeZone,
}: {
  clv: GuestClv | null;
  hasVisits: boolean;
  timeZone?: string;
}) {
  const { t, i18n } = useTranslation();
  const language = languageOf(i18n.language);
  const figures = clv?.figures ?? null;
  return (
    <Stack gap="sm" data-testid="clv-block">
      <Group gap="sm" wrap="wrap">
        <Title order={3} size="h4">
          {t('profile.clv.title')}
        </Title>
        {clv && (
          <Badge variant="dot" color={clv.method === 'model' ? 'blue' : 'orange'}>
            {t(`profile.clv.method.${clv.method}`)}
          </Badge>
        )}
      </Group>
      {clv === null ? (
        <Text c="dimmed">{t('profile.clv.computing')}</Text>
      ) : (
        <>
          {clv.method === 'historical' && (
            <Alert color="yellow" variant="light" p="sm">
              {t('profile.clv.historical')}
            </Alert>
          )}
          {figures === null ? (
            <Text c="dimmed">
              {t(hasVisits ? 'profile.clv.notYet' : 'profile.clv.noVisits', {
                date: formatDate(clv.fitted_at, language, timeZone),
              })}
            </Text>
          ) : (
            <SimpleGrid cols={{ base: 2, lg: 4 }} spacing="sm">
              <Tile
                label={t('profile.clv.predicted', { years: formatCount(clv.horizon_years, language) })}
                value={formatCurrency(figures.clv)}
              />
              <Tile
                label={t('profile.clv.nextYear')}
                value={formatCurrency(figures.annual_clv)}
                note={t('profile.clv.perVisit', { amount: formatCurrency(figures.expected_spend_per_visit) })}
              />
              <Tile
                label={t('profile.clv.expectedVisits')}
                value={formatCount(Math.round(figures.clf * 10) / 10, language)}
              />
              <Tile
                label={t('profile.clv.alive')}
                value={
                  figures.probability_alive === null
                    ? '—'
                    : // Under half a percent is not "0%": the model never says a guest is surely gone.
                      figures.probability_alive > 0 && figures.probability_alive < 0.005
                      ? `< ${formatPercent(1, { whole: true })}`
                      : formatPercent(figures.probability_alive * 100, { whole: true })
                }
                note={figures.probability_alive === null ? t('profile.clv.aliveUnknown') : undefined}
              />
            </SimpleGrid>
          )}
          <Text size="sm" c="dimmed">
            {t('profile.clv.fitted', { date: formatDate(clv.fitted_at, language, timeZone) })}
          </Text>
        </>
      )}
    </Stack>
  );
}
