import type { CompanyId, Database, Sql } from '../db/database.js';
import { ApiError, fieldFailure, notFound } from '../http/errors.js';
import { ownerLanguage, type AccountLanguage } from '../repositories/account-settings.repository.js';
import {
  changeRunStatus,
  findCompanyMailIdentity,
  findRun,
  freezeOutbox,
  insertRunOnce,
  runProgress,
  updateCompanyPostalAddress,
  type MailRunRow,
  type RunAudience,
  type RunContent,
  type RunProgress,
  type RunStatus,
} from '../repositories/mail-runs.repository.js';
import type { WriteScope } from '../repositories/scope.js';

/**
 * Mail runs (docs/sending.md): what campaigns and flows call to send. `freezeRun` stores the content and the
 * audience in one transaction; the send runner (server/jobs/send-runner.ts) does the rest. Pause, resume and
 * cancel act between batches.
 */

/** What a run is created from. */
export interface FreezeRunInput {
  kind: MailRunRow['kind'];
  /** The campaign or flow step; null for a test send. */
  sourceId: number | null;
  /** Which run of the source: the same key again finds the first run instead of sending twice. */
  runKey: string;
  content: RunContent;
  audience: RunAudience;
  /** The company's postal address (not blank) and owner's language when the caller read them already (flows). */
  identity?: { postalAddress: string; language: AccountLanguage };
}

/** A frozen run: whether this call created it, and how many outbox rows it holds. */
export interface FrozenRun {
  run: MailRunRow;
  created: boolean;
  recipients: number;
}

/** The error that names the setting a send needs first. */
export function postalAddressRequired(): ApiError {
  return new ApiError(
    400,
    'postal_address_required',
    "Set the company's postal address (account settings) before sending: every marketing email shows it",
    { postal_address: fieldFailure('required', 'The company postal address is required before sending') },
  );
}

/**
 * `freezeRun` inside the caller's transaction, so a caller's own writes (a campaign's status and next instant)
 * commit with the run or not at all. `domain` is the installation's host, for Message-IDs.
 */
export async function freezeRunIn(
  sql: Sql,
  scope: WriteScope,
  domain: string,
  input: FreezeRunInput,
): Promise<FrozenRun> {
  const { postalAddress, language } = input.identity ?? (await readIdentity(sql, scope.companyId));
  const { run, created } = await insertRunOnce(sql, scope, {
    kind: input.kind,
    sourceId: input.sourceId,
    runKey: input.runKey,
    content: input.content,
    postalAddress,
    language,
  });
  if (!created) return { run, created, recipients: run.recipients };
  const recipients = await freezeOutbox(sql, scope.companyId, run.id, domain, input.audience);
  return { run: { ...run, recipients }, created, recipients };
}

/** The company's trimmed postal address and owner's language; refused without a company or an address. */
async function readIdentity(
  sql: Sql,
  companyId: CompanyId,
): Promise<{ postalAddress: string; language: AccountLanguage }> {
  const company = await findCompanyMailIdentity(sql, companyId);
  if (!company) throw notFound('company');
  if (company.postal_address.trim() === '') throw postalAddressRequired();
  return { postalAddress: company.postal_address.trim(), language: await ownerLanguage(sql, companyId) };
}

/** The service over one database; `domain` is the installation's host, for Message-IDs. */
export function mailRunsService(db: Database, domain: string) {
  return {
    /**
     * Creates the run and its outbox in one transaction, or finds the run made earlier with the same key (even
     * by another process). Refused with `postal_address_required` while the company has no postal address.
     */
    async freezeRun(scope: WriteScope, input: FreezeRunInput): Promise<FrozenRun> {
      return db.tenant(scope.companyId, (sql) => freezeRunIn(sql, scope, domain, input));
    },

    /** Stops claiming the run's messages; the batch in flight finishes. */
    pauseRun: (scope: WriteScope, runId: number) => changeStatus(db, scope, runId, ['sending'], 'paused'),
    /** Lets a paused run send again. */
    resumeRun: (scope: WriteScope, runId: number) => changeStatus(db, scope, runId, ['paused'], 'sending'),
    /** Ends the run: its unclaimed messages are cancelled. */
    cancelRun: (scope: WriteScope, runId: number) =>
      changeStatus(db, scope, runId, ['sending', 'paused'], 'cancelled'),

    /** The run and its outbox counted by status; 404 for another company's run. */
    async progress(companyId: CompanyId, runId: number): Promise<{ run: MailRunRow; counts: RunProgress }> {
      return db.tenant(companyId, async (sql) => {
        const run = await findRun(sql, companyId, runId);
        if (!run) throw notFound('mail run');
        return { run, counts: await runProgress(sql, companyId, runId) };
      });
    },

    /** The company's postal address ('' until set); 404 for no such company. */
    async postalAddress(companyId: CompanyId): Promise<string> {
      const company = await db.tenant(companyId, (sql) => findCompanyMailIdentity(sql, companyId));
      if (!company) throw notFound('company');
      return company.postal_address;
    },

    /** Sets the postal address the footers show (required before the first send). */
    async setPostalAddress(scope: WriteScope, address: string): Promise<void> {
      // The companies row is written through the platform door only (its policy), for this company alone.
      await db.platform((sql) => updateCompanyPostalAddress(sql, scope, address.trim()));
    },
  };
}

/** The mail-runs service's calls. */
export type MailRunsService = ReturnType<typeof mailRunsService>;

/** Moves a run between statuses; 404 for another company's run, 409 when it is in none of `from`. */
async function changeStatus(
  db: Database,
  scope: WriteScope,
  runId: number,
  from: readonly RunStatus[],
  to: RunStatus,
): Promise<void> {
  await db.tenant(scope.companyId, async (sql) => {
    if (!(await findRun(sql, scope.companyId, runId))) throw notFound('mail run');
    if (!(await changeRunStatus(sql, scope, runId, from, to))) {
      throw new ApiError(409, 'mail_run_status', `The run cannot become ${to} from its current status`);
    }
  });
}
