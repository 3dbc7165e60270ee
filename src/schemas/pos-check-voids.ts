import { z } from 'zod';
import { PosChecksBatchSchema, RejectedCheckSchema } from './pos-checks.js';

/** `POST /pos/checks/void/`: a list shaped like a batch of checks, each entry read on its own. */
export const PosCheckVoidBatchSchema = PosChecksBatchSchema;

/** What a void did: checks taken away, places of checks that were not stored, entries refused. */
export const PosCheckVoidAnswerSchema = z.object({
  voided: z.number().int(),
  not_found: z.array(z.number().int()),
  rejected: z.array(RejectedCheckSchema),
});
/** What a void did. */
export type PosCheckVoidAnswer = z.infer<typeof PosCheckVoidAnswerSchema>;
