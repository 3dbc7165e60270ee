import { z } from 'zod';

/** `GET /api/demo/status/`: whether the demo data set's POS history is still loading, and how far it got. */
export const DemoStatusSchema = z.object({
  loading: z.boolean(),
  /** Checks loaded of those planned, 0–100 (100 once every demo history has finished). */
  percent: z.number().int().min(0).max(100),
});
/** The demo data set's loading progress. */
export type DemoStatus = z.infer<typeof DemoStatusSchema>;
