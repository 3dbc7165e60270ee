import { sql as rawSql, type RawBuilder } from 'kysely';

/**
 * Days for the segment compiler, in the company's time zone (docs/segments.md): "today" is the local date of
 * the moment the count is made (`asOf`), and a day's bounds are instants, so every condition on a check's or a
 * guest's time compares a timestamp with a constant (an index range). Each fragment is an expression of
 * parameters alone (the zone is read before the statement is built), which PostgreSQL folds to a constant when
 * it plans with the values: the bounds are then estimated from the column's statistics and used as index bounds.
 */
export class SegmentClock {
  private readonly asOf: string;

  constructor(
    private readonly zone: string,
    asOf: Date,
  ) {
    this.asOf = asOf.toISOString();
  }

  /** The company's local date at `asOf`. */
  today(): RawBuilder<string> {
    return rawSql`(${this.asOf}::timestamptz AT TIME ZONE ${this.zone}::text)::date`;
  }

  /** The instant the local day `daysBack` days before today begins (−1: tomorrow). */
  dayStart(daysBack: number): RawBuilder<Date> {
    return rawSql`((${this.today()} - ${daysBack}::int)::timestamp AT TIME ZONE ${this.zone}::text)`;
  }

  /** The instant a calendar date (`YYYY-MM-DD`, plus `plusDays`) begins in the company's zone. */
  dateStart(date: string, plusDays = 0): RawBuilder<Date> {
    return rawSql`((${date}::date + ${plusDays}::int)::timestamp AT TIME ZONE ${this.zone}::text)`;
  }

  /** The company's time zone. */
  timeZone(): RawBuilder<string> {
    return rawSql`${this.zone}::text`;
  }
}
