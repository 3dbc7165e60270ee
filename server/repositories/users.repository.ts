import type { CompanyId, Sql } from '../db/database.js';
import { recordAudit } from './audit.repository.js';
import { likePattern } from './like-pattern.js';
import { isUniqueViolation, UserEmailTakenError } from './references.js';
import type { WriteScope } from './scope.js';

import { USER_ROLES, type UserRole } from '../../src/schemas/accounts.js';

export { USER_ROLES, type UserRole };

/** A user as repositories return it: never with the password hash. */
export interface UserRow {
  id: number;
  company_id: number;
  email: string;
  username: string;
  first_name: string;
  last_name: string;
  role: UserRole;
  is_staff: boolean;
  is_active: boolean;
  verified_at: Date | null;
  last_login_at: Date | null;
  created_at: Date;
  updated_at: Date;
}

/** A user as sign-in needs it: the row plus the stored password hash. */
export interface UserSignInRow extends UserRow {
  password_hash: string | null;
}

/** What creating a user takes; the password arrives already hashed. */
export interface NewUser {
  email: string;
  /** Defaults to the email. */
  username?: string;
  first_name?: string;
  last_name?: string;
  role: UserRole;
  password_hash?: string | null;
  /** Platform staff; only staff tools and the seed should set it. */
  is_staff?: boolean;
  is_active?: boolean;
  verified_at?: Date | null;
}

/** The fields of a user that company admins change. */
export interface UserChanges {
  username: string;
  first_name: string;
  last_name: string;
  role: UserRole;
  is_active: boolean;
}

/** Filters of the user list. */
export interface UserFilter {
  q?: string | undefined;
  limit: number;
  offset: number;
}

const COLUMNS = `id, company_id, email, username, first_name, last_name, role, is_staff, is_active, verified_at,
  last_login_at, created_at, updated_at`;

const CHANGEABLE = ['username', 'first_name', 'last_name', 'role', 'is_active'] as const;

async function findUser(sql: Sql, companyId: CompanyId, id: number): Promise<UserRow | null> {
  const { rows } = await sql.query<UserRow>(
    `SELECT ${COLUMNS} FROM users WHERE company_id = $1 AND id = $2`,
    [companyId, id],
  );
  return rows[0] ?? null;
}

/** One page of a company's users in creation order, optionally searched by email, username or name. */
export async function listUsers(
  sql: Sql,
  companyId: CompanyId,
  filter: UserFilter,
): Promise<{ count: number; rows: UserRow[] }> {
  const where = `company_id = $1 AND ($2::text IS NULL OR email ILIKE $2 OR username ILIKE $2
    OR first_name ILIKE $2 OR last_name ILIKE $2)`;
  const params = [companyId, filter.q ? likePattern(filter.q) : null];
  const total = await sql.query<{ count: number }>(
    `SELECT count(*)::int AS count FROM users WHERE ${where}`,
    params,
  );
  const page = await sql.query<UserRow>(
    `SELECT ${COLUMNS} FROM users WHERE ${where} ORDER BY id LIMIT $3 OFFSET $4`,
    [...params, filter.limit, filter.offset],
  );
  return { count: total.rows[0]?.count ?? 0, rows: page.rows };
}

/**
 * One user, locked for a change until the caller's transaction ends (`FOR UPDATE`), so rules checked against the
 * row still hold when the caller writes; null when the user does not exist in this company. The company's
 * active owners are locked with it, in id order as the owner-keeping changes lock them, so two changes of
 * owners never deadlock.
 */
export async function lockUserAndOwners(sql: Sql, companyId: CompanyId, id: number): Promise<UserRow | null> {
  const { rows } = await sql.query<UserRow>(
    `SELECT ${COLUMNS} FROM users
      WHERE company_id = $1 AND (id = $2 OR (role = 'owner' AND is_active))
      ORDER BY id FOR UPDATE`,
    [companyId, id],
  );
  return rows.find((row) => row.id === id) ?? null;
}

/**
 * One user, whose row nobody may change until the caller's transaction ends (`FOR SHARE`), so what the
 * caller checks on it (active, staff) still holds when it writes something that depends on it; null when the
 * user does not exist in this company.
 */
export async function lockUser(sql: Sql, companyId: CompanyId, id: number): Promise<UserRow | null> {
  const { rows } = await sql.query<UserRow>(
    `SELECT ${COLUMNS} FROM users WHERE company_id = $1 AND id = $2 FOR SHARE`,
    [companyId, id],
  );
  return rows[0] ?? null;
}

