import type { CompanyId, Sql } from '../db/database.js';
import { recordAudit } from './audit.repository.js';
import type { WriteScope } from './scope.js';
import { isUniqueViolation, UserEmailTakenError } from './references.js';

/** The interface languages a user may pick (the same list the schema allows). */
export type AccountLanguage = 'en' | 'ch' | 'es' | 'jp' | 'de' | 'fr';

/** How a user agrees to be contacted. */
export interface CommunicationPreferences {
  email: boolean;
  sms: boolean;
  phone: boolean;
}

/** A user's preferences; `updated_at` is null while they have never been saved. */
export interface AccountSettingsRow {
  user_id: number;
  company_id: number;
  language: AccountLanguage;
  time_zone: string;
  communication: CommunicationPreferences;
  verification: Record<string, unknown>;
  updated_at: Date | null;
}

/** What a save may change; `communication` is merged key by key into what is stored. */
export interface AccountSettingsChanges {
  language?: AccountLanguage;
  time_zone?: string;
  communication?: Partial<CommunicationPreferences>;
  verification?: Record<string, unknown>;
}

/** The values a user has before saving anything: the column defaults of migration 0001. */
export const DEFAULT_ACCOUNT_SETTINGS: Readonly<Pick<AccountSettingsRow, 'language' | 'time_zone'>> & {
  communication: Readonly<CommunicationPreferences>;
} = {
  language: 'en',
  time_zone: 'America/New_York',
  communication: { email: true, sms: false, phone: false },
};

async function findSettings(
  sql: Sql,
  companyId: CompanyId,
  userId: number,
): Promise<AccountSettingsRow | null> {
  // Starting from users tells "no such user" (null) apart from "never saved" (defaults).
  const { rows } = await sql.query<AccountSettingsRow>(
    `SELECT u.id AS user_id, u.company_id,
            coalesce(s.language, $3) AS language, coalesce(s.time_zone, $4) AS time_zone,
            coalesce(s.communication, $5::jsonb) AS communication, coalesce(s.verification, '{}'::jsonb) AS verification,
            s.updated_at
     FROM users u
     LEFT JOIN account_settings s ON s.company_id = $1 AND s.user_id = u.id
     WHERE u.company_id = $1 AND u.id = $2`,
    [
      companyId,
      userId,
      DEFAULT_ACCOUNT_SETTINGS.language,
      DEFAULT_ACCOUNT_SETTINGS.time_zone,
      JSON.stringify(DEFAULT_ACCOUNT_SETTINGS.communication),
    ],
  );
  return rows[0] ?? null;
}

/** A user's settings (the defaults when never saved); null when the user does not exist in this company. */
export function getAccountSettings(
  sql: Sql,
  companyId: CompanyId,
  userId: number,
): Promise<AccountSettingsRow | null> {
  return findSettings(sql, companyId, userId);
}

/** The language of the company's first active owner (English when it has none or never chose one). */
export async function ownerLanguage(sql: Sql, companyId: CompanyId): Promise<AccountLanguage> {
  const { rows } = await sql.query<{ language: AccountLanguage }>(
    `SELECT s.language FROM users u JOIN account_settings s ON s.user_id = u.id AND s.company_id = u.company_id
     WHERE u.company_id = $1 AND u.role = 'owner' AND u.is_active ORDER BY u.id LIMIT 1`,
    [companyId],
  );
  return rows[0]?.language ?? 'en';
}

/** Saves some of a user's settings, creating the row on first save; null when the user is not in this company. */
export async function upsertAccountSettings(
  sql: Sql,
  scope: WriteScope,
  userId: number,
  changes: AccountSettingsChanges,
): Promise<AccountSettingsRow | null> {
  const before = await findSettings(sql, scope.companyId, userId);
  if (!before) return null;
  // Insert-then-update keeps the column defaults in one place: the schema.
  await sql.query(
    `INSERT INTO account_settings (user_id, company_id) VALUES ($2, $1) ON CONFLICT (user_id) DO NOTHING`,
    [scope.companyId, userId],
  );
  await sql.query(
    `UPDATE account_settings
     SET language = coalesce($3, language), time_zone = coalesce($4, time_zone),
         communication = communication || coalesce($5::jsonb, '{}'::jsonb),
         verification = coalesce($6::jsonb, verification), updated_at = now()
     WHERE company_id = $1 AND user_id = $2`,
    [
      scope.companyId,
      userId,
      changes.language ?? null,
      changes.time_zone ?? null,
      changes.communication ? JSON.stringify(changes.communication) : null,
      changes.verification ? JSON.stringify(changes.verification) : null,
    ],
  );
  const after = (await findSettings(sql, scope.companyId, userId))!;
  await recordAudit(sql, scope, {
    action: before.updated_at === null ? 'create' : 'update',
    entity: 'account_settings',
    entityId: userId,
    before: before.updated_at === null ? undefined : before,
    after,
  });
  return after;
}

/** Everything the account settings page saves: the user's names for signing in and their preferences. */
export interface AccountProfileChanges extends AccountSettingsChanges {
  username: string;
  email: string;
}

/**
 * Saves a user's username, email and preferences together (one transaction, the caller's: all of it or nothing). Throws
 * UserEmailTakenError when another account has the email; null when the user is not in this company.
 */
export async function updateAccountProfile(
  sql: Sql,
  scope: WriteScope,
  userId: number,
  changes: AccountProfileChanges,
): Promise<(AccountSettingsRow & { username: string; email: string }) | null> {
  const { rows: users } = await sql.query<{ username: string; email: string }>(
    'SELECT username, email FROM users WHERE company_id = $1 AND id = $2 FOR UPDATE',
    [scope.companyId, userId],
  );
  const user = users[0];
  if (!user) return null;
  const email = changes.email.trim();
  if (user.username !== changes.username || user.email !== email) {
    try {
      await sql.query(
        'UPDATE users SET username = $3, email = $4, updated_at = now() WHERE company_id = $1 AND id = $2',
        [scope.companyId, userId, changes.username, email],
      );
    } catch (error) {
      // The index spans every company, which this tenant cannot read, so the update is the only check.
      if (isUniqueViolation(error, 'users_email_unique')) throw new UserEmailTakenError();
      throw error;
    }
    await recordAudit(sql, scope, {
      action: 'update',
      entity: 'user',
      entityId: userId,
      before: user,
      after: { username: changes.username, email },
    });
  }
  // The preferences save as the settings tab saves them (a sign-in's verification is not the page's to change).
  const after = (await upsertAccountSettings(sql, scope, userId, {
    language: changes.language,
    time_zone: changes.time_zone,
    communication: changes.communication,
  }))!;
  return { ...after, username: changes.username, email };
}

/** Gives a new user their settings row with the schema's defaults (a sign-up's owner). */
export async function createAccountSettings(sql: Sql, companyId: CompanyId, userId: number): Promise<void> {
  await sql.query('INSERT INTO account_settings (user_id, company_id) VALUES ($1, $2)', [userId, companyId]);
}
