import { sql as rawSql, type RawBuilder } from 'kysely';
import type { CompanyId } from '../../db/database.js';

/**
 * Days for the segment compiler, in the company's time zone (docs/segments.md): "today" is the local date of
 * the moment the count is made (`asOf`), and a day's bounds are instants, so every condition on a check's or a
 * guest's time compares a timestamp with a constant (an index range). Each fragment is an uncorrelated
 * subquery, which PostgreSQL works out once per statement.
 */
export class SegmentClock {
  private readonly asOf: string;

  constructor(
    private readonly companyId: CompanyId,
    asOf: Date,
  ) {
    this.asOf = asOf.toISOString();
  }

  /** The company's local date at `asOf`. */
  today(): RawBuilder<string> {
    return rawSql`(SELECT (${this.asOf}::timestamptz AT TIME ZONE co.time_zone)::date
                   FROM companies co WHERE co.id = ${this.companyId})`;
  }

  /** The instant the local day `daysBack` days before today begins (−1: tomorrow). */
  dayStart(daysBack: number): RawBuilder<Date> {
    return rawSql`(SELECT ((${this.asOf}::timestamptz AT TIME ZONE co.time_zone)::date - ${daysBack}::int)::timestamp
                           AT TIME ZONE co.time_zone
                   FROM companies co WHERE co.id = ${this.companyId})`;
  }

  /** The instant a calendar date (`YYYY-MM-DD`, plus `plusDays`) begins in the company's zone. */
  dateStart(date: string, plusDays = 0): RawBuilder<Date> {
    return rawSql`(SELECT (${date}::date + ${plusDays}::int)::timestamp AT TIME ZONE co.time_zone
                   FROM companies co WHERE co.id = ${this.companyId})`;
  }

  /** The company's time zone. */
  timeZone(): RawBuilder<string> {
    return rawSql`(SELECT co.time_zone FROM companies co WHERE co.id = ${this.companyId})`;
  }
}
