import { Badge } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { UserRole } from '../../schemas/accounts.js';

const COLORS: Record<UserRole, string> = { owner: 'grape', admin: 'blue', marketer: 'teal', analyst: 'gray' };

/** A user's role as a coloured badge, in the interface language. */
export function RoleBadge({ role }: { role: UserRole }) {
  const { t } = useTranslation();
  return (
    <Badge color={COLORS[role]} variant="light">
      {t(`account.roles.${role}`)}
    </Badge>
  );
}
