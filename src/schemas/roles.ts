/** The roles a user may hold in a company, most powerful first: each may do what the ones after it may. */
export const USER_ROLES = ['owner', 'admin', 'marketer', 'analyst'] as const;

/** A user's role: owner (everything), admin (users, tokens, locations), marketer (marketing), analyst (read). */
export type UserRole = (typeof USER_ROLES)[number];

/** A role's rank: 0 for owner, the most powerful, growing towards analyst. */
function rankOf(role: UserRole): number {
  return USER_ROLES.indexOf(role);
}

/**
 * True when `role` is at least as powerful as `least` (owner > admin > marketer > analyst). A missing role
 * (nobody signed in yet) is never enough, so callers can pass what they have without a null check.
 */
export function roleAtLeast(role: UserRole | null | undefined, least: UserRole): boolean {
  return role != null && rankOf(role) <= rankOf(least);
}
