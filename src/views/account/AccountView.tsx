import { Container, Tabs, Title } from '@mantine/core';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { roleAtLeast, type UserRole } from '../../schemas/roles.js';

/** The tabs of the account screen, in the order shown. */
export const ACCOUNT_TABS = ['profile', 'password', 'users', 'tokens', 'senders'] as const;

/** One tab of the account screen. */
export type AccountTab = (typeof ACCOUNT_TABS)[number];

/** What the signed-in user's tabs depend on. */
export interface AccountAccess {
  role: UserRole;
  /** The company's feature names. */
  features: readonly string[];
  /** True while staff act as this user: the password stays theirs to change. */
  impersonated: boolean;
}

/**
 * The tabs a user may use (spec section 6): everyone has their profile; the password unless staff act
 * for them; users and API tokens need admin or owner; email senders need the Campaigns feature.
 */
export function accountTabsFor(access: AccountAccess): AccountTab[] {
  const manager = roleAtLeast(access.role, 'admin');
  return ACCOUNT_TABS.filter((tab) => {
    if (tab === 'password') return !access.impersonated;
    if (tab === 'users' || tab === 'tokens') return manager;
    if (tab === 'senders') return access.features.includes('Campaigns');
    return true;
  });
}

/**
 * The account screen: a title and the tabs the user may use. Each panel is rendered only while its tab
 * is open (the screen gives each its own actor, which then starts when the tab opens).
 */
export function AccountView({
  tabs,
  panels,
}: {
  tabs: readonly AccountTab[];
  panels: Partial<Record<AccountTab, ReactNode>>;
}) {
  const { t } = useTranslation();
  return (
    <Container size="lg" py="md">
      <Title order={1} mb="md">
        {t('account.title')}
      </Title>
      <Tabs defaultValue={tabs[0] ?? 'profile'} keepMounted={false}>
        <Tabs.List mb="md">
          {tabs.map((tab) => (
            <Tabs.Tab key={tab} value={tab}>
              {t(`account.tabs.${tab}`)}
            </Tabs.Tab>
          ))}
        </Tabs.List>
        {tabs.map((tab) => (
          <Tabs.Panel key={tab} value={tab}>
            {panels[tab]}
          </Tabs.Panel>
        ))}
      </Tabs>
    </Container>
  );
}
