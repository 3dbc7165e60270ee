import { Badge } from '@mantine/core';

// Mantine's light badge text (green 6, gray 6) is under AA contrast on its own tint; these shades keep 4.5:1.
const LABEL_COLORS = {
  subscribed: 'light-dark(#1e6b30, var(--mantine-color-green-3))',
  unsubscribed: 'light-dark(var(--mantine-color-gray-8), var(--mantine-color-dark-0))',
} as const;

/** Whether someone receives emails, as a green or grey badge with readable text in both colour schemes. */
export function SubscribedBadge({ subscribed, label }: { subscribed: boolean; label: string }) {
  const tone = subscribed ? 'subscribed' : 'unsubscribed';
  return (
    <Badge
      color={subscribed ? 'green' : 'gray'}
      variant="light"
      // The label ellipsises inside a narrow table column ("SUBSCRI…"); the badge keeps its text's width.
      miw="max-content"
      styles={{ label: { color: LABEL_COLORS[tone] } }}
    >
      {label}
    </Badge>
  );
}
