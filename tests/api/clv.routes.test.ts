import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fitCompany } from '../../server/clv/company-fit.js';
import { refreshCompanyClv } from '../../server/services/clv.service.js';
import { openTestApp, type TestApp, type UserCaller } from '../support/app.js';
import { storeVisits } from '../support/clv-checks.js';
import { makeLocation } from '../support/factories.js';

const URL = '/api/customers/clv/';

describe('/api/customers/clv/', () => {
  let test: TestApp;
  let ownerA: UserCaller;
  let analystA: UserCaller;
  let ownerB: UserCaller;

  beforeAll(async () => {
    test = await openTestApp();
    const a = await test.newCaller('A');
    const b = await test.newCaller('B');
    ownerA = await test.newUser(a.companyId, 'owner');
    analystA = await test.newUser(a.companyId, 'analyst');
    ownerB = await test.newUser(b.companyId, 'owner');
  });
  afterAll(() => test.close());

  const call = (who: UserCaller | null, method: 'GET' | 'PUT', payload?: object) =>
    test.app.inject({
      method,
      url: URL,
      ...(who ? { headers: who.headers } : {}),
      ...(payload ? { payload } : {}),
    });

  it('answers 401 without credentials', async () => {
    expect((await call(null, 'GET')).statusCode).toBe(401);
    expect((await call(null, 'PUT', { horizon_years: 2, discount_rate: 0.1 })).statusCode).toBe(401);
  });

  it('shows the default settings, no fit and nothing waiting before the first refresh', async () => {
    const answer = await call(analystA, 'GET');
    expect(answer.statusCode).toBe(200);
    expect(answer.json()).toEqual({
      horizon_years: 3,
      discount_rate: 0.1,
      fit: null,
      refresh: { pending: false, running: false },
    });
  });

  it('refuses bad settings with 400 naming each field', async () => {
    for (const [payload, fields] of [
      [{ horizon_years: 0, discount_rate: 1 }, ['discount_rate', 'horizon_years']],
      [{ horizon_years: 10.5, discount_rate: -0.1 }, ['discount_rate', 'horizon_years']],
      [{ horizon_years: 2.555, discount_rate: 0.123456 }, ['discount_rate', 'horizon_years']],
      [{ horizon_years: '3', discount_rate: 0.1 }, ['horizon_years']],
      [{ horizon_years: 3 }, ['discount_rate']],
    ] as const) {
      const answer = await call(ownerA, 'PUT', payload);
      expect(answer.statusCode, JSON.stringify(payload)).toBe(400);
      expect(Object.keys(answer.json().error.fields).sort()).toEqual(fields);
    }
    expect((await call(ownerA, 'GET')).json()).toMatchObject({ horizon_years: 3, discount_rate: 0.1 });
  });

  it('lets only an admin change the settings', async () => {
    expect((await call(analystA, 'PUT', { horizon_years: 2, discount_rate: 0.1 })).statusCode).toBe(403);
  });

  it('changes the company’s settings, asks for a refit, and leaves another company’s alone', async () => {
    const answer = await call(ownerA, 'PUT', { horizon_years: 5, discount_rate: 0.08 });
    expect(answer.statusCode).toBe(200);
    expect(answer.json()).toMatchObject({
      horizon_years: 5,
      discount_rate: 0.08,
      refresh: { pending: true, running: false },
    });
    expect((await call(ownerB, 'GET')).json()).toEqual({
      horizon_years: 3,
      discount_rate: 0.1,
      fit: null,
      refresh: { pending: false, running: false },
    });
    // B changing its own touches only B.
    expect((await call(ownerB, 'PUT', { horizon_years: 1.5, discount_rate: 0 })).json()).toMatchObject({
      horizon_years: 1.5,
      discount_rate: 0,
    });
    expect((await call(ownerA, 'GET')).json()).toMatchObject({ horizon_years: 5, discount_rate: 0.08 });
  });

  it('shows the company’s own fit with its parameters, and none of it to another company', async () => {
    const db = test.database.db;
    await storeVisits(db, ownerA.companyId, 450);
    await refreshCompanyClv(db, ownerA.companyId, {
      now: new Date('2025-12-31T23:00:00Z'),
      fit: (input) => Promise.resolve(fitCompany(input)),
    });
    const fit = (await call(analystA, 'GET')).json().fit;
    expect(fit).toMatchObject({
      method: 'model',
      calibration_end: '2025-12-31',
      guests: 450,
      horizon_years: 5,
      discount_rate: 0.08,
    });
    expect(fit.repeat_guests).toBeGreaterThanOrEqual(200);
    expect(Object.keys(fit.parameters).sort()).toEqual([
      'a',
      'alpha',
      'b',
      'gamma',
      'log_likelihood',
      'p',
      'q',
      'r',
    ]);
    expect(fit.parameters.r).toBeGreaterThan(0);
    expect(Date.parse(fit.fitted_at)).not.toBeNaN();
    expect((await call(ownerB, 'GET')).json().fit).toBeNull();
  });

  it('asks for a refit once a POS connector has sent 1,000 new checks', async () => {
    const connector = await test.newCaller('Connector');
    const location = await makeLocation(test.database.db, connector.companyId);
    const post = (from: number, count: number) =>
      test.app.inject({
        method: 'POST',
        url: '/api/pos/checks/',
        headers: connector.headers,
        payload: {
          checks: Array.from({ length: count }, (_, index) => ({
            location_id: location.id,
            check_number: `N-${from + index}`,
            opened_at: '2025-03-09T18:00:00Z',
            closed_at: '2025-03-09T19:30:00Z',
            total: 12,
          })),
        },
      });
    const asked = () =>
      test.database.db.owner(async (sql) => {
        const { rows } = await sql.query<{ reason: string | null }>(
          'SELECT reason FROM clv_jobs WHERE company_id = $1',
          [connector.companyId],
        );
        return rows[0]?.reason ?? null;
      });
    expect((await post(0, 600)).json()).toMatchObject({ created: 600 });
    expect(await asked()).toBeNull();
    // The same checks again are not new.
    expect((await post(0, 600)).json()).toMatchObject({ created: 0, unchanged: 600 });
    expect(await asked()).toBeNull();
    expect((await post(600, 400)).json()).toMatchObject({ created: 400 });
    expect(await asked()).toBe('new-checks');
  });
});
