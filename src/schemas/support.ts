import { z } from 'zod';
import { pageOf } from './common.js';

/** How much one captured event log may hold: entries and bytes of JSON Lines. */
export const SUPPORT_LOG_LIMITS = { maxEntries: 5000, maxBytes: 5 * 1024 * 1024 } as const;

/** One event-log entry as the app records it (personal data already removed). */
export const EventLogEntrySchema = z.object({
  seq: z.number().int().min(1, 'seq must be 1 or more'),
  at: z.number().int().min(0, 'at must be a time in ms since the epoch'),
  actor: z.string().min(1, 'actor is required').max(200),
  machine: z.string().min(1, 'machine is required').max(100),
  source: z.string().max(200).optional(),
  event: z.looseObject({ type: z.string().min(1, 'event.type is required').max(200) }),
});
/** One event-log entry. */
export type EventLogEntryWire = z.infer<typeof EventLogEntrySchema>;

/** `POST /api/support/event-logs/`: the page's event log, oldest entry first. */
export const SupportEventLogCreateSchema = z.object({
  entries: z
    .array(EventLogEntrySchema)
    .min(1, 'entries must hold at least one entry')
    .max(SUPPORT_LOG_LIMITS.maxEntries, `entries must hold at most ${SUPPORT_LOG_LIMITS.maxEntries} entries`),
});
/** `POST /api/support/event-logs/` body. */
export type SupportEventLogCreate = z.infer<typeof SupportEventLogCreateSchema>;

/** The answer to a stored log: its id. */
export const SupportEventLogCreatedSchema = z.object({ id: z.number().int() });
/** The answer to a stored log. */
export type SupportEventLogCreated = z.infer<typeof SupportEventLogCreatedSchema>;

/** A captured log as platform staff list it (without its content). */
export const SupportEventLogSchema = z.object({
  id: z.number().int(),
  company_id: z.number().int(),
  company_name: z.string(),
  user_id: z.number().int().nullable(),
  /** The sender's first and last name (else their username), null when they were removed. */
  user_name: z.string().nullable(),
  user_email: z.string().nullable(),
  actor_user_id: z.number().int().nullable(),
  /** The staff member acting as the sender, when one was. */
  actor_name: z.string().nullable(),
  actor_email: z.string().nullable(),
  created_at: z.string(),
  entry_count: z.number().int(),
  byte_size: z.number().int(),
});
/** A captured log as platform staff list it. */
export type SupportEventLog = z.infer<typeof SupportEventLogSchema>;

/** A page of captured logs, newest first. */
export const SupportEventLogPageSchema = pageOf(SupportEventLogSchema);
