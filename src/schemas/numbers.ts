import { z } from 'zod';

/** Plain decimal digits, no sign, spaces, exponent, fraction or leading zero: what `String(n)` writes. */
const DECIMAL_DIGITS = /^(0|[1-9][0-9]{0,15})$/;

/** Bounds of a whole number in a URL, and the message for one above the maximum. */
export interface WholeNumberBounds {
  min?: number;
  max?: number;
  maxMessage?: string;
}

/**
 * A whole number written in a URL (a path id, `?page=`, `?location_id=`), read strictly: `1e3`, `0x10`,
 * ` 12`, `12.0`, `+5`, `-1`, `''` and anything past the safe integer range are refused with `message`,
 * never read as another number (`z.coerce.number()` reads `1e3` as 1000 and `''` as 0). A number given
 * as a number (a caller building the query in code) is taken as it is.
 */
export function urlWholeNumber(message: string, bounds: WholeNumberBounds = {}) {
  const { min = 1, max = Number.MAX_SAFE_INTEGER, maxMessage = message } = bounds;
  return z
    .union([z.string().regex(DECIMAL_DIGITS, message).transform(Number), z.number()], { error: message })
    .pipe(z.number().int(message).min(min, message).max(max, maxMessage));
}
