import type { CompanyId, Sql } from '../db/database.js';
import { ownerLanguage, type AccountLanguage } from '../repositories/account-settings.repository.js';
import * as senders from '../repositories/email-senders.repository.js';
import * as templates from '../repositories/email-templates.repository.js';
import { findCompanyMailIdentity } from '../repositories/mail-runs.repository.js';

/**
 * The email step's look-ups (docs/flows.md, "Speed"), remembered for one transaction: the runner runs up to
 * `perTransaction` enrolments of a company in one transaction, and each email step read the same template,
 * sender, company identity and owner's language again. Keyed by the transaction's `Sql` (a new one per
 * transaction on both drivers), so nothing outlives the transaction and an edit is seen by the next turn.
 * Each function answers exactly what the repository's namesake answers.
 */

const remembered = new WeakMap<Sql, Map<string, Promise<unknown>>>();

/** `load`'s answer, read once per transaction and key; a failed read is forgotten (a savepoint may retry). */
function once<T>(sql: Sql, key: string, load: () => Promise<T>): Promise<T> {
  let cache = remembered.get(sql);
  if (!cache) remembered.set(sql, (cache = new Map<string, Promise<unknown>>()));
  const known = cache.get(key) as Promise<T> | undefined;
  if (known) return known;
  const loading = load();
  cache.set(key, loading);
  loading.catch(() => cache.delete(key));
  return loading;
}

/** The company's template (the repository's `getEmailTemplate`), once per transaction. */
export function getEmailTemplate(
  sql: Sql,
  companyId: CompanyId,
  id: number,
): ReturnType<typeof templates.getEmailTemplate> {
  return once(sql, `template.${companyId}.${id}`, () => templates.getEmailTemplate(sql, companyId, id));
}

/** The company's sender (the repository's `getEmailSender`), once per transaction. */
export function getEmailSender(
  sql: Sql,
  companyId: CompanyId,
  id: number,
): ReturnType<typeof senders.getEmailSender> {
  return once(sql, `sender.${companyId}.${id}`, () => senders.getEmailSender(sql, companyId, id));
}

/** The company's senders (the repository's `listEmailSenders`), once per transaction. */
export function listEmailSenders(
  sql: Sql,
  companyId: CompanyId,
): ReturnType<typeof senders.listEmailSenders> {
  return once(sql, `senders.${companyId}`, () => senders.listEmailSenders(sql, companyId));
}

/** What a mail run is frozen with: the company's postal address (null: no such company) and owner's language. */
export interface RunIdentity {
  postalAddress: string | null;
  language: AccountLanguage;
}

/** The company's postal address and its owner's language, once per transaction. */
export function runIdentity(sql: Sql, companyId: CompanyId): Promise<RunIdentity> {
  return once(sql, `identity.${companyId}`, async () => ({
    postalAddress: (await findCompanyMailIdentity(sql, companyId))?.postal_address ?? null,
    language: await ownerLanguage(sql, companyId),
  }));
}
