import { Button, Group, Paper, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';

/**
 * The selected segment's dashboard beside the list on /segments. A placeholder with the panel's exact
 * export and props; the segment dashboard (issue 14, another part) replaces it.
 */
export default function SegmentDashboardPanel({
  segmentId,
  onClose,
}: {
  segmentId: number;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  return (
    <Paper withBorder p="md" radius="md" aria-labelledby="segment-dashboard-title">
      <Group justify="space-between" wrap="wrap">
        <Title order={3} id="segment-dashboard-title">
          {t('segments.panel.title')}
        </Title>
        <Button size="xs" variant="default" onClick={onClose}>
          {t('segments.panel.close')}
        </Button>
      </Group>
      <Text size="sm" c="dimmed" mt="xs">
        {t('segments.panel.placeholder', { id: segmentId })}
      </Text>
    </Paper>
  );
}