/** One user, or null when it does not exist in this company. */
export function getUser(sql: Sql, companyId: CompanyId, id: number): Promise<UserRow | null> {
  return findUser(sql, companyId, id);
}

async function insertUser(sql: Sql, companyId: CompanyId, input: NewUser): Promise<UserRow> {
  const email = input.email.trim();
  let id: number;
  try {
    const { rows } = await sql.query<{ id: number }>(
      `INSERT INTO users (company_id, email, username, first_name, last_name, role, password_hash, is_staff,
                          is_active, verified_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10) RETURNING id`,
      [
        companyId,
        email,
        input.username ?? email,
        input.first_name ?? '',
        input.last_name ?? '',
        input.role,
        input.password_hash ?? null,
        input.is_staff ?? false,
        input.is_active ?? true,
        input.verified_at ?? null,
      ],
    );
    id = rows[0]!.id;
  } catch (error) {
    // The index spans every company, which this tenant cannot read, so the insert is the only check.
    if (isUniqueViolation(error, 'users_email_unique')) throw new UserEmailTakenError();
    throw error;
  }
  return (await findUser(sql, companyId, id))!;
}

/** Creates a user; throws UserEmailTakenError when the address (any case) already has an account. */
export async function createUser(sql: Sql, scope: WriteScope, input: NewUser): Promise<UserRow> {
  const created = await insertUser(sql, scope.companyId, input);
  await recordAudit(sql, scope, { action: 'create', entity: 'user', entityId: created.id, after: created });
  return created;
}

/**
 * Creates a sign-up's first user, who creates themselves: the audit entry names the new user as both the
 * acting and the real actor. Throws UserEmailTakenError like createUser.
 */
export async function createSelfRegisteredUser(
  sql: Sql,
  companyId: CompanyId,
  input: NewUser,
): Promise<UserRow> {
  const created = await insertUser(sql, companyId, input);
  await recordAudit(
    sql,
    { companyId, userId: created.id, actorUserId: created.id },
    { action: 'create', entity: 'user', entityId: created.id, after: created },
  );
  return created;
}

/** Changes a user's names, role or active flag; null when the user does not exist in this company. */
export async function updateUser(
  sql: Sql,
  scope: WriteScope,
  id: number,
  changes: Partial<UserChanges>,
): Promise<UserRow | null> {
  const before = await findUser(sql, scope.companyId, id);
  if (!before) return null;
  const keys = CHANGEABLE.filter((key) => changes[key] !== undefined);
  if (keys.length > 0) {
    const assignments = keys.map((key, index) => `${key} = $${index + 3}`).join(', ');
    await sql.query(`UPDATE users SET ${assignments}, updated_at = now() WHERE company_id = $1 AND id = $2`, [
      scope.companyId,
      id,
      ...keys.map((key) => changes[key]),
    ]);
  }
  const after = (await findUser(sql, scope.companyId, id))!;
  await recordAudit(sql, scope, {
    action: 'update',
    entity: 'user',
    entityId: id,
    before,
    after,
  });
  return after;
}

/** Deletes a user (their settings go with them); false when the user does not exist in this company. */
export async function deleteUser(sql: Sql, scope: WriteScope, id: number): Promise<boolean> {
  const before = await findUser(sql, scope.companyId, id);
  if (!before) return false;
  await sql.query('DELETE FROM users WHERE company_id = $1 AND id = $2', [scope.companyId, id]);
  await recordAudit(sql, scope, {
    action: 'delete',
    entity: 'user',
    entityId: id,
    before: before,
  });
  return true;
}

/**
 * The account with this email in any company, whatever the case, with its password hash; null when none.
 * A platform read: at sign-in the company is not known yet. Inactive users are returned too, so the
 * caller decides how to answer them.
 */
export async function findUserByEmailForSignIn(sql: Sql, email: string): Promise<UserSignInRow | null> {
  const { rows } = await sql.query<UserSignInRow>(
    `SELECT ${COLUMNS}, password_hash FROM users WHERE lower(email) = lower($1)`,
    [email.trim()],
  );
  return rows[0] ?? null;
}

/** What authenticating a request needs to know about a user and their company. */
export interface UserAuthorityRow {
  id: number;
  company_id: number;
  role: UserRole;
  is_staff: boolean;
  is_active: boolean;
  tokens_valid_after: Date | null;
  features: string[];
}

/**
 * The user a verified token names, found by id (this installation's tokens) or by email (an external
 * issuer's), with their company's features. A platform read: the token is how the company is learned.
 */
