import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestApp, type ApiCaller, type TestApp } from '../support/app.js';
import { makeGuest, makeSubscriber } from '../support/factories.js';

/** A guest as the list and profile calls name them. */
interface GuestKey {
  id: number;
  hashid: string;
  pos_id: string;
}

describe('one email-consent rule for the guest list, its export, the invite count and the profile', () => {
  let t: TestApp;
  let company: ApiCaller;

  beforeAll(async () => {
    t = await openTestApp();
    company = await t.newCaller('Consent Co');
  });
  afterAll(() => t.close());

  const get = (url: string) => t.app.inject({ method: 'GET', url, headers: company.headers });

  /** The consent read straight from the tables, without the app's rule: the oldest linked subscriber's flag. */
  async function consentFromTables(): Promise<Map<number, string>> {
    const { rows } = await t.database.db.owner((sql) =>
      sql.query<{ id: number; subscribed: boolean | null }>(
        `SELECT g.id, (SELECT s.subscribed FROM subscribers s
                        WHERE s.company_id = g.company_id AND s.guest_id = g.id ORDER BY s.id LIMIT 1) AS subscribed
         FROM guests g WHERE g.company_id = $1`,
        [company.companyId],
      ),
    );
    return new Map(
      rows.map((row) => [
        Number(row.id),
        row.subscribed === null ? 'never_asked' : row.subscribed ? 'subscribed' : 'unsubscribed',
      ]),
    );
  }

  it('answers the same for each guest through the list, the profile and the tables', async () => {
    const db = t.database.db;
    const id = company.companyId;
    const optedIn = await makeGuest(db, id, { customer_name: 'Opted In' });
    await makeSubscriber(db, id, { guest_id: optedIn.id, subscribed: true });
    // The case issue 11 found: a linked subscriber who said no was shown as 'Subscribed' in the list.
    const saidNo = await makeGuest(db, id, { customer_name: 'Said No' });
    await makeSubscriber(db, id, { guest_id: saidNo.id, subscribed: false });
    // Two subscribers for one guest: the oldest speaks, as the profile's linked subscriber is the oldest.
    const twice = await makeGuest(db, id, { customer_name: 'Two Records' });
    await makeSubscriber(db, id, { guest_id: twice.id, subscribed: false });
    await makeSubscriber(db, id, { guest_id: twice.id, subscribed: true });
    const neverAsked = await makeGuest(db, id, { customer_name: 'Never Asked' });

    const expected = await consentFromTables();
    expect(expected.get(optedIn.id)).toBe('subscribed');
    expect(expected.get(saidNo.id)).toBe('unsubscribed');
    expect(expected.get(twice.id)).toBe('unsubscribed');
    expect(expected.get(neverAsked.id)).toBe('never_asked');

    const list = (await get('/api/pos/guests/?page_size=50')).json<{
      results: (GuestKey & { email_consent: string })[];
    }>();
    expect(list.results).toHaveLength(4);
    for (const guest of list.results) {
      const profile = (
        await get(
          `/api/pos/guests/${guest.id}/?hashid=${guest.hashid}&pos_id=${encodeURIComponent(guest.pos_id)}`,
        )
      ).json<{ guest: { email_consent: string }; subscription: { subscribed: boolean } | null }>();
      expect(guest.email_consent, `list, guest ${guest.id}`).toBe(expected.get(guest.id));
      expect(profile.guest.email_consent, `profile, guest ${guest.id}`).toBe(expected.get(guest.id));
      // The linked subscriber the profile shows says the same.
      const linked = profile.subscription;
      expect(linked === null ? 'never_asked' : linked.subscribed ? 'subscribed' : 'unsubscribed').toBe(
        expected.get(guest.id),
      );
    }
  });

  it('counts and exports as "to invite" exactly the guests never asked', async () => {
    const expected = await consentFromTables();
    const neverAsked = [...expected].filter(([, consent]) => consent === 'never_asked').map(([id]) => id);
    const page = (await get('/api/pos/guests/?is_subscriber=false&page_size=1')).json<{ count: number }>();
    expect(page.count).toBe(neverAsked.length);
    const csv = (await get('/api/pos/guests/export/?is_subscriber=false')).body.trim().split('\r\n');
    expect(csv.slice(1).map((line) => Number(line.split(',')[0]))).toEqual(neverAsked);
    expect(csv.slice(1).every((line) => line.endsWith(',false,never_asked'))).toBe(true);
    const bad = await get('/api/pos/guests/?is_subscriber=maybe');
    expect(bad.statusCode).toBe(400);
  });
});
