import { describe, expect, it } from 'vitest';
import { roleAtLeast, USER_ROLES, type UserRole } from '../../src/schemas/roles.js';

/** Every pair the ranking answers true for, written out by hand as the spec's role list reads. */
const ALLOWED: Readonly<Record<UserRole, readonly UserRole[]>> = {
  owner: ['owner', 'admin', 'marketer', 'analyst'],
  admin: ['admin', 'marketer', 'analyst'],
  marketer: ['marketer', 'analyst'],
  analyst: ['analyst'],
};

describe('role ranking', () => {
  it('orders the roles owner > admin > marketer > analyst', () => {
    expect(USER_ROLES).toEqual(['owner', 'admin', 'marketer', 'analyst']);
  });

  for (const role of USER_ROLES) {
    it(`lets ${role} do what ${ALLOWED[role].join(', ')} may, and nothing above`, () => {
      for (const least of USER_ROLES) {
        expect(roleAtLeast(role, least), `${role} at least ${least}`).toBe(ALLOWED[role].includes(least));
      }
    });
  }

  it('never lets a missing role (nobody signed in) through, not even for analyst pages', () => {
    expect(roleAtLeast(undefined, 'analyst')).toBe(false);
    expect(roleAtLeast(null, 'analyst')).toBe(false);
  });
});
