import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listCapturedEmails } from '../../server/repositories/captured-emails.repository.js';
import { openTestApp, type ApiCaller, type TestApp, type UserCaller } from '../support/app.js';

describe('Sender verification API', () => {
  let t: TestApp;
  let owner: UserCaller;
  let analyst: UserCaller;
  let other: ApiCaller;

  beforeAll(async () => {
    t = await openTestApp();
    const company = await t.newCaller('Verifying Co');
    owner = await t.newUser(company.companyId, 'owner');
    analyst = await t.newUser(company.companyId, 'analyst');
    other = await t.newCaller('Other Verifying Co');
  });
  afterAll(() => t.close());

  const call = (
    caller: { headers: { authorization: string } },
    method: 'GET' | 'POST' | 'PUT',
    url: string,
    payload?: object,
  ) => t.app.inject({ method, url, payload, headers: caller.headers });

  async function addSender(email: string): Promise<number> {
    const created = await call(owner, 'POST', '/api/campaigns/email-sender/', { name: 'Harbor', email });
    expect(created.statusCode).toBe(201);
    return created.json().id as number;
  }

  /** Sends a verification and returns the token read from the captured message's link. */
  async function sendVerification(senderId: number): Promise<string> {
    const sent = await call(owner, 'POST', `/api/campaigns/email-sender/${senderId}/verification/`);
    expect(sent.statusCode).toBe(200);
    const link = /http:\/\/localhost:3000\/verify-sender\?token=([\w-]+)/.exec(sent.json().message.text);
    expect(link).not.toBeNull();
    return link![1]!;
  }

  const senderOf = async (id: number) =>
    (await call(owner, 'GET', '/api/campaigns/email-sender/'))
      .json()
      .find((s: { id: number }) => s.id === id);

  it('captures the email with its link while no SMTP is set, and the link verifies the sender once', async () => {
    const id = await addSender('hello@verify.example');
    const sent = await call(owner, 'POST', `/api/campaigns/email-sender/${id}/verification/`);
    expect(sent.statusCode).toBe(200);
    const answer = sent.json();
    expect(answer.delivery).toBe('captured');
    expect(answer.message).toMatchObject({
      to: 'hello@verify.example',
      subject: 'Verify hello@verify.example for Regulars',
    });

    // The row is in the database, for this company only, with the link in both parts.
    const stored = await t.database.db.tenant(owner.companyId, (sql) =>
      listCapturedEmails(sql, owner.companyId, 10),
    );
    expect(stored[0]).toMatchObject({ id: answer.message.id, to_address: 'hello@verify.example' });
    const token = /verify-sender\?token=([\w-]+)/.exec(stored[0]!.text_body)![1]!;
    expect(stored[0]!.html_body).toContain(`/verify-sender?token=${token}`);
    // Only the hash of the token is kept.
    const kept = await t.database.db.owner(
      async (sql) =>
        (await sql.query<{ token_hash: string }>('SELECT token_hash FROM email_sender_verifications')).rows,
    );
    expect(kept.map((row) => row.token_hash)).not.toContain(token);

    expect((await senderOf(id)).verified_at).toBeNull();
    // Anyone of the company following the link may finish the check.
    const verified = await call(analyst, 'POST', '/api/campaigns/email-sender/verify/', { token });
    expect(verified.statusCode).toBe(200);
    expect(verified.json().verified_at).toEqual(expect.any(String));
    expect((await senderOf(id)).verified_at).toBe(verified.json().verified_at);

    const again = await call(owner, 'POST', '/api/campaigns/email-sender/verify/', { token });
    expect(again.statusCode).toBe(400);
    expect(again.json().error.code).toBe('verification_link_used');
    const resend = await call(owner, 'POST', `/api/campaigns/email-sender/${id}/verification/`);
    expect(resend.statusCode).toBe(409);
    expect(resend.json().error.code).toBe('sender_already_verified');
  });

  it('keeps the first verification time when a second link is followed', async () => {
    const id = await addSender('twice@verify.example');
    const first = await sendVerification(id);
    const second = await sendVerification(id);
    const at = (await call(owner, 'POST', '/api/campaigns/email-sender/verify/', { token: first })).json()
      .verified_at;
    const later = await call(owner, 'POST', '/api/campaigns/email-sender/verify/', { token: second });
    expect(later.statusCode).toBe(200);
    expect(later.json().verified_at).toBe(at);
  });

  it('refuses unknown, expired and replaced links with their codes', async () => {
    const unknown = await call(owner, 'POST', '/api/campaigns/email-sender/verify/', { token: 'nope' });
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json().error.code).toBe('verification_link_unknown');
    const empty = await call(owner, 'POST', '/api/campaigns/email-sender/verify/', { token: '' });
    expect(empty.statusCode).toBe(400);
    expect(empty.json().error.fields).toEqual({ token: 'Token is required' });

    const id = await addSender('late@verify.example');
    const token = await sendVerification(id);
    await t.database.db.owner((sql) =>
      sql.query(
        `UPDATE email_sender_verifications SET expires_at = now() - interval '1 second'
                 WHERE sender_id = $1`,
        [id],
      ),
    );
    const expired = await call(owner, 'POST', '/api/campaigns/email-sender/verify/', { token });
    expect(expired.json().error.code).toBe('verification_link_expired');
    expect((await senderOf(id)).verified_at).toBeNull();

    // A new address clears the mark and ends the links sent to the old one.
    const moved = await addSender('old@verify.example');
    const oldToken = await sendVerification(moved);
    const changed = await call(owner, 'PUT', `/api/campaigns/email-sender/${moved}/`, {
      name: 'Harbor',
      email: 'new@verify.example',
    });
    expect(changed.json().verified_at).toBeNull();
    const replaced = await call(owner, 'POST', '/api/campaigns/email-sender/verify/', { token: oldToken });
    expect(replaced.statusCode).toBe(400);
    expect(replaced.json().error.code).toBe('verification_link_replaced');
    expect((await senderOf(moved)).verified_at).toBeNull();
  });

  it("answers 404 for another company's sender and does not verify with another company's token", async () => {
    const id = await addSender('mine@verify.example');
    const foreign = await call(other, 'POST', `/api/campaigns/email-sender/${id}/verification/`);
    expect(foreign.statusCode).toBe(404);
    const token = await sendVerification(id);
    const stolen = await call(other, 'POST', '/api/campaigns/email-sender/verify/', { token });
    expect(stolen.statusCode).toBe(400);
    expect(stolen.json().error.code).toBe('verification_link_unknown');
    expect((await senderOf(id)).verified_at).toBeNull();
    // The other company sees none of this company's captured mail.
    const theirs = await t.database.db.tenant(other.companyId, (sql) =>
      listCapturedEmails(sql, other.companyId, 10),
    );
    expect(theirs).toEqual([]);
  });

  it('lets only those who manage senders send a verification', async () => {
    const id = await addSender('role@verify.example');
    const refused = await call(analyst, 'POST', `/api/campaigns/email-sender/${id}/verification/`);
    expect(refused.statusCode).toBe(403);
    expect(refused.json().error.code).toBe('role_forbidden');
    const unsigned = await t.app.inject({
      method: 'POST',
      url: `/api/campaigns/email-sender/${id}/verification/`,
    });
    expect(unsigned.statusCode).toBe(401);
  });
});
