import { Breadcrumbs, Text } from '@mantine/core';
import { useSelector } from '@xstate/react';
import { useTranslation } from 'react-i18next';
import { RouteLink } from './RouteLink.js';
import { MUTED_TEXT } from './contrast.js';
import type { NavigationActor } from './types.js';

/**
 * The current route's breadcrumb trail (recomputed by the navigation machine on every navigation): the
 * group, any parent page as a link (`links` maps a title key to its path), and the page itself.
 */
export function PageBreadcrumbs({
  navigation,
  links,
}: {
  navigation: NavigationActor;
  links: Readonly<Record<string, string>>;
}) {
  const { t } = useTranslation();
  const crumbs = useSelector(navigation, (state) => state.context.breadcrumbs);
  if (crumbs.length < 2) return null;
  return (
    <nav aria-label={t('shell.layout.breadcrumbs')}>
      <Breadcrumbs
        mb="md"
        separatorMargin={6}
        style={{ flexWrap: 'wrap' }}
        styles={{ separator: { color: MUTED_TEXT } }}
      >
        {crumbs.map((key, index) => {
          const last = index === crumbs.length - 1;
          const to = links[key];
          if (last)
            return (
              <Text key={key} size="sm" fw={500} aria-current="page">
                {t(key)}
              </Text>
            );
          if (to)
            return (
              <RouteLink key={key} to={to} size="sm">
                {t(key)}
              </RouteLink>
            );
          return (
            <Text key={key} size="sm" c={MUTED_TEXT}>
              {t(key)}
            </Text>
          );
        })}
      </Breadcrumbs>
    </nav>
  );
}
