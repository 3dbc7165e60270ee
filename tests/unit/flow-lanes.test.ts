import { describe, expect, it } from 'vitest';
import { laneChunks } from '../../server/jobs/flow-lanes.js';

/** Claimed rows: ids 1…n over three companies, subscribers repeating (a person in several flows), some erased. */
function claimed(n: number) {
  return Array.from({ length: n }, (_, index) => ({
    id: n - index,
    company_id: 10 + ((n - index) % 3),
    subscriber_id: (n - index) % 7 === 0 ? null : 1000 + ((n - index) % 40),
  }));
}

describe('laneChunks', () => {
  it('runs every claimed enrolment exactly once, in one-company chunks no larger than the transaction size', () => {
    const rows = claimed(437);
    const lanes = laneChunks(rows, 4, 50);
    const seen = lanes.flat().flatMap((chunk) => chunk.ids);
    expect([...seen].sort((a, b) => a - b)).toEqual(Array.from({ length: 437 }, (_, i) => i + 1));
    const companyOf = new Map(rows.map((row) => [row.id, row.company_id]));
    for (const chunk of lanes.flat()) {
      expect(chunk.ids.length).toBeGreaterThan(0);
      expect(chunk.ids.length).toBeLessThanOrEqual(50);
      expect(chunk.ids.every((id) => companyOf.get(id) === chunk.companyId)).toBe(true);
      expect(chunk.ids).toEqual([...chunk.ids].sort((a, b) => a - b));
    }
    expect(lanes.length).toBeLessThanOrEqual(4);
  });

  it('keeps all enrolments of one person in one lane, so their steps never run at the same time', () => {
    const rows = claimed(300);
    const lanes = laneChunks(rows, 3, 20);
    const laneOf = new Map<number, number>();
    lanes.forEach((chunks, lane) =>
      chunks.forEach((chunk) => chunk.ids.forEach((id) => laneOf.set(id, lane))),
    );
    const lanesOfPerson = new Map<number, Set<number>>();
    for (const row of rows) {
      if (row.subscriber_id === null) continue;
      const set = lanesOfPerson.get(row.subscriber_id) ?? new Set<number>();
      set.add(laneOf.get(row.id)!);
      lanesOfPerson.set(row.subscriber_id, set);
    }
    expect(lanesOfPerson.size).toBe(40);
    for (const set of lanesOfPerson.values()) expect(set.size).toBe(1);
  });

  it('is one sequential lane when told one lane (or fewer), and nothing for nothing claimed', () => {
    const rows = claimed(120);
    for (const lanes of [1, 0]) {
      const result = laneChunks(rows, lanes, 50);
      expect(result).toHaveLength(1);
      expect(result[0]!.map((chunk) => chunk.ids.length).reduce((a, b) => a + b, 0)).toBe(120);
    }
    expect(laneChunks([], 4, 50)).toEqual([]);
  });
});
