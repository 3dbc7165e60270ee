import { z } from 'zod';

/** The longest CLV horizon a company may set, in years. */
export const MAX_CLV_HORIZON_YEARS = 10;

/** True when `value` has no more than `places` decimals (as the database stores it). */
const hasPlaces = (places: number) => (value: number) => {
  const scaled = value * 10 ** places;
  return Math.abs(scaled - Math.round(scaled)) < 1e-9;
};

/** `PUT /customers/clv/`: the company's CLV horizon and yearly discount rate (docs/clv.md). */
export const ClvSettingsUpdateSchema = z.object({
  horizon_years: z
    .number('horizon_years must be a number of years')
    .gt(0, 'horizon_years must be more than 0')
    .lte(MAX_CLV_HORIZON_YEARS, `horizon_years must be at most ${MAX_CLV_HORIZON_YEARS}`)
    .refine(hasPlaces(2), 'horizon_years has more than two decimals'),
  discount_rate: z
    .number('discount_rate must be a number (0.1 is 10 % a year)')
    .gte(0, 'discount_rate must not be negative')
    .lt(1, 'discount_rate must be less than 1')
    .refine(hasPlaces(4), 'discount_rate has more than four decimals'),
});
/** A CLV settings change. */
export type ClvSettingsUpdate = z.infer<typeof ClvSettingsUpdateSchema>;

/** The fitted parameters of both models (BG/NBD: r, alpha, a, b; Gamma-Gamma: p, q, gamma). */
export const ClvParametersSchema = z.object({
  r: z.number(),
  alpha: z.number(),
  a: z.number(),
  b: z.number(),
  log_likelihood: z.number(),
  p: z.number(),
  q: z.number(),
  gamma: z.number(),
});

/** A company's latest fit: `model`, or `historical` (too little history; no parameters). */
export const ClvFitSchema = z.object({
  method: z.enum(['model', 'historical']),
  /** The last day of checks the fit saw, in the company's time zone. */
  calibration_end: z.string(),
  guests: z.number().int(),
  repeat_guests: z.number().int(),
  parameters: ClvParametersSchema.nullable(),
  /** The settings the fit's figures were computed with. */
  horizon_years: z.number(),
  discount_rate: z.number(),
  fitted_at: z.string(),
});
/** A company's latest fit. */
export type ClvFit = z.infer<typeof ClvFitSchema>;

/** `GET /customers/clv/`: the company's CLV settings, its latest fit (null before the first) and its refresh. */
export const ClvStatusSchema = z.object({
  horizon_years: z.number(),
  discount_rate: z.number(),
  fit: ClvFitSchema.nullable(),
  refresh: z.object({
    /** A refresh is waiting for a worker. */
    pending: z.boolean(),
    /** A worker is refitting now. */
    running: z.boolean(),
  }),
});
/** The company's CLV settings, fit and refresh. */
export type ClvStatus = z.infer<typeof ClvStatusSchema>;
