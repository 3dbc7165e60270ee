import { Badge } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { UserRole } from '../../schemas/accounts.js';

const COLORS: Record<UserRole, string> = { owner: 'grape', admin: 'blue', marketer: 'teal', analyst: 'gray' };

// Mantine's light teal text (teal 9) has 4.3:1 on its tint; this shade keeps AA (6:1). The others pass.
const LABEL_COLORS: Partial<Record<UserRole, string>> = {
  marketer: 'light-dark(#066649, var(--mantine-color-teal-0))',
};

/** A user's role as a coloured badge with readable text, in the interface language. */
export function RoleBadge({ role }: { role: UserRole }) {
  const { t } = useTranslation();
  const label = LABEL_COLORS[role];
  return (
    <Badge color={COLORS[role]} variant="light" styles={label ? { label: { color: label } } : undefined}>
      {t(`account.roles.${role}`)}
    </Badge>
  );
}
