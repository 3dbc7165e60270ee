import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CampaignSchema, CampaignSummaryPageSchema } from '../../src/schemas/campaigns.js';
import { openTestApp, type ApiCaller, type TestApp, type UserCaller } from '../support/app.js';
import { expectedAudience, makeCampaignFixture, type CampaignFixture } from '../support/campaign-fixture.js';
import { createEmailTemplate } from '../../server/repositories/email-templates.repository.js';
import { systemScope } from '../support/factories.js';

describe('Campaigns API', () => {
  let t: TestApp;
  let company: ApiCaller;
  let marketer: UserCaller;
  let analyst: UserCaller;
  let other: ApiCaller;
  let mine: CampaignFixture;
  let theirs: CampaignFixture;

  beforeAll(async () => {
    t = await openTestApp();
    company = await t.newCaller('Campaign Co');
    marketer = await t.newUser(company.companyId, 'marketer');
    analyst = await t.newUser(company.companyId, 'analyst');
    other = await t.newCaller('Other Campaign Co');
    mine = await makeCampaignFixture(t.database.db, company.companyId, { seed: 11 });
    theirs = await makeCampaignFixture(t.database.db, other.companyId, {
      seed: 12,
      guests: 10,
      subscribers: 10,
    });
  });
  afterAll(() => t.close());

  const call = (
    caller: { headers: { authorization: string } } | null,
    method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE',
    url: string,
    payload?: object,
  ) => t.app.inject({ method, url: `/api${url}`, payload, headers: caller?.headers ?? {} });

  const audienceOf = (fixture: CampaignFixture) => ({
    segment_ids: [fixture.segmentId],
    list_ids: [fixture.lists[0]!],
    location_ids: [],
    location_group_ids: [],
  });

  async function readyCampaign(name: string, fields: object = {}) {
    const created = await call(marketer, 'POST', '/campaigns/campaigns/', {
      name,
      audience: audienceOf(mine),
      ...fields,
    });
    expect(created.statusCode).toBe(201);
    const id = created.json().id as number;
    const email = await call(marketer, 'PATCH', '/campaigns/email-campaigns/', {
      campaign_id: id,
      template_id: mine.templateId,
      sender_id: mine.senderId,
      subject: 'Hello {{first_name}}',
      preheader: 'This week',
    });
    expect(email.statusCode).toBe(200);
    return id;
  }

  it('answers 401 without credentials on every call', async () => {
    const calls: [Parameters<typeof call>[1], string][] = [
      ['GET', '/campaigns/campaigns/'],
      ['POST', '/campaigns/campaigns/'],
      ['GET', '/campaigns/campaigns/1/'],
      ['PUT', '/campaigns/campaigns/1/'],
      ['DELETE', '/campaigns/campaigns/1/'],
      ['POST', '/campaigns/campaigns/1/send/'],
      ['POST', '/campaigns/campaigns/1/pause/'],
      ['POST', '/campaigns/campaigns/1/resume/'],
      ['POST', '/campaigns/campaigns/1/cancel/'],
      ['GET', '/campaigns/campaigns/1/progress/'],
      ['GET', '/campaigns/campaigns-summary/'],
      ['GET', '/campaigns/email-campaigns/'],
      ['POST', '/campaigns/email-campaigns/'],
      ['PATCH', '/campaigns/email-campaigns/'],
      ['POST', '/campaigns/send-test/'],
      ['POST', '/campaigns/audience-count/'],
    ];
    for (const [method, url] of calls) {
      expect((await call(null, method, url, {})).statusCode, `${method} ${url}`).toBe(401);
    }
  });

  it('creates a draft, reads, lists, saves and deletes it; analysts read but do not write', async () => {
    const created = await call(marketer, 'POST', '/campaigns/campaigns/', {
      name: 'Spring menu',
      audience: audienceOf(mine),
      start: '2026-04-01',
      end: '2026-04-30',
      repeat_on: 'weekly',
      selectedDays: ['fri', 'sat'],
      schedules: ['17:00'],
      categories: ['menu'],
    });
    expect(created.statusCode).toBe(201);
    const body = CampaignSchema.parse(created.json());
    expect(body).toMatchObject({
      name: 'Spring menu',
      status: 'draft',
      audience: audienceOf(mine),
      start: '2026-04-01',
      end: '2026-04-30',
      repeat_on: 'weekly',
      selectedDays: ['fri', 'sat'],
      schedules: ['17:00'],
      categories: ['menu'],
      email: null,
      next_run_at: null,
      counts: { queued: 0, sent: 0 },
    });
    const read = await call(analyst, 'GET', `/campaigns/campaigns/${body.id}/`);
    expect(read.json()).toEqual(created.json());
    const minimal = await call(marketer, 'POST', '/campaigns/campaigns/', { name: 'Only a name' });
    expect(minimal.json()).toMatchObject({ repeat_on: 'once', start: null, schedules: [] });

    const saved = await call(marketer, 'PUT', `/campaigns/campaigns/${body.id}/`, {
      name: 'Spring menu 2',
      audience: { segment_ids: [], list_ids: [mine.lists[1]!], location_ids: [mine.locations[0]!] },
    });
    expect(saved.statusCode).toBe(200);
    expect(saved.json()).toMatchObject({
      name: 'Spring menu 2',
      repeat_on: 'once',
      start: null,
      audience: { segment_ids: [], list_ids: [mine.lists[1]], location_ids: [mine.locations[0]] },
    });
    const listed = await call(analyst, 'GET', '/campaigns/campaigns/?q=spring');
    expect(listed.json()).toMatchObject({ count: 1, results: [{ id: body.id }] });
    expect((await call(analyst, 'GET', '/campaigns/campaigns/?status=sent')).json().count).toBe(0);
    expect((await call(analyst, 'POST', '/campaigns/campaigns/', { name: 'No' })).statusCode).toBe(403);

    expect((await call(marketer, 'DELETE', `/campaigns/campaigns/${body.id}/`)).statusCode).toBe(204);
    expect((await call(marketer, 'GET', `/campaigns/campaigns/${body.id}/`)).statusCode).toBe(404);
    expect((await call(marketer, 'DELETE', `/campaigns/campaigns/${body.id}/`)).statusCode).toBe(404);
  });

  it('names the field of bad input', async () => {
    const cases: [object, string][] = [
      [{ name: '' }, 'name'],
      [{ name: 'x', repeat_on: 'hourly' }, 'repeat_on'],
      [{ name: 'x', start: '2026-13-01' }, 'start'],
      [{ name: 'x', schedules: ['25:00'] }, 'schedules.0'],
      [{ name: 'x', selectedDays: ['someday'] }, 'selectedDays.0'],
      [{ name: 'x', categories: ['nope'] }, 'categories.0'],
      [{ name: 'x', audience: { segment_ids: [-1] } }, 'audience.segment_ids.0'],
      [{ name: 'x', start: '2026-05-02', end: '2026-05-01' }, 'end'],
    ];
    for (const [payload, field] of cases) {
      const answer = await call(marketer, 'POST', '/campaigns/campaigns/', payload);
      expect(answer.statusCode, field).toBe(400);
      expect(Object.keys(answer.json().error.fields), field).toContain(field);
    }
    const badCount = await call(marketer, 'POST', '/campaigns/audience-count/', { list_ids: ['a'] });
    expect(badCount.statusCode).toBe(400);
    expect(Object.keys(badCount.json().error.fields)).toEqual(['list_ids.0']);
    const badEmail = await call(marketer, 'PATCH', '/campaigns/email-campaigns/', {
      campaign_id: 1,
      tracking: 'yes',
    });
    expect(Object.keys(badEmail.json().error.fields)).toEqual(['tracking']);
    const badTest = await call(marketer, 'POST', '/campaigns/send-test/', {
      campaign_id: 1,
      emails: [
        'a@example.com',
        'b@example.com',
        'c@example.com',
        'd@example.com',
        'e@example.com',
        'f@example.com',
      ],
    });
    expect(Object.keys(badTest.json().error.fields)).toEqual(['emails']);
    const noSource = await call(marketer, 'POST', '/campaigns/send-test/', { emails: ['a@example.com'] });
    expect(Object.keys(noSource.json().error.fields)).toEqual(['campaign_id']);
  });

  it("answers 404 naming another company's campaign, segment, list, location, group, template and sender", async () => {
    const theirCampaign = (await call(other, 'POST', '/campaigns/campaigns/', { name: 'Theirs' })).json().id;
    for (const [method, url] of [
      ['GET', `/campaigns/campaigns/${theirCampaign}/`],
      ['PUT', `/campaigns/campaigns/${theirCampaign}/`],
      ['DELETE', `/campaigns/campaigns/${theirCampaign}/`],
      ['POST', `/campaigns/campaigns/${theirCampaign}/send/`],
      ['POST', `/campaigns/campaigns/${theirCampaign}/pause/`],
      ['POST', `/campaigns/campaigns/${theirCampaign}/resume/`],
      ['POST', `/campaigns/campaigns/${theirCampaign}/cancel/`],
      ['GET', `/campaigns/campaigns/${theirCampaign}/progress/`],
    ] as const) {
      expect((await call(marketer, method, url, { name: 'x' })).statusCode, `${method} ${url}`).toBe(404);
    }
    const audiences: [object, string][] = [
      [{ segment_ids: [theirs.segmentId] }, 'segment_ids'],
      [{ list_ids: [theirs.lists[0]!] }, 'list_ids'],
      [{ location_ids: [theirs.locations[0]!] }, 'location_ids'],
      [{ location_group_ids: [theirs.groupId] }, 'location_group_ids'],
    ];
    for (const [audience, field] of audiences) {
      const created = await call(marketer, 'POST', '/campaigns/campaigns/', { name: 'x', audience });
      expect(created.statusCode, field).toBe(404);
      expect(Object.keys(created.json().error.fields)).toEqual([field]);
      const counted = await call(marketer, 'POST', '/campaigns/audience-count/', audience);
      expect(counted.statusCode, field).toBe(404);
      expect(Object.keys(counted.json().error.fields)).toEqual([field]);
    }
    const id = (await call(marketer, 'POST', '/campaigns/campaigns/', { name: 'Mine' })).json().id;
    for (const [fields, field] of [
      [{ template_id: theirs.templateId }, 'template_id'],
      [{ sender_id: theirs.senderId }, 'sender_id'],
    ] as const) {
      const patched = await call(marketer, 'PATCH', '/campaigns/email-campaigns/', {
        campaign_id: id,
        ...fields,
      });
      expect(patched.statusCode, field).toBe(404);
      expect(Object.keys(patched.json().error.fields)).toEqual([field]);
      const tested = await call(marketer, 'POST', '/campaigns/send-test/', {
        campaign_id: id,
        emails: ['me@example.com'],
        ...fields,
      });
      expect(tested.statusCode, field).toBe(404);
      expect(Object.keys(tested.json().error.fields)).toEqual([field]);
    }
    for (const method of ['POST', 'PATCH'] as const) {
      const answer = await call(marketer, method, '/campaigns/email-campaigns/', {
        campaign_id: theirCampaign,
      });
      expect(answer.statusCode).toBe(404);
      expect(Object.keys(answer.json().error.fields)).toEqual(['campaign_id']);
    }
    const listed = await call(marketer, 'GET', `/campaigns/email-campaigns/?campaign_id=${theirCampaign}`);
    expect(listed.json().count).toBe(0);
  });

  it('counts an audience as a brute-force pass over the rows does', async () => {
    for (const audience of [
      audienceOf(mine),
      { ...audienceOf(mine), location_group_ids: [mine.groupId] },
      { segment_ids: [], list_ids: mine.lists, location_ids: [mine.locations[0]!], location_group_ids: [] },
      { segment_ids: [], list_ids: [], location_ids: [], location_group_ids: [] },
    ]) {
      const expected = expectedAudience(mine, audience);
      const answer = await call(analyst, 'POST', '/campaigns/audience-count/', audience);
      expect(answer.json()).toEqual({
        recipients: expected.recipients.size,
        suppressed: expected.suppressed.size,
      });
    }
  });

  it('gives a campaign its content once, and patches it', async () => {
    const id = (await call(marketer, 'POST', '/campaigns/campaigns/', { name: 'Content' })).json().id;
    const created = await call(marketer, 'POST', '/campaigns/email-campaigns/', {
      campaign_id: id,
      template_id: mine.templateId,
      subject: 'Hi',
    });
    expect(created.statusCode).toBe(201);
    expect(created.json()).toMatchObject({
      campaign_id: id,
      template_id: mine.templateId,
      subject: 'Hi',
      tracking: true,
    });
    expect(
      (await call(marketer, 'POST', '/campaigns/email-campaigns/', { campaign_id: id })).statusCode,
    ).toBe(409);
    const patched = await call(marketer, 'PATCH', '/campaigns/email-campaigns/', {
      campaign_id: id,
      tracking: false,
      sender_id: mine.senderId,
    });
    expect(patched.json()).toMatchObject({ subject: 'Hi', tracking: false, sender_id: mine.senderId });
    const listed = await call(analyst, 'GET', `/campaigns/email-campaigns/?campaign_id=${id}`);
    expect(listed.json()).toMatchObject({ count: 1, results: [{ campaign_id: id, tracking: false }] });
    expect((await call(analyst, 'GET', `/campaigns/campaigns/${id}/`)).json().email).toMatchObject({
      subject: 'Hi',
    });
  });

  it('refuses a send naming what is missing, then sends now, shows progress, and locks the campaign', async () => {
    const bare = (await call(marketer, 'POST', '/campaigns/campaigns/', { name: 'Bare' })).json().id;
    const refused = await call(marketer, 'POST', `/campaigns/campaigns/${bare}/send/`);
    expect(refused.statusCode).toBe(400);
    expect(Object.keys(refused.json().error.fields).sort()).toEqual(['sender_id', 'subject', 'template_id']);
    const empty = await call(marketer, 'PUT', `/campaigns/campaigns/${bare}/`, { name: 'Bare' });
    expect(empty.statusCode).toBe(200);
    await call(marketer, 'PATCH', '/campaigns/email-campaigns/', {
      campaign_id: bare,
      template_id: mine.templateId,
      sender_id: mine.senderId,
      subject: 'x',
    });
    const noAudience = await call(marketer, 'POST', `/campaigns/campaigns/${bare}/send/`);
    expect(noAudience.statusCode).toBe(400);
    expect(Object.keys(noAudience.json().error.fields)).toEqual(['audience']);

    const id = await readyCampaign('Now');
    const sent = await call(marketer, 'POST', `/campaigns/campaigns/${id}/send/`);
    expect(sent.statusCode).toBe(200);
    const expected = expectedAudience(mine, audienceOf(mine));
    expect(sent.json().campaign).toMatchObject({ status: 'sending', next_run_at: null });
    const progress = await call(analyst, 'GET', `/campaigns/campaigns/${id}/progress/`);
    const figures = progress.json();
    expect(figures.runs).toHaveLength(1);
    expect(figures.runs[0]).toMatchObject({ run_key: 'now' });
    // Suppressed addresses are frozen as `suppressed` rows; unsubscribed members are not frozen at all.
    const frozenSuppressed = [...expected.suppressed].filter(
      (subscriberId) => mine.subscribers.find((s) => s.id === subscriberId)!.subscribed,
    ).length;
    expect(figures.runs[0].recipients).toBe(expected.recipients.size + frozenSuppressed);
    expect(figures.counts.suppressed).toBe(frozenSuppressed);
    expect((await call(marketer, 'POST', `/campaigns/campaigns/${id}/send/`)).statusCode).toBe(409);
    expect((await call(marketer, 'PUT', `/campaigns/campaigns/${id}/`, { name: 'Changed' })).statusCode).toBe(
      409,
    );
    expect(
      (await call(marketer, 'PATCH', '/campaigns/email-campaigns/', { campaign_id: id, subject: 'Changed' }))
        .statusCode,
    ).toBe(409);

    const paused = await call(marketer, 'POST', `/campaigns/campaigns/${id}/pause/`);
    expect(paused.json()).toMatchObject({ status: 'paused' });
    expect((await call(marketer, 'POST', `/campaigns/campaigns/${id}/pause/`)).statusCode).toBe(409);
    expect((await call(marketer, 'POST', `/campaigns/campaigns/${id}/resume/`)).json()).toMatchObject({
      status: 'sending',
    });
    const cancelled = await call(marketer, 'POST', `/campaigns/campaigns/${id}/cancel/`);
    expect(cancelled.json()).toMatchObject({ status: 'cancelled' });
    const after = (await call(analyst, 'GET', `/campaigns/campaigns/${id}/progress/`)).json();
    expect(after.runs[0].status).toBe('cancelled');

    const summary = CampaignSummaryPageSchema.parse(
      (await call(analyst, 'GET', '/campaigns/campaigns-summary/?q=Now')).json(),
    );
    expect(summary.results[0]).toMatchObject({ id, status: 'cancelled', template_name: 'Hello' });
    expect(summary.results[0]!.recipients).toBe(after.runs[0].recipients);
  });

  it('schedules a later send and a repeating one, and deleting a sending campaign cancels its run', async () => {
    const later = await readyCampaign('Later', { start: '2099-01-05', schedules: ['09:30'] });
    const scheduled = await call(marketer, 'POST', `/campaigns/campaigns/${later}/send/`);
    expect(scheduled.json().campaign).toMatchObject({ status: 'scheduled' });
    expect(scheduled.json().campaign.next_run_at).toMatch(/^2099-01-05T/);
    const past = await readyCampaign('Past', { start: '2001-01-05', schedules: ['09:30'] });
    const refused = await call(marketer, 'POST', `/campaigns/campaigns/${past}/send/`);
    expect(refused.statusCode).toBe(400);
    expect(Object.keys(refused.json().error.fields)).toEqual(['start']);
    const weekly = await readyCampaign('Weekly', { repeat_on: 'weekly', schedules: ['10:00'] });
    const noDays = await call(marketer, 'POST', `/campaigns/campaigns/${weekly}/send/`);
    expect(Object.keys(noDays.json().error.fields)).toEqual(['selectedDays']);

    const sending = await readyCampaign('Deleted while sending');
    await call(marketer, 'POST', `/campaigns/campaigns/${sending}/send/`);
    const runId = (await call(analyst, 'GET', `/campaigns/campaigns/${sending}/progress/`)).json().runs[0].id;
    expect((await call(marketer, 'DELETE', `/campaigns/campaigns/${sending}/`)).statusCode).toBe(204);
    const run = await t.database.db.owner((sql) =>
      sql.query<{ status: string }>('SELECT status FROM mail_runs WHERE id = $1', [runId]),
    );
    expect(run.rows[0]!.status).toBe('cancelled');
  });

  it('sends a test to up to five addresses with [Test] and the footer, not counted', async () => {
    const id = await readyCampaign('Tested');
    const answer = await call(marketer, 'POST', '/campaigns/send-test/', {
      campaign_id: id,
      emails: ['one@example.com', 'two@example.com'],
    });
    expect(answer.statusCode).toBe(200);
    expect(answer.json()).toEqual({ sent: 2 });
    const captured = await t.database.db.owner((sql) =>
      sql.query<{ subject: string; html_body: string; to_address: string }>(
        `SELECT subject, html_body, to_address FROM captured_emails
         WHERE company_id = $1 AND subject LIKE '[Test]%' ORDER BY id`,
        [company.companyId],
      ),
    );
    expect(captured.rows.map((row) => [row.to_address, row.subject])).toEqual([
      ['one@example.com', '[Test] Hello Alex'],
      ['two@example.com', '[Test] Hello Alex'],
    ]);
    expect(captured.rows[0]!.html_body).toContain('Hello Alex');
    expect(captured.rows[0]!.html_body).toContain('1 Harbor Street');
    expect((await call(analyst, 'GET', `/campaigns/campaigns/${id}/`)).json().counts.sent).toBe(0);
    // The company's own tags are real in a test too: its address, this year where it is, an inert view link.
    const tagged = await t.database.db.tenant(company.companyId, (sql) =>
      createEmailTemplate(sql, systemScope(company.companyId), {
        name: 'Tagged',
        export_html: '<mjml><mj-body></mj-body></mjml>',
        html_content:
          '<html><body><p>{{company_address}} © {{current_year}}</p>' +
          '<a href="{{view_in_browser_url}}">View</a></body></html>',
        text_content: '{{company_address}}',
      }),
    );
    const taggedAnswer = await call(marketer, 'POST', '/campaigns/send-test/', {
      template_id: tagged.id,
      subject: 'Tags',
      sender_id: mine.senderId,
      emails: ['three@example.com'],
    });
    expect(taggedAnswer.statusCode).toBe(200);
    const taggedMail = await t.database.db.owner((sql) =>
      sql.query<{ html_body: string }>(
        `SELECT html_body FROM captured_emails WHERE company_id = $1 AND to_address = 'three@example.com'`,
        [company.companyId],
      ),
    );
    const year = new Intl.DateTimeFormat('en-US', { timeZone: 'America/New_York', year: 'numeric' }).format(
      new Date(),
    );
    expect(taggedMail.rows[0]!.html_body).toContain(`1 Harbor Street, Portland © ${year}`);
    expect(taggedMail.rows[0]!.html_body).toMatch(/href="[^"]*\/v\/test"/);
    const byTemplate = await call(marketer, 'POST', '/campaigns/send-test/', {
      template_id: mine.templateId,
      emails: ['one@example.com'],
    });
    expect(byTemplate.statusCode).toBe(400);
    expect(Object.keys(byTemplate.json().error.fields).sort()).toEqual(['sender_id', 'subject']);
  });
});
