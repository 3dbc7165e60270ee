import { Badge } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { FlowStatus } from '../../schemas/flows.js';

// One colour per status, the same on the list and in the builder.
const COLOURS: Record<FlowStatus, string> = { draft: 'gray', live: 'green', paused: 'yellow' };

/** A flow's status as a coloured badge with its translated name. */
export function FlowStatusBadge({ status }: { status: FlowStatus }) {
  const { t } = useTranslation();
  return (
    <Badge
      color={COLOURS[status]}
      variant="light"
      // The light badge's own text colour is too pale on its tint (axe: contrast): the page's text colour.
      c="var(--mantine-color-text)"
      styles={{ root: { maxWidth: 'none', flexShrink: 0 }, label: { overflow: 'visible' } }}
    >
      {t(`flows.status.${status}`)}
    </Badge>
  );
}
