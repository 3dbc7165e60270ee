import { z } from 'zod';

/** What a file imports: subscribers, guests, or POS checks (one row per check line). */
export const ImportKindSchema = z.enum(['guest', 'subscriber', 'checks']);
/** What a file imports. */
export type ImportKind = z.infer<typeof ImportKindSchema>;

/** A checks file's outcome in whole checks: stored now, stored before (nothing changed), rejected. */
export const ImportCheckCountsSchema = z.object({
  created: z.number().int(),
  unchanged: z.number().int(),
  rejected: z.number().int(),
});

/**
 * Where an import job is: `receiving` while the file streams in, `queued` and `running` while rows are
 * merged, then `done` or `failed`.
 */
export const ImportStatusSchema = z.enum(['receiving', 'queued', 'running', 'done', 'failed']);
/** An import job's status. */
export type ImportStatus = z.infer<typeof ImportStatusSchema>;

/**
 * Why a row was rejected, as a code the app translates: a required cell is empty, a cell is not valid or too
 * long, the row repeats an earlier line of the file, the record already exists with nothing new, or a quote
 * is never closed.
 */
export const ImportProblemCodeSchema = z.enum([
  'required',
  'invalid',
  'too_long',
  'duplicate_in_file',
  'already_exists',
  'unclosed_quote',
]);
/** A rejected row's reason code. */
export type ImportProblemCode = z.infer<typeof ImportProblemCodeSchema>;

/** The values a reason names: the earlier line a duplicate repeats, the longest length allowed. */
export const ImportProblemParamsSchema = z.object({
  line: z.number().int().optional(),
  max: z.number().int().optional(),
});
/** Values of a rejected row's reason. */
export type ImportProblemParams = z.infer<typeof ImportProblemParamsSchema>;

/**
 * One rejected row: its line in the file (the header is line 1), the field at fault, why as a code with its
 * values (what the app shows, in the user's language), and the same in English for API callers.
 */
export const ImportRowErrorSchema = z.object({
  line: z.number().int(),
  field: z.string().nullable(),
  code: ImportProblemCodeSchema,
  params: ImportProblemParamsSchema,
  message: z.string(),
});
/** A rejected row. */
export type ImportRowError = z.infer<typeof ImportRowErrorSchema>;

/**
 * A CSV import. `read` = imported + updated + duplicates + invalid once done. Duplicates are rows repeating
 * an earlier row of the file, or matching an existing record with nothing new.
 */
export const ImportJobSchema = z.object({
  id: z.number().int(),
  kind: ImportKindSchema,
  status: ImportStatusSchema,
  file_name: z.string(),
  bytes: z.number().int(),
  /** Data rows merged so far, for the progress bar; `read` once done. */
  processed: z.number().int(),
  read: z.number().int(),
  imported: z.number().int(),
  updated: z.number().int(),
  duplicates: z.number().int(),
  invalid: z.number().int(),
  /** A checks file's counts in whole checks (its rows are counted above); null for other kinds. */
  checks: ImportCheckCountsSchema.nullable(),
  /** The first rejected rows; the rejected-rows download has all of them. */
  errors: z.array(ImportRowErrorSchema),
  /** Why the whole import failed, when it did, in English. */
  failure: z.string().nullable(),
  /** The same as a code the app translates: the upload was cut off, or merging failed. */
  failure_code: z.enum(['interrupted', 'failed']).nullable(),
  /** URL of the rejected rows as CSV (invalid and duplicate rows with the reason). */
  rejected_url: z.string(),
  created_at: z.string(),
  finished_at: z.string().nullable(),
});
/** An import job. */
export type ImportJob = z.infer<typeof ImportJobSchema>;
