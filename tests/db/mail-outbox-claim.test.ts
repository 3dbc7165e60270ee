import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { claimOutboxBatch } from '../../server/repositories/mail-outbox.repository.js';
import { mailRunsService } from '../../server/services/mail-runs.service.js';
import { openTestDatabase, type TestDatabase } from '../support/database.js';
import { makeSubscriber, systemScope } from '../support/factories.js';
import { makeFlowCompany } from '../support/flow-fixture.js';

/**
 * The send claim with many one-message runs (a flow email is a run of its own; quiet hours release thousands at
 * once): it takes the earliest rows of the sending runs and locks only the rows it takes, so other workers and
 * the runs' own changes are not held up by locks on rows nobody claimed. PGlite, or PostgreSQL with
 * TEST_DATABASE_URL, where another connection counts the rows left unlocked.
 */

const CONTENT = {
  from: '"Harbor" <news@harbor.example>',
  subject: 'Hello {{first_name}}',
  html: '<html><body><p>Hi {{first_name}}</p></body></html>',
  text: 'Hi {{first_name}}',
  tracking: false,
};

describe('send claim over many runs', () => {
  let test: TestDatabase;
  let companyId: number;
  const outboxIds: number[] = [];

  beforeAll(async () => {
    test = await openTestDatabase();
    companyId = (await makeFlowCompany(test.db, 'Claim Diner')).companyId;
    const runs = mailRunsService(test.db, 'claim.example');
    for (let i = 0; i < 10; i += 1) {
      const person = await makeSubscriber(test.db, companyId, { email: `claim${i}@example.com` });
      const frozen = await runs.freezeRun(systemScope(companyId), {
        kind: 'flow',
        sourceId: 1,
        runKey: `claim-${i}`,
        content: CONTENT,
        audience: { subscriberIds: [person.id] },
      });
      const { rows } = await test.db.owner((sql) =>
        sql.query<{ id: number }>('SELECT id::int FROM mail_outbox WHERE run_id = $1', [frozen.run.id]),
      );
      outboxIds.push(rows[0]!.id);
    }
  });
  afterAll(() => test.drop());

  it('claims the earliest rows across one-message runs and locks only those', async () => {
    let unlocked = -1;
    const claimed = await test.db.platform(async (sql) => {
      const batch = await claimOutboxBatch(sql, 'claim-worker', 3, 60_000);
      if (test.url) {
        // Another connection, while the claim's transaction is still open: every row not taken can be locked.
        unlocked = await test.db.owner(async (other) => {
          const { rows } = await other.query<{ n: number }>(
            `SELECT count(*)::int AS n FROM (SELECT id FROM mail_outbox WHERE id = ANY($1::bigint[])
                                             FOR UPDATE SKIP LOCKED) free`,
            [outboxIds],
          );
          return rows[0]!.n;
        });
      }
      return batch;
    });
    expect(claimed.map((row) => row.id)).toEqual(outboxIds.slice(0, 3));
    if (test.url) expect(unlocked).toBe(7);
    // The next claim takes the next rows, not those already claimed.
    const next = await test.db.platform((sql) => claimOutboxBatch(sql, 'other-worker', 3, 60_000));
    expect(next.map((row) => row.id)).toEqual(outboxIds.slice(3, 6));
  });
});
