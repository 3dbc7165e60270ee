import { Center, EmptyState, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { Feature } from '../../schemas/features.js';
import { RouteButton } from './RouteLink.js';
import { EMPTY_STATE_STYLES, MUTED_TEXT } from './contrast.js';

/** The i18n key of a feature's display name (`pages.features.campaignFlows`). */
export function featureLabelKey(feature: Feature): string {
  const words = feature.split(' ');
  const camel = words
    .map((word, index) =>
      index === 0 ? word.toLowerCase() : `${word[0]?.toUpperCase() ?? ''}${word.slice(1)}`,
    )
    .join('');
  return `pages.features.${camel}`;
}

function HourglassIcon() {
  return (
    <svg
      width="32"
      height="32"
      viewBox="0 0 24 24"
      fill="none"
      stroke="currentColor"
      strokeWidth="1.8"
      aria-hidden="true"
    >
      <path d="M6 2h12M6 22h12M7 2c0 5 5 6 5 10s-5 5-5 10M17 2c0 5-5 6-5 10s5 5 5 10" />
    </svg>
  );
}

/**
 * A page whose screen arrives with a later issue: names the page and its feature and shows no data,
 * with a way back to the dashboard.
 */
export function ComingSoonView({ titleKey, feature }: { titleKey: string; feature: Feature | null }) {
  const { t } = useTranslation();
  const page = t(titleKey);
  return (
    <Center mih={420} p="md">
      <EmptyState styles={EMPTY_STATE_STYLES} size="lg" variant="light" icon={<HourglassIcon />} maw={560}>
        <EmptyState.Title order={1}>{page}</EmptyState.Title>
        <EmptyState.Description>
          {t('pages.comingSoon.body', { page })}
          {feature && (
            <Text component="span" display="block" mt={6} size="sm" c={MUTED_TEXT}>
              {t('pages.comingSoon.feature', { feature: t(featureLabelKey(feature)) })}
            </Text>
          )}
        </EmptyState.Description>
        <EmptyState.Actions>
          <RouteButton to="/dashboard" variant="default">
            {t('pages.comingSoon.toDashboard')}
          </RouteButton>
        </EmptyState.Actions>
      </EmptyState>
    </Center>
  );
}
