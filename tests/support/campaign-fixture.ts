import { randomBytes } from 'node:crypto';
import type { Database } from '../../server/db/database.js';
import {
  createEmailSender,
  markEmailSenderVerified,
} from '../../server/repositories/email-senders.repository.js';
import { createEmailTemplate } from '../../server/repositories/email-templates.repository.js';
import { updateCompanyPostalAddress } from '../../server/repositories/mail-runs.repository.js';
import { createSegment } from '../../server/repositories/segments.repository.js';
import { systemScope } from './factories.js';
import { makeTestLocation, makeTestLocationGroup } from './marketing.js';

/**
 * A company's campaign fixture: locations and a group, guests with visits, subscribers (some linked, some
 * unsubscribed, some suppressed), two lists, a segment (`visit_count >= 2`), a template, a verified sender and a
 * postal address; plus the raw rows, so a test can work out an audience on its own (`expectedAudience`).
 */
export interface CampaignFixture {
  companyId: number;
  locations: number[];
  groupId: number;
  segmentId: number;
  lists: number[];
  templateId: number;
  senderId: number;
  guests: { id: number; visit_count: number; visited: number[] }[];
  subscribers: {
    id: number;
    email: string;
    guest_id: number | null;
    subscribed: boolean;
    source_location_id: number | null;
    suppressed: boolean;
    lists: number[];
  }[];
}

/** A small deterministic random source (tests repeat exactly). */
export function seeded(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state * 1664525 + 1013904223) >>> 0;
    return state / 2 ** 32;
  };
}

/** A minimal email design rendered beforehand: one merge tag, a body tag for the footer. */
export const FIXTURE_HTML = '<html><body><p>Hello {{first_name}}</p></body></html>';

/** Builds the fixture for a new company in `db` (rows written as the owner, for speed). */
export async function makeCampaignFixture(
  db: Database,
  companyId: number,
  options: { seed?: number; guests?: number; subscribers?: number } = {},
): Promise<CampaignFixture> {
  const random = seeded(options.seed ?? 7);
  const pick = <T>(items: readonly T[]) => items[Math.floor(random() * items.length)]!;
  const scope = systemScope(companyId);
  const locations = [
    (await makeTestLocation(db, companyId, 'North')).id,
    (await makeTestLocation(db, companyId, 'South')).id,
    (await makeTestLocation(db, companyId, 'East')).id,
  ];
  const group = await makeTestLocationGroup(db, companyId, 'Coast', [locations[1]!, locations[2]!]);
  const guestCount = options.guests ?? 60;
  const subscriberCount = options.subscribers ?? 90;
  const tag = randomBytes(4).toString('hex');
  const fixture = await db.owner(async (sql) => {
    await sql.query("SELECT set_config('app.platform', 'on', true)");
    const guests: CampaignFixture['guests'] = [];
    for (let i = 0; i < guestCount; i += 1) {
      const visitCount = Math.floor(random() * 5);
      const { rows } = await sql.query<{ id: number }>(
        `INSERT INTO guests (company_id, pos_id, hashid, visit_count) VALUES ($1, $2, $2, $3) RETURNING id::int`,
        [companyId, `g-${tag}-${i}`, visitCount],
      );
      const visited = locations.filter(() => random() < 0.35);
      for (const location of visited) {
        await sql.query(
          'INSERT INTO guest_locations (company_id, guest_id, location_id, visits) VALUES ($1, $2, $3, 1)',
          [companyId, rows[0]!.id, location],
        );
      }
      guests.push({ id: rows[0]!.id, visit_count: visitCount, visited });
    }
    const lists: number[] = [];
    for (const name of ['VIP', 'Newsletter']) {
      const { rows } = await sql.query<{ id: number }>(
        'INSERT INTO subscriber_lists (company_id, name) VALUES ($1, $2) RETURNING id::int',
        [companyId, name],
      );
      lists.push(rows[0]!.id);
    }
    const subscribers: CampaignFixture['subscribers'] = [];
    for (let i = 0; i < subscriberCount; i += 1) {
      const guest = random() < 0.6 ? pick(guests) : null;
      const subscribed = random() < 0.85;
      const sourceLocation = random() < 0.5 ? pick(locations) : null;
      const email = `sub${i}-${tag}@example.com`;
      const { rows } = await sql.query<{ id: number }>(
        `INSERT INTO subscribers (company_id, email, hashid, first_name, guest_id, subscribed, source_location_id)
         VALUES ($1, $2, $3, $4, $5, $6, $7) RETURNING id::int`,
        [companyId, email, `h-${tag}-${i}`, `Name${i}`, guest?.id ?? null, subscribed, sourceLocation],
      );
      const suppressed = random() < 0.1;
      if (suppressed) {
        await sql.query(
          'INSERT INTO mail_suppressions (company_id, email, email_hash, reason) ' +
            "VALUES ($1, upper($2), sha256(convert_to(lower($2), 'UTF8')), 'bounced')",
          [companyId, email],
        );
      }
      const memberOf = lists.filter(() => random() < 0.3);
      for (const list of memberOf) {
        await sql.query(
          'INSERT INTO subscriber_list_members (company_id, list_id, subscriber_id) VALUES ($1, $2, $3)',
          [companyId, list, rows[0]!.id],
        );
      }
      subscribers.push({
        id: rows[0]!.id,
        email,
        guest_id: guest?.id ?? null,
        subscribed,
        source_location_id: sourceLocation,
        suppressed,
        lists: memberOf,
      });
    }
    return { guests, lists, subscribers };
  });
  const { segmentId, templateId, senderId } = await db.tenant(companyId, async (sql) => {
    const segment = await createSegment(sql, scope, {
      name: 'Twice or more',
      segment_groups: [{ segment_rules: [{ type: 'visit_count', operator: 'gte', value: 2 }] }],
    });
    const template = await createEmailTemplate(sql, scope, {
      name: 'Hello',
      export_html: '<mjml><mj-body></mj-body></mjml>',
      html_content: FIXTURE_HTML,
      text_content: 'Hello {{first_name}}',
    });
    const sender = await createEmailSender(sql, scope, {
      name: 'Harbor',
      email: `hello-${tag}@harbor.example`,
    });
    await markEmailSenderVerified(sql, scope, sender.id);
    return { segmentId: segment.id, templateId: template.id, senderId: sender.id };
  });
  await db.platform((sql) => updateCompanyPostalAddress(sql, scope, '1 Harbor Street, Portland'));
  return { companyId, locations, groupId: group.id, segmentId, templateId, senderId, ...fixture };
}

