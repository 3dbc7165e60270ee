import type { CompanyId, Sql } from '../db/database.js';

/** A subscriber (someone who gave an email address) with the ids of the lists they are on. */
export interface SubscriberRow {
  id: number;
  company_id: number;
  email: string;
  first_name: string;
  last_name: string;
  phone: string;
  zip: string;
  /** A calendar date written YYYY-MM-DD. */
  birthday: string | null;
  subscribed: boolean;
  pos_id: string | null;
  hashid: string;
  guest_id: number | null;
  source_location_id: number | null;
  consent_at: Date | null;
  unsubscribed_at: Date | null;
  list_ids: number[];
  created_at: Date;
  updated_at: Date;
}

/** The SELECT of subscriber rows with their list ids, shared by the subscriber and list repositories. */
export const SELECT_SUBSCRIBER = `
  SELECT s.id, s.company_id, s.email, s.first_name, s.last_name, s.phone, s.zip, s.birthday, s.subscribed, s.pos_id,
         s.hashid, s.guest_id, s.source_location_id, s.consent_at, s.unsubscribed_at, s.created_at, s.updated_at,
         coalesce((SELECT array_agg(m.list_id ORDER BY m.list_id) FROM subscriber_list_members m
                   WHERE m.company_id = $1 AND m.subscriber_id = s.id), '{}') AS list_ids
  FROM subscribers s`;

/** Fetches subscribers by id within a transaction; ids of other companies are simply absent. */
export async function findSubscribersByIds(
  sql: Sql,
  companyId: CompanyId,
  ids: readonly number[],
): Promise<SubscriberRow[]> {
  const { rows } = await sql.query<SubscriberRow>(
    `${SELECT_SUBSCRIBER} WHERE s.company_id = $1 AND s.id = ANY($2::bigint[]) ORDER BY s.id`,
    [companyId, ids],
  );
  return rows;
}