export async function findUserAuthority(
  sql: Sql,
  by: { id: number } | { email: string },
): Promise<UserAuthorityRow | null> {
  const [condition, value] =
    'id' in by ? ['u.id = $1', by.id] : ['lower(u.email) = lower($1)', by.email.trim()];
  const { rows } = await sql.query<UserAuthorityRow>(
    `SELECT u.id, u.company_id, u.role, u.is_staff, u.is_active, u.tokens_valid_after,
            array(SELECT f.feature FROM company_features f WHERE f.company_id = u.company_id ORDER BY 1) AS features
       FROM users u WHERE ${condition}`,
    [value],
  );
  return rows[0] ?? null;
}

/** A token's user (absent when no user matches) and whether the token's grant was revoked. */
export interface TokenAuthorityRow {
  user: UserAuthorityRow | null;
  grantRevoked: boolean;
}

/**
 * What authenticating a Bearer token needs in one statement: the user it names (as findUserAuthority) and
 * whether its grant of the embedded provider (null for tokens without one) is in `revoked_grants`.
 */
export async function findTokenAuthority(
  sql: Sql,
  by: { id: number } | { email: string },
  grantId: string | null,
): Promise<TokenAuthorityRow> {
  const [condition, value] =
    'id' in by ? ['u.id = $1', by.id] : ['lower(u.email) = lower($1)', by.email.trim()];
  const { rows } = await sql.query<UserAuthorityRow & { grant_revoked: boolean; found: boolean }>(
    `SELECT u.id IS NOT NULL AS found, u.id, u.company_id, u.role, u.is_staff, u.is_active, u.tokens_valid_after,
            array(SELECT f.feature FROM company_features f WHERE f.company_id = u.company_id ORDER BY 1) AS features,
            g.grant_revoked
       FROM (SELECT $2::text IS NOT NULL AND EXISTS (
               SELECT 1 FROM revoked_grants WHERE grant_id = $2::text AND expires_at > now()
             ) AS grant_revoked) g
       LEFT JOIN users u ON ${condition}`,
    [value, grantId],
  );
  const { found, grant_revoked: grantRevoked, ...user } = rows[0]!;
  return { user: found ? user : null, grantRevoked };
}

/** Makes every access token issued to the user until now invalid (logout, password change). */
export async function revokeUserTokens(sql: Sql, companyId: CompanyId, userId: number): Promise<void> {
  await sql.query('UPDATE users SET tokens_valid_after = now() WHERE company_id = $1 AND id = $2', [
    companyId,
    userId,
  ]);
}

/** Notes a successful sign-in; not audited, since it changes nothing the user or an admin decided. */
export async function recordUserLogin(sql: Sql, companyId: CompanyId, userId: number): Promise<void> {
  await sql.query('UPDATE users SET last_login_at = now() WHERE company_id = $1 AND id = $2', [
    companyId,
    userId,
  ]);
}

/** Raised when a change would leave the company without an active owner. */
export class LastOwnerError extends Error {
  constructor() {
    super('A company needs at least one active owner');
    this.name = 'LastOwnerError';
  }
}

/**
 * Locks the company's active owners, so concurrent changes to owners run one after the other and the
 * check after each change sees the other's result.
 */
async function lockActiveOwners(sql: Sql, companyId: CompanyId): Promise<void> {
  await sql.query(
    `SELECT id FROM users WHERE company_id = $1 AND role = 'owner' AND is_active ORDER BY id FOR UPDATE`,
    [companyId],
  );
}

async function assertActiveOwnerRemains(sql: Sql, companyId: CompanyId): Promise<void> {
  const { rows } = await sql.query<{ owners: number }>(
    `SELECT count(*)::int AS owners FROM users WHERE company_id = $1 AND role = 'owner' AND is_active`,
    [companyId],
  );
  // Throwing rolls the change back: the company is never left without an owner, even for a moment.
  if ((rows[0]?.owners ?? 0) === 0) throw new LastOwnerError();
}

/**
 * Like updateUser, but refuses (LastOwnerError, nothing written) a change that would leave the company
 * without an active owner; null when the user does not exist in this company.
 */
export async function updateUserKeepingOwner(
  sql: Sql,
  scope: WriteScope,
  id: number,
  changes: Partial<UserChanges>,
): Promise<UserRow | null> {
  await lockActiveOwners(sql, scope.companyId);
  const after = await updateUser(sql, scope, id, changes);
  if (after) await assertActiveOwnerRemains(sql, scope.companyId);
  return after;
}

/**
 * Like deleteUser, but refuses (LastOwnerError, nothing deleted) to remove the company's last active
 * owner; false when the user does not exist in this company.
 */
