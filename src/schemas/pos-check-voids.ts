import { z } from 'zod';
import { MAX_CHECKS_PER_BATCH, RejectedCheckSchema } from './pos-checks.js';

/** `POST /pos/checks/void/`: each entry is read on its own, like a batch of checks. */
export const PosCheckVoidBatchSchema = z.object({
  checks: z
    .array(
      z.record(z.string(), z.unknown(), 'each check must be an object'),
      'checks must be a list of checks',
    )
    .min(1, 'checks must hold at least one check')
    .max(MAX_CHECKS_PER_BATCH, `checks must hold at most ${MAX_CHECKS_PER_BATCH} checks`),
});

/** What a void did: checks taken away, places of checks that were not stored, entries refused. */
export const PosCheckVoidAnswerSchema = z.object({
  voided: z.number().int(),
  not_found: z.array(z.number().int()),
  rejected: z.array(RejectedCheckSchema),
});
/** What a void did. */
export type PosCheckVoidAnswer = z.infer<typeof PosCheckVoidAnswerSchema>;