/** An audience as the contract writes it. */
export interface AudienceIds {
  segment_ids: number[];
  list_ids: number[];
  location_ids: number[];
  location_group_ids: number[];
}

/**
 * The audience worked out by brute force over the fixture's rows, independently of the SQL: recipients
 * (subscribed, not suppressed) and the members left out, each subscriber once. The only segment is the fixture's.
 */
export function expectedAudience(
  fixture: CampaignFixture,
  audience: AudienceIds,
): { recipients: Set<number>; suppressed: Set<number> } {
  const segmentGuests = new Set(
    audience.segment_ids.includes(fixture.segmentId)
      ? fixture.guests.filter((guest) => guest.visit_count >= 2).map((guest) => guest.id)
      : [],
  );
  const picked = new Set(audience.location_ids);
  if (audience.location_group_ids.includes(fixture.groupId)) {
    picked.add(fixture.locations[1]!);
    picked.add(fixture.locations[2]!);
  }
  const visits = new Map(fixture.guests.map((guest) => [guest.id, guest.visited]));
  const recipients = new Set<number>();
  const suppressed = new Set<number>();
  for (const subscriber of fixture.subscribers) {
    const inSegment = subscriber.guest_id !== null && segmentGuests.has(subscriber.guest_id);
    const inList = subscriber.lists.some((list) => audience.list_ids.includes(list));
    if (!inSegment && !inList) continue;
    if (picked.size > 0) {
      const signedUp = subscriber.source_location_id !== null && picked.has(subscriber.source_location_id);
      const visited = (visits.get(subscriber.guest_id ?? -1) ?? []).some((location) => picked.has(location));
      if (!signedUp && !visited) continue;
    }
    if (subscriber.subscribed && !subscriber.suppressed) recipients.add(subscriber.id);
    else suppressed.add(subscriber.id);
  }
  return { recipients, suppressed };
}
