import { SEGMENT_EXPORT_RETENTION_DAYS } from '../../src/schemas/segment-exports.js';
import type { Database } from '../db/database.js';
import { csvLine } from '../http/csv-writer.js';
import { ApiError } from '../http/errors.js';
import type { Mailer } from '../mail/mailer.js';
import { segmentExportEmail } from '../mail/segment-export-email.js';
import { guestListRowsByIds } from '../repositories/guests.repository.js';
import { UnknownReferenceError } from '../repositories/references.js';
import {
  appendSegmentExportTurn,
  failSegmentExport,
  getSegmentExport,
  holdSegmentExport,
  markSegmentExportEmailed,
  type ClaimedSegmentExport,
  type SegmentExportRow,
} from '../repositories/segment-exports.repository.js';
import { SegmentRulesRefusedError, segmentMemberIds } from '../repositories/segment-rules.repository.js';
import { getSegment } from '../repositories/segments.repository.js';
import { findActiveUserForMail } from '../repositories/users.repository.js';
import { GUEST_EXPORT_COLUMNS, guestExportCells } from './guests.service.js';
import { ruleSetOf, segmentLocations } from './segment-input.js';

/**
 * One turn of a background segment export (docs/segments.md, "Background exports"): the next members after the
 * export's resume point, read by the same rule run and written with the same columns and cells as the streamed
 * export, stored as one chunk with the progress in one transaction. The mail to the chosen user once done.
 */

/** What became of a turn. */
export type SegmentExportTurnOutcome = 'more' | 'done' | 'failed' | 'lost';

/** Why an export failed: a code the app translates, never data. */
export type SegmentExportFailure = 'rules_refused' | 'segment_deleted' | 'export_failed';

/** Thrown inside a turn's transaction to fail the export with a code after rolling the turn back. */
class ExportFailure extends Error {
  constructor(readonly code: SegmentExportFailure) {
    super(code);
  }
}

/** The failure code of an error thrown while a turn ran. */
function failureOf(error: unknown): SegmentExportFailure {
  if (error instanceof ExportFailure) return error.code;
  // A rule naming something deleted since, or a stored rule the catalogue no longer takes.
  if (error instanceof SegmentRulesRefusedError || error instanceof UnknownReferenceError)
    return 'rules_refused';
  if (error instanceof ApiError && error.status === 400) return 'rules_refused';
  return 'export_failed';
}

/**
 * Writes the next `turnRows` members of a claimed export, or fewer and marks it done. Answers `lost` when the
 * claim was taken over meanwhile (nothing written) and `failed` when the export cannot go on.
 */
export async function writeSegmentExportTurn(
  db: Database,
  job: ClaimedSegmentExport,
  turnRows: number,
): Promise<{ outcome: SegmentExportTurnOutcome; failure?: SegmentExportFailure; held?: SegmentExportRow }> {
  try {
    return await db.tenant(job.company_id, async (sql) => {
      const held = await holdSegmentExport(sql, job);
      if (!held) return { outcome: 'lost' as const };
      const segment = await getSegment(sql, held.company_id, held.segment_id);
      if (!segment) throw new ExportFailure('segment_deleted');
      const ruleSet = ruleSetOf(segment.segment_groups.map(({ segment_rules }) => ({ segment_rules })));
      const locationIds = await segmentLocations(sql, held.company_id, segment);
      const ids =
        locationIds !== null && locationIds.length === 0
          ? []
          : await segmentMemberIds(
              sql,
              held.company_id,
              ruleSet,
              { afterId: held.last_guest_id, limit: turnRows },
              { locationIds },
            );
      // A guest deleted since the ids were read is skipped, as the stream skips it.
      const rows = ids.length === 0 ? [] : await guestListRowsByIds(sql, held.company_id, ids);
      const header = held.chunks === 0 ? csvLine(GUEST_EXPORT_COLUMNS) : '';
      const done = ids.length < turnRows;
      await appendSegmentExportTurn(
        sql,
        held,
        {
          content: header + rows.map((row) => csvLine(guestExportCells(row))).join(''),
          rows: rows.length,
          lastGuestId: ids.at(-1) ?? held.last_guest_id,
          done,
        },
        SEGMENT_EXPORT_RETENTION_DAYS,
      );
      return { outcome: done ? ('done' as const) : ('more' as const), held };
    });
  } catch (error) {
    const failure = failureOf(error);
    // The turn's transaction rolled back; the failure is written in one of its own, if the claim still holds.
    const failed = await db.tenant(job.company_id, async (sql) => {
      const held = await holdSegmentExport(sql, job);
      if (!held) return false;
      await failSegmentExport(sql, held, failure);
      return true;
    });
    if (!failed) return { outcome: 'lost' };
    if (failure === 'export_failed') throw Object.assign(new Error('export_failed'), { cause: error });
    return { outcome: 'failed', failure };
  }
}

/** Where the ready mail's link points and how it is signed. */
export interface SegmentExportMail {
  mailer: Mailer;
  publicUrl: string;
  brandName: string;
  from: string;
}

/**
 * Mails the user chosen for a finished export, once; nothing when none was chosen or the user was deleted or
 * deactivated since. A mail that fails is not retried (the file is listed in the app all the same).
 */
export async function mailFinishedSegmentExport(
  db: Database,
  mail: SegmentExportMail,
  companyId: number,
  exportId: number,
): Promise<boolean> {
  const target = await db.tenant(companyId, async (sql) => {
    const row = await getSegmentExport(sql, companyId, exportId);
    if (row?.status !== 'done' || row.email_user_id === null || row.emailed_at !== null) return null;
    const user = await findActiveUserForMail(sql, companyId, row.email_user_id);
    if (!user) return null;
    await markSegmentExportEmailed(sql, companyId, exportId);
    return { row, user };
  });
  if (!target) return false;
  const message = segmentExportEmail({
    language: target.user.language,
    brand: mail.brandName,
    publicUrl: mail.publicUrl,
    segmentName: target.row.segment_name,
    rows: target.row.rows_written,
    expiresAt: target.row.expires_at,
  });
  await mail.mailer.send({
    companyId,
    from: mail.from,
    to: target.user.email,
    subject: message.subject,
    text: message.text,
    html: message.html,
  });
  return true;
}
