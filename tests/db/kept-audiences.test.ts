import { describe, expect, it } from 'vitest';
import type { Database } from '../../server/db/database.js';
import { audienceKey, forgetKeptAudiences, keptOrCounted } from '../../server/services/kept-audiences.js';
import { useTwoCompanies } from '../support/two-companies.js';

/**
 * The audiences kept for the company's day (server/services/kept-audiences.ts): read back the same day, counted
 * again on the next, forgotten per company, and never kept from a count a forget came after.
 */
describe('kept audiences', () => {
  let db: Database;
  let companyA: number;
  let companyB: number;
  useTwoCompanies((opened) => ({ db, companyA, companyB } = opened));

  const keyOf = (name: string) => audienceKey({ test: name });

  /** The company's kept rows as key → audience, read as the owner (past row-level security). */
  async function keptRows(companyId: number): Promise<Record<string, number>> {
    return db.owner(async (sql) => {
      const { rows } = await sql.query<{ audience_key: string; audience: number }>(
        'SELECT audience_key, audience FROM kept_audiences WHERE company_id = $1',
        [companyId],
      );
      return Object.fromEntries(rows.map((row) => [row.audience_key, row.audience]));
    });
  }

  /** Counts `keys` for the company on `today`, each missing one as `counts` says, and what was asked to count. */
  async function ask(companyId: number, today: string, keys: string[], counts: Record<string, number>) {
    const asked: string[] = [];
    const asOf = new Date(`${today}T18:00:00Z`);
    const answer = await db.tenant(companyId, (sql) =>
      keptOrCounted(sql, companyId, { asOf, today }, keys, async (missing) =>
        missing.map((index) => {
          asked.push(keys[index]!);
          return counts[keys[index]!]!;
        }),
      ),
    );
    return { answer: answer.map((kept) => kept.audience), asked, asOf };
  }

  it('reads a count back the same day, counts the missing ones only, and again the next day', async () => {
    const [first, second] = [keyOf('first'), keyOf('second')];
    const morning = await ask(companyA, '2025-05-01', [first], { [first]: 10 });
    expect(morning).toMatchObject({ answer: [10], asked: [first] });
    const noon = await ask(companyA, '2025-05-01', [first, second], { [first]: 11, [second]: 20 });
    expect(noon).toMatchObject({ answer: [10, 20], asked: [second] });
    // Company B's same key is its own count.
    expect(await ask(companyB, '2025-05-01', [first], { [first]: 3 })).toMatchObject({
      answer: [3],
      asked: [first],
    });
    const nextDay = await ask(companyA, '2025-05-02', [first], { [first]: 12 });
    expect(nextDay).toMatchObject({ answer: [12], asked: [first] });
    // Only the company's last day stays; the other company's rows are untouched.
    expect(await keptRows(companyA)).toEqual({ [first]: 12 });
    expect(await keptRows(companyB)).toEqual({ [first]: 3 });
    await forgetKeptAudiences(db, companyA);
    expect(await keptRows(companyA)).toEqual({});
    expect(await keptRows(companyB)).toEqual({ [first]: 3 });
  });

  it('keeps no count that a forget came after, even when the two overlap', async () => {
    // On PostgreSQL the two transactions overlap: the forget waits for the count under way, then deletes it.
    // Without that, the count (made from the data before an import) was kept after the import's forget all day.
    const key = keyOf('overlap');
    let started!: () => void;
    const countStarted = new Promise<void>((resolve) => (started = resolve));
    const counting = db.tenant(companyA, (sql) =>
      keptOrCounted(sql, companyA, { asOf: new Date(), today: '2025-06-01' }, [key], async () => {
        started();
        await new Promise((resolve) => setTimeout(resolve, 300));
        return [5];
      }),
    );
    await countStarted;
    await Promise.all([counting, forgetKeptAudiences(db, companyA)]);
    expect(await keptRows(companyA)).toEqual({});
    // The next count after the forget is kept.
    expect(await ask(companyA, '2025-06-01', [key], { [key]: 6 })).toMatchObject({
      answer: [6],
      asked: [key],
    });
    expect(await keptRows(companyA)).toEqual({ [key]: 6 });
  });
});
