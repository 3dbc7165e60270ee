import { Badge } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { CampaignStatus } from '../../schemas/campaigns.js';

// One colour per status, the same on the list and in the editor.
const COLOURS: Record<CampaignStatus, string> = {
  draft: 'gray',
  scheduled: 'blue',
  sending: 'orange',
  sent: 'green',
  paused: 'yellow',
  cancelled: 'red',
};

/** A campaign's status as a coloured badge with its translated name. */
export function CampaignStatusBadge({ status }: { status: CampaignStatus }) {
  const { t } = useTranslation();
  return (
    <Badge
      color={COLOURS[status]}
      variant="light"
      // The light badge's own text colour is too pale on its tint (axe: contrast): the page's text colour.
      c="var(--mantine-color-text)"
      // The whole word, never cut to "SCHED…" in a narrow table cell.
      styles={{ root: { maxWidth: 'none', flexShrink: 0 }, label: { overflow: 'visible' } }}
    >
      {t(`campaigns.status.${status}`)}
    </Badge>
  );
}
