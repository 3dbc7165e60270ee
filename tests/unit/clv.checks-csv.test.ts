import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';

/**
 * `npm run clv -- --format checks-csv` on a generated POS checks file (the layout of the checks upload): the
 * customers and repeat buyers it counts against a plain count of what was generated, and a fit that runs.
 */

const CALIBRATION_END = '2024-09-30';
const HEADER =
  'location_id,check_number,opened_at,closed_at,total,subtotal,tax,tip,discount,guest_count,revenue_center,' +
  'customer_name,last_four_digits,pos_id,menu_item,category,quantity,amount';

/** A small seeded generator (mulberry32), so the file is the same on every run. */
function random(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

/** `YYYY-MM-DD` of a day of 2024 (0 = January 1st). */
const dateOf = (day: number) => new Date(Date.UTC(2024, 0, 1 + day)).toISOString().slice(0, 10);

/** The file, and each guest's days with a check, as generated. */
function generate() {
  const next = random(13);
  const rows = [HEADER];
  const daysOf = new Map<string, Set<string>>();
  let number = 0;
  const check = (who: { name: string; digits: string; pos: string } | null, day: number) => {
    number++;
    const date = dateOf(day);
    // Late in the evening at UTC−5: the UTC date is the next day; the check counts on its local date.
    const closed = `${date}T23:${String(10 + (number % 40)).padStart(2, '0')}:00-05:00`;
    const lines = 1 + Math.floor(next() * 3);
    const total = `${10 + lines * 7}.50`;
    // Card-only guests are written in any case; POS ids as they are.
    const name = who && next() < 0.5 ? who.name.toUpperCase() : (who?.name ?? '');
    for (let line = 0; line < lines; line++) {
      rows.push(
        [
          1,
          `C${number}`,
          `${date}T20:00:00-05:00`,
          closed,
          total,
          '',
          '',
          '',
          '',
          '',
          '',
          name,
          who?.digits ?? '',
        ]
          .concat([who?.pos ?? '', `Dish ${line}`, 'Food', '1', '7.00'])
          .join(','),
      );
    }
  };
  for (let guest = 0; guest < 300; guest++) {
    const who =
      guest % 2 === 0
        ? { name: '', digits: '', pos: `P-${guest}` }
        : { name: `Guest ${guest}`, digits: String(1000 + guest), pos: '' };
    const key = who.pos || `${who.name.toLowerCase()}|${who.digits}`;
    const visits = 1 + Math.floor(-Math.log(1 - next()) * 2);
    const days = new Set<string>();
    for (let visit = 0; visit < visits; visit++) {
      const day = Math.floor(next() * 366);
      days.add(dateOf(day));
      check(who, day);
      // Now and then a second check the same day: one purchase for the models.
      if (next() < 0.05) check(who, day);
    }
    daysOf.set(key, days);
  }
  // Checks nobody is known by are left out.
  for (let anonymous = 0; anonymous < 40; anonymous++) check(null, Math.floor(next() * 366));
  return { text: `${rows.join('\n')}\n`, daysOf };
}

describe('`npm run clv` on a POS checks CSV file', () => {
  const folder = mkdtempSync(join(tmpdir(), 'clv-checks-'));
  afterAll(() => rmSync(folder, { recursive: true, force: true }));

  it('counts customers and repeat buyers as a plain count does, and fits both models', async () => {
    const { text, daysOf } = generate();
    const input = join(folder, 'checks.csv');
    writeFileSync(input, text);
    let customers = 0;
    let repeatBuyers = 0;
    for (const days of daysOf.values()) {
      const before = [...days].filter((day) => day <= CALIBRATION_END);
      if (before.length === 0) continue;
      customers++;
      if (before.length > 1) repeatBuyers++;
    }
    const { stdout } = await promisify(execFile)(
      'npm',
      [
        'run',
        '-s',
        'clv',
        '--',
        '--input',
        input,
        '--format',
        'checks-csv',
        '--calibration-end',
        CALIBRATION_END,
      ],
      { encoding: 'utf8' },
    );
    const printed = JSON.parse(stdout) as Record<string, number>;
    expect(printed).toMatchObject({ customers, repeat_buyers: repeatBuyers });
    expect(customers).toBeGreaterThan(200);
    expect(repeatBuyers).toBeGreaterThan(50);
    for (const name of ['r', 'alpha', 'a', 'b', 'p', 'q', 'gamma']) {
      expect(Number.isFinite(printed[name]) && printed[name]! > 0, name).toBe(true);
    }
    expect(printed.log_likelihood).toBeLessThan(0);
  });

  it('names a row without a readable total', async () => {
    const input = join(folder, 'bad.csv');
    writeFileSync(input, `${HEADER}\n1,A,2024-01-01T10:00:00Z,2024-01-01T11:00:00Z,12.345,,,,,,,,,P-1,,,,\n`);
    await expect(
      promisify(execFile)('npm', [
        'run',
        '-s',
        'clv',
        '--',
        '--input',
        input,
        '--format',
        'checks-csv',
        '--calibration-end',
        CALIBRATION_END,
      ]),
    ).rejects.toMatchObject({ code: 2, stderr: expect.stringContaining('Line 2') });
  });
});
