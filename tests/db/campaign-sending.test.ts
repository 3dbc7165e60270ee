import { describe, expect, it } from 'vitest';
import type { Database } from '../../server/db/database.js';
import { createCampaign } from '../../server/repositories/campaigns.repository.js';
import { createEmailCampaign } from '../../server/repositories/email-campaigns.repository.js';
import { campaignSendingService } from '../../server/services/campaign-sending.service.js';
import { campaignsService } from '../../server/services/campaigns.service.js';
import { expectedAudience, makeCampaignFixture, type CampaignFixture } from '../support/campaign-fixture.js';
import { systemScope } from '../support/factories.js';
import { useTwoCompanies } from '../support/two-companies.js';

describe('campaign sending and the scheduler', () => {
  let db: Database;
  let companyA: number;
  let fixture: CampaignFixture;
  useTwoCompanies((opened) => ({ db, companyA } = opened));

  const owner = <Row>(text: string, params: unknown[] = []) =>
    db.owner(async (sql) => {
      await sql.query("SELECT set_config('app.platform', 'on', true)");
      return (await sql.query<Row>(text, params)).rows;
    });

  async function campaign(fields: Parameters<typeof createCampaign>[2]): Promise<number> {
    const scope = systemScope(companyA);
    return db.tenant(companyA, async (sql) => {
      const row = await createCampaign(sql, scope, fields);
      await createEmailCampaign(sql, scope, {
        campaign_id: row.id,
        template_id: fixture.templateId,
        sender_id: fixture.senderId,
        subject: 'Hi {{first_name}}',
      });
      return row.id;
    });
  }

  it('creates each due run exactly once with two schedulers racing, across a DST change, then marks it sent', async () => {
    fixture = await makeCampaignFixture(db, companyA, { seed: 21 });
    await owner("UPDATE companies SET time_zone = 'America/New_York' WHERE id = $1", [companyA]);
    const audience = {
      segment_ids: [fixture.segmentId],
      list_ids: [fixture.lists[1]!],
      location_ids: [],
      location_group_ids: [fixture.groupId],
    };
    const id = await campaign({
      name: 'Daily across the change',
      ...audience,
      repeat_on: 'daily',
      start: '2026-03-07',
      end: '2026-03-09',
      schedules: ['09:00'],
    });
    let clock = new Date('2026-03-06T12:00:00Z');
    const now = () => clock;
    const schedulers = [
      campaignSendingService(db, { domain: 'test.local', now }),
      campaignSendingService(db, { domain: 'test.local', now }),
    ];
    const sent = await schedulers[0]!.send(systemScope(companyA), id);
    expect(sent).toMatchObject({ status: 'scheduled', next_run_at: '2026-03-07T14:00:00.000Z' });

    const expected = expectedAudience(fixture, audience);
    const frozenIds = [
      ...expected.recipients,
      ...[...expected.suppressed].filter(
        (member) => fixture.subscribers.find((s) => s.id === member)!.subscribed,
      ),
    ].sort((a, b) => a - b);
    const race = async (at: string) => {
      clock = new Date(at);
      // Two schedulers, each ticking twice at once: a due instant must give one run.
      const created = await Promise.all(
        [...schedulers, ...schedulers].map((scheduler) => scheduler.tick(clock)),
      );
      return created.reduce((sum, count) => sum + count, 0);
    };
    const finishRuns = () =>
      owner("UPDATE mail_runs SET status = 'sent', finished_at = now() WHERE status = 'sending'");
    const state = async () =>
      (
        await owner<{ status: string; next_run_at: Date | null }>(
          'SELECT status, next_run_at FROM campaigns WHERE id = $1',
          [id],
        )
      )[0]!;

    expect(await race('2026-03-07T13:59:59Z')).toBe(0);
    expect(await race('2026-03-07T14:00:05Z')).toBe(1);
    expect(await state()).toEqual({ status: 'sending', next_run_at: new Date('2026-03-08T13:00:00Z') });
    const outbox = await owner<{ subscriber_id: number }>(
      'SELECT subscriber_id::int FROM mail_outbox WHERE company_id = $1 ORDER BY subscriber_id',
      [companyA],
    );
    expect(outbox.map((row) => row.subscriber_id)).toEqual(frozenIds);
    expect(await race('2026-03-07T14:00:06Z')).toBe(0);
    await finishRuns();
    expect(await race('2026-03-07T15:00:00Z')).toBe(0);
    expect((await state()).status).toBe('scheduled');
    // After the spring change 09:00 is 13:00 UTC.
    expect(await race('2026-03-08T13:00:01Z')).toBe(1);
    await finishRuns();
    expect(await race('2026-03-09T13:00:01Z')).toBe(1);
    expect(await state()).toEqual({ status: 'sending', next_run_at: null });
    await finishRuns();
    expect(await race('2026-03-09T13:05:00Z')).toBe(0);
    expect((await state()).status).toBe('sent');
    const runs = await owner<{ run_key: string }>(
      "SELECT run_key FROM mail_runs WHERE kind = 'campaign' AND source_id = $1 ORDER BY id",
      [id],
    );
    expect(runs.map((run) => run.run_key)).toEqual([
      '2026-03-07T14:00:00.000Z',
      '2026-03-08T13:00:00.000Z',
      '2026-03-09T13:00:00.000Z',
    ]);
  });

  it('reports progress from the outbox: human opens only, clicks, unsubscribes of its runs', async () => {
    const audience = { segment_ids: [], list_ids: fixture.lists, location_ids: [], location_group_ids: [] };
    const id = await campaign({ name: 'Measured', ...audience });
    const service = campaignSendingService(db, { domain: 'test.local' });
    expect((await service.send(systemScope(companyA), id)).status).toBe('sending');
    const rows = await owner<{ id: number; email: string; run_id: number }>(
      `SELECT o.id::int, o.email, o.run_id::int FROM mail_outbox o JOIN mail_runs r ON r.id = o.run_id
       WHERE r.source_id = $1 AND o.status = 'queued' ORDER BY o.id`,
      [id],
    );
    const opened = rows.filter((_, index) => index % 3 === 0);
    const machine = rows.filter((_, index) => index % 3 === 1);
    const clicked = rows.filter((_, index) => index % 4 === 0);
    const unsubscribed = rows.slice(0, 2);
    await owner("UPDATE mail_outbox SET status = 'sent', sent_at = now() WHERE id = ANY($1::bigint[])", [
      rows.map((r) => r.id),
    ]);
    await owner('UPDATE mail_outbox SET opened_at = now(), open_count = 1 WHERE id = ANY($1::bigint[])', [
      opened.map((r) => r.id),
    ]);
    await owner('UPDATE mail_outbox SET machine_opened_at = now() WHERE id = ANY($1::bigint[])', [
      machine.map((r) => r.id),
    ]);
    await owner('UPDATE mail_outbox SET clicked_at = now(), click_count = 2 WHERE id = ANY($1::bigint[])', [
      clicked.map((r) => r.id),
    ]);
    for (const row of unsubscribed) {
      await owner(
        `INSERT INTO mail_suppressions (company_id, email, email_hash, reason, run_id)
         VALUES ($1, $2, sha256(convert_to(lower($2), 'UTF8')), 'unsubscribed', $3)
         ON CONFLICT (company_id, email_hash) DO UPDATE SET reason = 'unsubscribed', run_id = $3`,
        [companyA, row.email, row.run_id],
      );
    }
    const progress = await campaignsService(db).progress(companyA, id);
    expect(progress).toMatchObject({
      campaign_id: id,
      opened: opened.length,
      clicked: clicked.length,
      unsubscribed: unsubscribed.length,
    });
    expect(progress.counts.sent).toBe(rows.length);
    const summary = await campaignsService(db).summary(companyA, { q: 'Measured', limit: 10, offset: 0 });
    expect(summary.results[0]).toMatchObject({
      sent: rows.length,
      opened: opened.length,
      open_rate: Math.round((opened.length / rows.length) * 10_000) / 100,
    });
  });
});
