/** One purchase (a POS check, a CDNOW order): who, on which day, for how much. */
export interface Purchase {
  customer: string;
  /** Whole days since 1970-01-01, in the business's time zone. */
  day: number;
  amount: number;
}

/**
 * What the models need of one customer, as the papers define it: purchases on the same day count as one,
 * the first purchase starts the customer's clock, and only the calibration period is seen.
 */
export interface CustomerHistory {
  customer: string;
  /** Repeat purchases (days with a purchase after the first) up to the calibration end. */
  x: number;
  /** Weeks from the first purchase to the last one in the calibration period. */
  tX: number;
  /** Weeks from the first purchase to the calibration end. */
  T: number;
  /** Average amount of the repeat purchases (0 when there are none): the Gamma-Gamma model's input. */
  monetary: number;
  /** Days with a purchase after the calibration end (the holdout), for validating predictions. */
  holdoutPurchases: number;
}

const DAYS_PER_WEEK = 7;

/** Whole days since 1970-01-01 of a `YYYY-MM-DD` or `YYYYMMDD` date. */
export function dayNumber(date: string): number {
  const match = /^(\d{4})-?(\d{2})-?(\d{2})$/.exec(date);
  if (!match) throw new Error(`"${date}" is not a date (YYYY-MM-DD)`);
  const milliseconds = Date.UTC(Number(match[1]), Number(match[2]) - 1, Number(match[3]));
  return Math.round(milliseconds / 86_400_000);
}

/**
 * Each customer's history as of `calibrationEndDay` (inclusive). Customers whose first purchase falls
 * after it are left out: the models know nothing of them yet.
 */
export function summarisePurchases(
  purchases: Iterable<Purchase>,
  calibrationEndDay: number,
): CustomerHistory[] {
  // Amount per customer per day: same-day purchases are one purchase.
  const days = new Map<string, Map<number, number>>();
  for (const purchase of purchases) {
    let byDay = days.get(purchase.customer);
    if (!byDay) days.set(purchase.customer, (byDay = new Map<number, number>()));
    byDay.set(purchase.day, (byDay.get(purchase.day) ?? 0) + purchase.amount);
  }
  const histories: CustomerHistory[] = [];
  for (const [customer, byDay] of days) {
    const ordered = [...byDay.keys()].sort((a, b) => a - b);
    const first = ordered[0]!;
    if (first > calibrationEndDay) continue;
    let x = 0;
    let last = first;
    let repeatSpend = 0;
    let holdoutPurchases = 0;
    for (const day of ordered.slice(1)) {
      if (day > calibrationEndDay) {
        holdoutPurchases++;
        continue;
      }
      x++;
      last = day;
      repeatSpend += byDay.get(day)!;
    }
    histories.push({
      customer,
      x,
      tX: (last - first) / DAYS_PER_WEEK,
      T: (calibrationEndDay - first) / DAYS_PER_WEEK,
      monetary: x > 0 ? repeatSpend / x : 0,
      holdoutPurchases,
    });
  }
  return histories;
}
