import type { CompanyId } from '../db/database.js';

/**
 * Who makes a change: the company it happens in, the user shown as acting and the person who really
 * acted (the staff member during impersonation). Every write takes one so the audit log is complete.
 */
export interface WriteScope {
  companyId: CompanyId;
  userId: number | null;
  actorUserId: number | null;
}
