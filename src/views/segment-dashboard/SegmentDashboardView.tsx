import {
  Alert,
  Button,
  CloseButton,
  Group,
  Paper,
  Skeleton,
  SimpleGrid,
  Stack,
  Text,
  Title,
} from '@mantine/core';
import { useSelector } from '@xstate/react';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { LoadFailedAlert } from '../shared/LoadFailedAlert.js';
import { problemMessage } from '../shared/problem-message.js';
import { DistributionCharts } from './DistributionCharts.js';
import { ExportControls, type SegmentDashboardActor } from './ExportControls.js';
import { FigureCards } from './FigureCards.js';

/**
 * One segment's dashboard (v2): its name and close button, the export and campaign actions, the cached
 * figures of all, marketable and trackable members ("computing" with a refresh while absent) and the charts
 * of its members by visits, spend and location; skeletons while loading, a retry after a failure, a note when
 * nobody is in it.
 */
export function SegmentDashboardView({
  actor,
  onClose,
  background,
}: {
  actor: SegmentDashboardActor;
  onClose: () => void;
  /** "Export in the background" for this segment. */
  background?: ReactNode;
}) {
  const { t } = useTranslation();
  const loading = useSelector(actor, (state) => state.matches({ figures: 'loading' }));
  const failed = useSelector(actor, (state) => state.matches({ figures: 'failed' }));
  const dashboard = useSelector(actor, (state) => state.context.dashboard);
  const problem = useSelector(actor, (state) => state.context.problem);
  return (
    <Paper withBorder radius="md" p={{ base: 'sm', sm: 'lg' }} aria-busy={loading}>
      <Stack gap="md">
        <Group justify="space-between" align="flex-start" wrap="nowrap">
          <Stack gap={2} miw={0}>
            <Text size="sm" c="dimmed">
              {t('segmentDashboard.title')}
            </Text>
            <Title order={2} size="h3" style={{ overflowWrap: 'anywhere' }}>
              {dashboard?.segment.name ?? (loading ? <Skeleton height={26} width={200} /> : '')}
            </Title>
          </Stack>
          <CloseButton aria-label={t('segmentDashboard.close')} onClick={onClose} />
        </Group>
        {failed && (
          <LoadFailedAlert
            title={t('segmentDashboard.loadFailed')}
            message={problemMessage(t, 'segmentDashboard', problem)}
            retryLabel={t('segmentDashboard.retry')}
            onRetry={() => actor.send({ type: 'dashboard.retry' })}
          />
        )}
        <ExportControls actor={actor} background={background} />
        {loading && !dashboard && <LoadingFigures label={t('segmentDashboard.loading')} />}
        {dashboard && (
          <>
            {dashboard.computing && (
              <Alert color="gray">
                <Group justify="space-between" gap="sm">
                  <Text size="sm">{t('segmentDashboard.computing')}</Text>
                  <Button
                    size="xs"
                    variant="light"
                    loading={loading}
                    onClick={() => actor.send({ type: 'dashboard.reload' })}
                  >
                    {t('segmentDashboard.refresh')}
                  </Button>
                </Group>
              </Alert>
            )}
            <FigureCards cache={dashboard.segmentcache} computing={dashboard.computing} />
            {dashboard.distributions.members === 0 ? (
              <Text c="dimmed">{t('segmentDashboard.empty')}</Text>
            ) : (
              <DistributionCharts distributions={dashboard.distributions} />
            )}
          </>
        )}
      </Stack>
    </Paper>
  );
}

/** Placeholders in the cards' and charts' places while the first answer is on its way. */
function LoadingFigures({ label }: { label: string }) {
  return (
    <Stack gap="md" aria-label={label}>
      <SimpleGrid cols={{ base: 1, sm: 3 }} spacing="md">
        {[0, 1, 2].map((index) => (
          <Skeleton key={index} height={170} radius="md" />
        ))}
      </SimpleGrid>
      <SimpleGrid cols={{ base: 1, md: 3 }} spacing="md">
        {[0, 1, 2].map((index) => (
          <Skeleton key={index} height={280} radius="md" />
        ))}
      </SimpleGrid>
    </Stack>
  );
}
