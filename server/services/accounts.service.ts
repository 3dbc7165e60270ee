import type {
  AccountSettings,
  CurrentUser,
  LoginRequest,
  PasswordChange,
  RegistrationRequest,
  TokenResponse,
} from '../../src/schemas/accounts.js';
import { LOGIN_FAILED_MESSAGE } from '../../src/schemas/accounts.js';
import type { AccessTokens } from '../auth/access-tokens.js';
import { SignInRejectedError, SignInThrottledError, verifyCredentials } from '../auth/credentials.js';
import { hashPassword, verifyPassword } from '../auth/passwords.js';
import type { Principal } from '../auth/principal.js';
import type { AuthSettings } from '../auth/settings.js';
import type { Database } from '../db/database.js';
import { ApiError, fieldFailure, invalid, notFound } from '../http/errors.js';
import {
  getAccountSettings,
  updateAccountProfile,
  type AccountSettingsRow,
} from '../repositories/account-settings.repository.js';
import { getCompany } from '../repositories/companies.repository.js';
import { listCompanyFeatures } from '../repositories/company-features.repository.js';
import { endImpersonation } from '../repositories/impersonations.repository.js';
import { deleteSessionsForAccount } from '../repositories/oidc-payloads.repository.js';
import type { WriteScope } from '../repositories/scope.js';
import {
  findUserOnPlatform,
  findUserPasswordHash,
  getUser,
  revokeUserTokens,
  setUserPassword,
  type UserRow,
} from '../repositories/users.repository.js';
import { UserEmailTakenError } from '../repositories/references.js';
import { registerCompany } from './registration.service.js';

/** Raised for a throttled sign-in: the route answers 429 with this Retry-After. */
export class TooManySignInAttemptsError extends ApiError {
  constructor(readonly retryAfterSeconds: number) {
    super(429, 'too_many_attempts', 'Too many failed sign-in attempts; try again later');
    this.name = 'TooManySignInAttemptsError';
  }
}

/** The 409 of an email that already belongs to an account. */
function emailTaken(): ApiError {
  return new ApiError(409, 'email_taken', 'A user with this email already exists', {
    email: fieldFailure('in_use', 'Email is already in use'),
  });
}

/** A person's display name: their names, or the email when they gave none. */
export function displayName(user: Pick<UserRow, 'first_name' | 'last_name' | 'email'>): string {
  return `${user.first_name} ${user.last_name}`.trim() || user.email;
}

function presentSettings(
  user: Pick<UserRow, 'username' | 'email'>,
  row: AccountSettingsRow,
): AccountSettings {
  return {
    username: user.username,
    email: user.email,
    language: row.language,
    time_zone: row.time_zone,
    communication: {
      email: row.communication.email,
      sms: row.communication.sms,
      phone: row.communication.phone,
    },
  };
}

/** The signed-in user the principal names; account calls are userOnly, so there always is one. */
function userIdOf(principal: Principal): number {
  if (principal.userId === null) throw new ApiError(403, 'user_required', 'Sign in as a user for this call');
  return principal.userId;
}

