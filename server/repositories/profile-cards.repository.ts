import type { CompanyId, Sql } from '../db/database.js';
import { recordAudit } from './audit.repository.js';
import { customerColumn, customerExists, type CustomerRef } from './references.js';
import type { WriteScope } from './scope.js';

/** A payment card linked to a subscriber or a guest, so checks paid with it are matched to them. */
export interface ProfileCardRow {
  id: number;
  company_id: number;
  subscriber_id: number | null;
  guest_id: number | null;
  card_brand: string;
  name_on_card: string;
  last_four_digits: string;
  created_by: number | null;
  created_at: Date;
}

/** What linking a card takes. */
export interface NewProfileCard {
  card_brand?: string;
  name_on_card?: string;
  last_four_digits: string;
}

const COLUMNS =
  'id, company_id, subscriber_id, guest_id, card_brand, name_on_card, last_four_digits, created_by, created_at';

async function selectCards(sql: Sql, companyId: CompanyId, owner: CustomerRef): Promise<ProfileCardRow[]> {
  // The column name comes from customerColumn (a closed choice), never from input.
  const { rows } = await sql.query<ProfileCardRow>(
    `SELECT ${COLUMNS} FROM profile_cards WHERE company_id = $1 AND ${customerColumn(owner)} = $2 ORDER BY id`,
    [companyId, owner.id],
  );
  return rows;
}

/** The cards of a subscriber or guest, oldest first; null when that profile is not in this company. */
export async function listProfileCards(
  sql: Sql,
  companyId: CompanyId,
  owner: CustomerRef,
): Promise<ProfileCardRow[] | null> {
  return (await customerExists(sql, companyId, owner)) ? selectCards(sql, companyId, owner) : null;
}

/** Links a card to a subscriber or guest; null when that profile is not in this company. */
export async function createProfileCard(
  sql: Sql,
  scope: WriteScope,
  owner: CustomerRef,
  input: NewProfileCard,
): Promise<ProfileCardRow | null> {
  if (!(await customerExists(sql, scope.companyId, owner))) return null;
  const { rows } = await sql.query<ProfileCardRow>(
    `INSERT INTO profile_cards (company_id, ${customerColumn(owner)}, card_brand, name_on_card, last_four_digits,
                                created_by)
     VALUES ($1, $2, $3, $4, $5, $6) RETURNING ${COLUMNS}`,
    [
      scope.companyId,
      owner.id,
      input.card_brand ?? '',
      input.name_on_card ?? '',
      input.last_four_digits,
      scope.userId,
    ],
  );
  const created = rows[0]!;
  await recordAudit(sql, scope, {
    action: 'create',
    entity: 'profile_card',
    entityId: created.id,
    after: created,
  });
  return created;
}

/** Unlinks one card of this subscriber or guest; false when no such card is theirs in this company. */
export async function deleteProfileCard(
  sql: Sql,
  scope: WriteScope,
  owner: CustomerRef,
  cardId: number,
): Promise<boolean> {
  const { rows } = await sql.query<ProfileCardRow>(
    `DELETE FROM profile_cards WHERE company_id = $1 AND ${customerColumn(owner)} = $2 AND id = $3
     RETURNING ${COLUMNS}`,
    [scope.companyId, owner.id, cardId],
  );
  const before = rows[0];
  if (!before) return false;
  await recordAudit(sql, scope, { action: 'delete', entity: 'profile_card', entityId: cardId, before });
  return true;
}

/** Deletes all the cards of a subscriber or guest (when the profile itself is deleted). */
export async function deleteProfileCardsOf(
  sql: Sql,
  companyId: CompanyId,
  owner: CustomerRef,
): Promise<void> {
  // The column name comes from customerColumn (a closed choice), never from input.
  await sql.query(`DELETE FROM profile_cards WHERE company_id = $1 AND ${customerColumn(owner)} = $2`, [
    companyId,
    owner.id,
  ]);
}
