import { describe, expect, it } from 'vitest';
import { fitCompany, type CompanyFitInput, type CompanyFitResult } from '../../server/clv/company-fit.js';
import { fitOffThread } from '../../server/clv/fit-off-thread.js';
import type { Database } from '../../server/db/database.js';
import { refreshCompanyClv } from '../../server/services/clv.service.js';
import { storeVisits } from '../support/clv-checks.js';
import { useTwoCompanies } from '../support/two-companies.js';

const NOW = new Date('2025-12-31T23:00:00Z');

/**
 * Wraps a fitter so that, while it runs, a chain of `setImmediate` callbacks counts the event loop's turns: a
 * fit that holds the loop lets none of them run before it ends.
 */
function countingTurns(fit: (input: CompanyFitInput, signal?: AbortSignal) => Promise<CompanyFitResult>) {
  const counted = { turns: 0 };
  const wrapped = async (input: CompanyFitInput, signal?: AbortSignal) => {
    let fitting = true;
    const turn = () => {
      if (!fitting) return;
      counted.turns++;
      setImmediate(turn);
    };
    setImmediate(turn);
    try {
      return await fit(input, signal);
    } finally {
      fitting = false;
    }
  };
  return { counted, wrapped };
}

describe('a CLV fit beside the API', () => {
  let db: Database;
  let companyA: number;
  let companyB: number;
  useTwoCompanies((opened) => ({ db, companyA, companyB } = opened));

  it('leaves the event loop turning while the models are fitted in a worker thread, and writes the same figures', async () => {
    await storeVisits(db, companyA, 450);
    const inThread = countingTurns(fitOffThread);
    const threaded = await refreshCompanyClv(db, companyA, { now: NOW, fit: inThread.wrapped });
    expect(threaded.method).toBe('model');
    // Timers, requests and (on PGlite) the database's statements kept their turns throughout.
    expect(inThread.counted.turns).toBeGreaterThan(100);

    // The same fit on the event loop itself (the control): not one turn until it ends. Its histories are read in
    // pages of 7 guests, which changes nothing in them.
    const onLoop = countingTurns((input) => Promise.resolve(fitCompany(input)));
    const inline = await refreshCompanyClv(db, companyA, {
      now: NOW,
      fit: onLoop.wrapped,
      historyPageGuests: 7,
    });
    expect(onLoop.counted.turns).toBe(0);
    expect([inline.guests, inline.repeat_guests]).toEqual([threaded.guests, threaded.repeat_guests]);
    expect(inline.r).toBeCloseTo(threaded.r!, 10);
    expect(inline.gamma).toBeCloseTo(threaded.gamma!, 10);
  });

  it('stops a fit in its thread when asked, and writes nothing', async () => {
    await storeVisits(db, companyB, 450, 9);
    const stop = new AbortController();
    const refresh = refreshCompanyClv(db, companyB, {
      now: NOW,
      signal: stop.signal,
      fit: (input, signal) => {
        const running = fitOffThread(input, signal);
        stop.abort(new Error('stopping'));
        return running;
      },
    });
    await expect(refresh).rejects.toThrow('stopping');
    const written = await db.owner(async (sql) => {
      const { rows } = await sql.query<{ n: number }>(
        'SELECT count(*)::int AS n FROM guest_predictions WHERE company_id = $1',
        [companyB],
      );
      return rows[0]!.n;
    });
    expect(written).toBe(0);
  });
});