/** The account calls: sign-in, registration, the current user, password, logout and own settings. */
export function accountsService(db: Database, auth: AuthSettings, tokens: AccessTokens) {
  function assertEmbedded(): void {
    if (!auth.embedded) {
      throw new ApiError(
        404,
        'external_sign_in',
        'Sign-in and registration happen at the identity provider this server trusts',
      );
    }
  }

  return {
    /** Checks credentials and issues an access token; 401 with the one message for anything wrong. */
    async login(input: LoginRequest, address: string): Promise<TokenResponse> {
      assertEmbedded();
      let user;
      try {
        user = await verifyCredentials(db, { email: input.email, password: input.password, address });
      } catch (error) {
        if (error instanceof SignInRejectedError)
          throw new ApiError(401, 'login_failed', LOGIN_FAILED_MESSAGE);
        if (error instanceof SignInThrottledError)
          throw new TooManySignInAttemptsError(error.retryAfterSeconds);
        throw error;
      }
      return tokens.issue({ userId: user.id });
    },

    /** Signs up a company with its owner and signs the owner in. */
    async register(input: RegistrationRequest): Promise<TokenResponse> {
      assertEmbedded();
      try {
        const owner = await registerCompany(db, input);
        return await tokens.issue({ userId: owner.id });
      } catch (error) {
        if (error instanceof UserEmailTakenError) throw emailTaken();
        throw error;
      }
    },

    /** Who is signed in, their company, features and settings, and who acts for them during support. */
    async currentUser(principal: Principal): Promise<CurrentUser> {
      const userId = userIdOf(principal);
      const [user, company, features, settings] = await Promise.all([
        db.tenant(principal.companyId, (sql) => getUser(sql, principal.companyId, userId)),
        db.tenant(principal.companyId, (sql) => getCompany(sql, principal.companyId)),
        db.tenant(principal.companyId, (sql) => listCompanyFeatures(sql, principal.companyId)),
        db.tenant(principal.companyId, (sql) => getAccountSettings(sql, principal.companyId, userId)),
      ]);
      if (!user || !company || !settings) throw notFound('User');
      let impersonator: CurrentUser['impersonator'] = null;
      const actorUserId = principal.actorUserId;
      if (principal.impersonationId !== null && actorUserId !== null) {
        const staff = await db.platform((sql) => findUserOnPlatform(sql, actorUserId));
        if (staff) impersonator = { id: staff.id, email: staff.email, name: displayName(staff) };
      }
      return {
        id: user.id,
        email: user.email,
        username: user.username,
        first_name: user.first_name,
        last_name: user.last_name,
        role: user.role,
        is_staff: user.is_staff,
        company: { id: company.id, name: company.name, time_zone: company.time_zone },
        features: features.map((row) => row.feature),
        settings: presentSettings(user, settings),
        impersonator,
      };
    },

    /**
     * Replaces the password after checking the current one, revokes every earlier token and answers a
     * fresh one so this browser stays signed in while every other one is signed out.
     */
    async changePassword(
      principal: Principal,
      scope: WriteScope,
      input: PasswordChange,
    ): Promise<TokenResponse> {
      const userId = userIdOf(principal);
      // Support may act for a user but never take over their sign-in.
      if (principal.impersonationId !== null) {
        throw new ApiError(
          403,
          'impersonation_forbidden',
          'The password cannot be changed while impersonating',
        );
      }
      const current = await db.tenant(principal.companyId, (sql) =>
        findUserPasswordHash(sql, principal.companyId, userId),
      );
      if (current === null || !(await verifyPassword(current, input.current_password))) {
        throw invalid({ current_password: fieldFailure('not_valid', 'Current password is not valid') });
      }
      // Hashing is slow on purpose, so verifying and hashing happen outside any transaction; the write then
      // applies only while the verified hash is still the stored one.
      const hash = await hashPassword(input.new_password);
      const revokedAt = await db.tenant(scope.companyId, (sql) =>
        setUserPassword(sql, scope, userId, { from: current, to: hash }),
      );
      if (!revokedAt) {
        throw new ApiError(
          409,
          'password_changed',
          'The password was changed by another request meanwhile; sign in again',
        );
      }
      return tokens.issue({ userId });
    },

    /**
     * Signs out: every access token of the user stops working and their provider sessions end. With an
     * impersonation token only that impersonation ends; the user's own sessions are not theirs to end.
     */
    async logout(principal: Principal): Promise<void> {
      const impersonationId = principal.impersonationId;
      if (impersonationId !== null) {
        await db.tenant(principal.companyId, (sql) =>
          endImpersonation(sql, principal.companyId, impersonationId),
        );
        return;
      }
      const userId = userIdOf(principal);
      await db.tenant(principal.companyId, (sql) => revokeUserTokens(sql, principal.companyId, userId));
      // The embedded provider's account id is the user id, as the access token's subject is.
      await db.platform((sql) => deleteSessionsForAccount(sql, String(userId)));
    },

    /** The user's own settings; the defaults while never saved. */
    async settings(principal: Principal): Promise<AccountSettings> {
      const userId = userIdOf(principal);
      const [user, settings] = await Promise.all([
        db.tenant(principal.companyId, (sql) => getUser(sql, principal.companyId, userId)),
        db.tenant(principal.companyId, (sql) => getAccountSettings(sql, principal.companyId, userId)),
      ]);
      if (!user || !settings) throw notFound('User');
      return presentSettings(user, settings);
    },

    /** Saves the user's own settings, username and email together; 409 for an email already in use. */
    async saveSettings(
      principal: Principal,
      scope: WriteScope,
      input: AccountSettings,
    ): Promise<AccountSettings> {
      const userId = userIdOf(principal);
      try {
        const saved = await db.tenant(scope.companyId, (sql) =>
          updateAccountProfile(sql, scope, userId, input),
        );
        if (!saved) throw notFound('User');
        return presentSettings(saved, saved);
      } catch (error) {
        if (error instanceof UserEmailTakenError) throw emailTaken();
        throw error;
      }
    },

    /** The company's feature names. */
    async features(companyId: number): Promise<string[]> {
      return (await db.tenant(companyId, (sql) => listCompanyFeatures(sql, companyId))).map(
        (row) => row.feature,
      );
    },
  };
}

/** The accounts service's interface. */
export type AccountsService = ReturnType<typeof accountsService>;
