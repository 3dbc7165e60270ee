import { Alert, Badge, Button, Group, Loader, Paper, Stack, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { Recommendation } from '../../schemas/home-dashboard.js';
import { formatDateTime, languageOf } from '../../format/index.js';
import { formatFigure } from '../kit/figure-format.js';
import { recommendationParams } from './recommendation-text.js';

/**
 * The ranked recommendations: each one's sentence, audience, expected revenue and assumed response, and the
 * button that saves its segment (marketers; others are told why they cannot). Empty: a sentence saying why; while
 * more audiences are being counted on the server, a line saying so instead.
 */
export function RecommendationList({
  items,
  countedAt,
  timeZone,
  loading,
  counting,
  incomplete,
  canCreate,
  savingKind,
  saveProblem,
  onFollow,
}: {
  items: Recommendation[] | null;
  /** When the audiences were counted (ISO instant), or null. */
  countedAt: string | null;
  timeZone?: string | undefined;
  loading: boolean;
  /** The screen asks again for audiences being counted: the list says so. */
  counting: boolean;
  /** The answer shown leaves out audiences not counted yet: not "nothing to recommend". */
  incomplete: boolean;
  canCreate: boolean;
  /** The kind whose segment is being saved, or null. */
  savingKind: string | null;
  /** Why the last save failed, or null. */
  saveProblem: string | null;
  onFollow: (item: Recommendation, name: string) => void;
}) {
  const { t, i18n } = useTranslation();
  return (
    <Stack gap="sm" component="section" aria-labelledby="home-recommendations">
      <div>
        <Title order={3} size="h4" id="home-recommendations">
          {t('homeDashboard.recommendations.title')}
        </Title>
        <Text size="sm" c="dimmed">
          {t('homeDashboard.recommendations.intro')}
        </Text>
        {countedAt !== null && (items ?? []).length > 0 && (
          <Text size="xs" c="dimmed" data-testid="recommendations-counted-at">
            {t('homeDashboard.recommendations.countedAt', {
              when: formatDateTime(countedAt, languageOf(i18n.language), timeZone),
            })}
          </Text>
        )}
      </div>
      {saveProblem && (
        <Alert color="red" role="alert" title={t('homeDashboard.recommendations.saveFailed')}>
          {saveProblem}
        </Alert>
      )}
      {!canCreate && <Text size="sm">{t('homeDashboard.recommendations.marketerOnly')}</Text>}
      {counting && (
        <Group gap="xs" wrap="nowrap" role="status" data-testid="recommendations-counting">
          <Loader size="xs" aria-hidden style={{ flexShrink: 0 }} />
          <Text size="sm" style={{ minWidth: 0 }}>
            {t('homeDashboard.recommendations.counting')}
          </Text>
        </Group>
      )}
      {items !== null && items.length === 0 && !loading && !incomplete && (
        <Text data-testid="recommendations-empty">{t('homeDashboard.recommendations.empty')}</Text>
      )}
      <Stack gap="sm" component="ol" p={0} m={0} style={{ listStyle: 'none' }}>
        {(items ?? []).map((item, index) => {
          const params = recommendationParams(item, t, i18n.language);
          const name = t(`homeDashboard.kinds.${item.kind}.segmentName`, params);
          return (
            <Paper
              component="li"
              key={`${item.kind}-${index}`}
              withBorder
              radius="md"
              p="md"
              data-recommendation={item.kind}
            >
              <Group justify="space-between" align="flex-start" gap="md" wrap="wrap">
                <Stack gap={4} style={{ flex: '1 1 18rem', minWidth: 0 }}>
                  <Group gap="xs">
                    <Badge variant="light" color="gray" aria-hidden>
                      {index + 1}
                    </Badge>
                    <Text fw={700}>{t(`homeDashboard.kinds.${item.kind}.title`, params)}</Text>
                  </Group>
                  <Text size="sm">{t(`homeDashboard.kinds.${item.kind}.body`, params)}</Text>
                  <Group gap="lg" mt={4}>
                    <Text size="sm">
                      {t('homeDashboard.recommendations.audience')}:{' '}
                      <Text span fw={700} data-audience={item.audience}>
                        {t('homeDashboard.recommendations.guests', {
                          value: formatFigure(item.audience, 'count', i18n.language),
                        })}
                      </Text>
                    </Text>
                    <Text size="sm">
                      {t('homeDashboard.recommendations.expected')}:{' '}
                      {item.expected_revenue === null ? (
                        <Text
                          span
                          fw={700}
                          title={t('homeDashboard.recommendations.noExpected')}
                          aria-label={t('homeDashboard.recommendations.noExpected')}
                        >
                          —
                        </Text>
                      ) : (
                        <Text span fw={700}>
                          {formatFigure(item.expected_revenue, 'currency', i18n.language)}
                        </Text>
                      )}
                    </Text>
                    <Text size="sm" c="dimmed">
                      {t('homeDashboard.recommendations.rate', {
                        value: formatFigure(item.response_rate * 100, 'percent', i18n.language),
                      })}
                    </Text>
                  </Group>
                </Stack>
                <Button
                  disabled={!canCreate || (savingKind !== null && savingKind !== item.kind)}
                  loading={savingKind === item.kind}
                  onClick={() => onFollow(item, name)}
                  aria-label={`${t('homeDashboard.recommendations.action')}: ${name}`}
                >
                  {t('homeDashboard.recommendations.action')}
                </Button>
              </Group>
            </Paper>
          );
        })}
      </Stack>
    </Stack>
  );
}