export async function deleteUserKeepingOwner(sql: Sql, scope: WriteScope, id: number): Promise<boolean> {
  await lockActiveOwners(sql, scope.companyId);
  const deleted = await deleteUser(sql, scope, id);
  if (deleted) await assertActiveOwnerRemains(sql, scope.companyId);
  return deleted;
}

/** The user's stored password hash; null when they have none or do not exist in this company. */
export async function findUserPasswordHash(
  sql: Sql,
  companyId: CompanyId,
  id: number,
): Promise<string | null> {
  const { rows } = await sql.query<{ password_hash: string | null }>(
    'SELECT password_hash FROM users WHERE company_id = $1 AND id = $2',
    [companyId, id],
  );
  return rows[0]?.password_hash ?? null;
}

/**
 * Replaces the password hash, but only while the stored one is still `change.from` (the one the caller
 * verified), and in the same transaction revokes every access token issued until now. Returns the revocation
 * moment (tokens issued in or before its second are refused); null when nothing matched: the user does not
 * exist in this company or their password changed since it was read.
 */
export async function setUserPassword(
  sql: Sql,
  scope: WriteScope,
  id: number,
  change: { from: string; to: string },
): Promise<Date | null> {
  const { rows } = await sql.query<{ tokens_valid_after: Date }>(
    `UPDATE users SET password_hash = $4, tokens_valid_after = now(), updated_at = now()
     WHERE company_id = $1 AND id = $2 AND password_hash = $3 RETURNING tokens_valid_after`,
    [scope.companyId, id, change.from, change.to],
  );
  const row = rows[0];
  if (!row) return null;
  // The hash itself never goes to the audit log; only that the password changed.
  await recordAudit(sql, scope, {
    action: 'update',
    entity: 'user_password',
    entityId: id,
    after: { changed: true },
  });
  return row.tokens_valid_after;
}

/** Any user by id, across companies (platform staff tools: the impersonator shown in a banner). */
export async function findUserOnPlatform(sql: Sql, id: number): Promise<UserRow | null> {
  const { rows } = await sql.query<UserRow>(`SELECT ${COLUMNS} FROM users WHERE id = $1`, [id]);
  return rows[0] ?? null;
}

/** A user support staff may act as, with their company's name. */
export interface ImpersonationCandidateRow extends UserRow {
  company_name: string;
}

/**
 * Active, non-staff users of every company, searched by email, username or name, at most `limit`:
 * a platform read for support staff.
 */
export async function searchImpersonationCandidates(
  sql: Sql,
  filter: { q?: string | undefined; limit: number },
): Promise<ImpersonationCandidateRow[]> {
  const { rows } = await sql.query<ImpersonationCandidateRow>(
    `SELECT ${COLUMNS.replace(/(\w+)/g, 'u.$1')}, c.name AS company_name
       FROM users u JOIN companies c ON c.id = u.company_id
      WHERE NOT u.is_staff AND u.is_active
        AND ($1::text IS NULL OR u.email ILIKE $1 OR u.username ILIKE $1 OR u.first_name ILIKE $1
             OR u.last_name ILIKE $1 OR c.name ILIKE $1)
      ORDER BY c.name, u.email LIMIT $2`,
    [filter.q ? likePattern(filter.q) : null, filter.limit],
  );
  return rows;
}

/** An active user of the company by address (any case), with the language their mail is written in. */
export async function findActiveUserByEmail(
  sql: Sql,
  companyId: CompanyId,
  email: string,
): Promise<{ id: number; email: string; language: string } | null> {
  const { rows } = await sql.query<{ id: number; email: string; language: string }>(
    `SELECT u.id::int AS id, u.email, coalesce(s.language, 'en') AS language
     FROM users u LEFT JOIN account_settings s ON s.user_id = u.id AND s.company_id = u.company_id
     WHERE u.company_id = $1 AND lower(u.email) = lower($2) AND u.is_active`,
    [companyId, email.trim()],
  );
  return rows[0] ?? null;
}

/** An active user of the company by id with their mail language, or null (deleted or deactivated since). */
export async function findActiveUserForMail(
  sql: Sql,
  companyId: CompanyId,
  id: number,
): Promise<{ id: number; email: string; language: string } | null> {
  const { rows } = await sql.query<{ id: number; email: string; language: string }>(
    `SELECT u.id::int AS id, u.email, coalesce(s.language, 'en') AS language
     FROM users u LEFT JOIN account_settings s ON s.user_id = u.id AND s.company_id = u.company_id
     WHERE u.company_id = $1 AND u.id = $2 AND u.is_active`,
    [companyId, id],
  );
  return rows[0] ?? null;
}
