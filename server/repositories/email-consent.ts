import { sql as rawSql, type RawBuilder } from 'kysely';
import type { EmailConsent } from '../../src/schemas/guests.js';
import type { CompanyId, Sql } from '../db/database.js';
import { queryBuilder, runQuery } from '../db/query-builder.js';

/**
 * The one rule for a guest's email consent (docs/email-consent.md). The subscriber that speaks for a
 * guest is the oldest one linked to them (`subscribers.guest_id`); its `subscribed` flag is the answer:
 * true → 'subscribed', false → 'unsubscribed'. A guest no subscriber is linked to was never asked
 * → 'never_asked'. The guest list, its export and the profile all read this expression.
 */

/** The subscribers linked to the guest whose id is in `guestRef` of the enclosing query. */
export function linkedSubscribers(companyId: CompanyId, guestRef: string) {
  return queryBuilder
    .selectFrom('subscribers as s')
    .where('s.company_id', '=', companyId)
    .where('s.guest_id', '=', rawSql.ref<number>(guestRef));
}

/** The consent of the guest whose id is in `guestRef` of the enclosing query, as SQL. */
export function guestEmailConsent(companyId: CompanyId, guestRef: string): RawBuilder<EmailConsent> {
  const speaker = linkedSubscribers(companyId, guestRef)
    .select(rawSql<EmailConsent>`CASE WHEN s.subscribed THEN 'subscribed' ELSE 'unsubscribed' END`.as('c'))
    .orderBy('s.id', 'asc')
    .limit(1);
  return rawSql<EmailConsent>`COALESCE((${speaker}), 'never_asked')`;
}

/** The consent of one guest by id (the profile's reading of the rule); null for another company's id. */
export async function emailConsentOfGuest(
  sql: Sql,
  companyId: CompanyId,
  guestId: number,
): Promise<EmailConsent | null> {
  const [row] = await runQuery(
    sql,
    queryBuilder
      .selectFrom('guests as g')
      .select(guestEmailConsent(companyId, 'g.id').as('consent'))
      .where('g.company_id', '=', companyId)
      .where('g.id', '=', guestId),
  );
  return row?.consent ?? null;
}
