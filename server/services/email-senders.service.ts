import type { EmailProvider, EmailSender, EmailSenderInput } from '../../src/schemas/accounts.js';
import type { Database } from '../db/database.js';
import { ApiError, fieldFailure, notFound } from '../http/errors.js';
import type { EmailProviderInput } from '../../src/schemas/sending.js';
import {
  deleteEmailProvider,
  deleteOtherEmailProviders,
  listEmailProviders,
  maskSecrets,
  upsertEmailProvider,
  type EmailProviderRow,
} from '../repositories/email-providers.repository.js';
import {
  createEmailSender,
  deleteEmailSender,
  DuplicateSenderEmailError,
  listEmailSenders,
  updateEmailSender,
  type EmailSenderRow,
} from '../repositories/email-senders.repository.js';
import { expireOtherAddressVerifications } from '../repositories/email-sender-verifications.repository.js';
import type { WriteScope } from '../repositories/scope.js';

/** A sender row as the API shows it. */
export function presentEmailSender(row: EmailSenderRow): EmailSender {
  return {
    id: row.id,
    name: row.name,
    email: row.email,
    reply_to: row.reply_to,
    is_default: row.is_default,
    verified_at: row.verified_at?.toISOString() ?? null,
    created_at: row.created_at.toISOString(),
  };
}

/** A provider row as the API shows it: the key masked in SQL, secret-looking settings masked here. */
export function presentEmailProvider(row: EmailProviderRow): EmailProvider {
  return {
    id: row.id,
    provider: row.provider,
    api_key_masked: row.api_key_masked,
    has_api_key: row.has_api_key,
    settings: maskSecrets(row.settings) as Record<string, unknown>,
    created_at: row.created_at.toISOString(),
    updated_at: row.updated_at.toISOString(),
  };
}

async function translateDuplicate<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (error instanceof DuplicateSenderEmailError) {
      throw new ApiError(409, 'email_taken', 'The company already has a sender with this email', {
        email: fieldFailure('in_use', 'Email is already in use'),
      });
    }
    throw error;
  }
}

/** Campaign sender addresses and the company's email provider set-up. */
export function emailSendersService(db: Database) {
  return {
    async list(companyId: number): Promise<EmailSender[]> {
      return (await db.tenant(companyId, (sql) => listEmailSenders(sql, companyId))).map(presentEmailSender);
    },
    async create(scope: WriteScope, input: EmailSenderInput): Promise<EmailSender> {
      return presentEmailSender(
        await translateDuplicate(() =>
          db.tenant(scope.companyId, (sql) => createEmailSender(sql, scope, input)),
        ),
      );
    },
    async update(scope: WriteScope, id: number, input: EmailSenderInput): Promise<EmailSender> {
      const row = await translateDuplicate(() =>
        db.tenant(scope.companyId, async (sql) => {
          const updated = await updateEmailSender(sql, scope, id, input);
          // A link sent to the old address must not verify the new one.
          if (updated) await expireOtherAddressVerifications(sql, scope.companyId, id, updated.email);
          return updated;
        }),
      );
      if (!row) throw notFound('Email sender');
      return presentEmailSender(row);
    },
    async remove(scope: WriteScope, id: number): Promise<void> {
      if (!(await db.tenant(scope.companyId, (sql) => deleteEmailSender(sql, scope, id))))
        throw notFound('Email sender');
    },
    /**
     * Saves the provider the company sends through and removes any other (one provider sends for a company), in
     * one transaction; the send runner picks the change up within seconds and closes the old pool.
     */
    async saveProvider(scope: WriteScope, input: EmailProviderInput): Promise<EmailProvider> {
      const row = await db.tenant(scope.companyId, async (sql) => {
        await deleteOtherEmailProviders(sql, scope, input.provider);
        return upsertEmailProvider(sql, scope, input);
      });
      return presentEmailProvider(row);
    },
    /** Removes a provider entry: the company then sends through the installation's way out. */
    async removeProvider(scope: WriteScope, id: number): Promise<void> {
      if (!(await db.tenant(scope.companyId, (sql) => deleteEmailProvider(sql, scope, id))))
        throw notFound('Email provider');
    },
    async providers(companyId: number): Promise<EmailProvider[]> {
      return (await db.tenant(companyId, (sql) => listEmailProviders(sql, companyId))).map(
        presentEmailProvider,
      );
    },
  };
}

/** The email senders service's interface. */
export type EmailSendersService = ReturnType<typeof emailSendersService>;
