import type { Sql } from '../db/database.js';
import { removeGuestFromCohorts } from '../repositories/cohort-rollups.repository.js';
import { removeGuestPresence } from '../repositories/guest-presence.repository.js';
import { lockCompanyIngestion } from '../repositories/pos-ingestion.repository.js';
import { recordDeletedCustomer } from '../repositories/deleted-customers.repository.js';
import { deleteCapturedEmailsTo } from '../repositories/captured-emails.repository.js';
import { forgetSubscriberInMessages } from '../repositories/email-messages.repository.js';
import { forgetSubscriberInOutbox } from '../repositories/mail-outbox.repository.js';
import { suppressErasedAddress } from '../repositories/mail-suppressions.repository.js';
import { deleteGuest, findGuestsByIds } from '../repositories/guests.repository.js';
import { exitSubscribersFromFlows } from '../repositories/flow-exits.repository.js';
import { forgetStagedPerson } from '../repositories/imports.repository.js';
import { deleteNotesAbout } from '../repositories/notes.repository.js';
import { unlinkChecksOfGuest } from '../repositories/pos.repository.js';
import { deleteProfileCardsOf } from '../repositories/profile-cards.repository.js';
import type { CustomerRef } from '../repositories/references.js';
import type { WriteScope } from '../repositories/scope.js';
import { removeFromAllLists } from '../repositories/subscriber-lists.repository.js';
import {
  deleteSubscriber,
  findSubscribersByIds,
  unlinkGuestFromSubscribers,
} from '../repositories/subscribers.repository.js';

/*
 * The deletion cascades of the two kinds of customer. They run inside the calling service's transaction, so a
 * failure at any step leaves everything as it was. Each statement is scoped to the company rather than left
 * to the foreign keys.
 */

/**
 * Deletes a subscriber and everything personal about them: list memberships, notes, cards, captured mail and the
 * rows finished imports kept of them go; queued messages are cancelled and every message keeps only a
 * fingerprint of the address; the address is suppressed as `deleted` by its hash alone; a deleted-customer
 * record without personal data is written. False when the subscriber is not in
 * this company.
 */
export async function eraseSubscriber(sql: Sql, scope: WriteScope, id: number): Promise<boolean> {
  const before = (await findSubscribersByIds(sql, scope.companyId, [id]))[0];
  if (!before) return false;
  const owner: CustomerRef = { type: 'subscriber', id };
  await forgetSubscriberInMessages(sql, scope, id);
  // Never mailed again, with only the address's hash kept (docs/sending.md, "Suppressions").
  await suppressErasedAddress(sql, scope.companyId, before.email);
  await forgetSubscriberInOutbox(sql, scope.companyId, id, before.email);
  await deleteCapturedEmailsTo(sql, scope.companyId, before.email);
  await removeFromAllLists(sql, scope.companyId, id);
  await deleteNotesAbout(sql, scope.companyId, owner);
  await deleteProfileCardsOf(sql, scope.companyId, owner);
  await forgetStagedPerson(sql, scope.companyId, { kind: 'subscriber', email: before.email });
  // Their flows end now, as `deleted`, while the enrolments still name them.
  await exitSubscribersFromFlows(sql, scope.companyId, [id], 'deleted');
  await deleteSubscriber(sql, scope, before);
  await recordDeletedCustomer(sql, scope, {
    customerType: 'subscriber',
    posId: before.pos_id,
    originalId: id,
  });
  return true;
}

/**
 * Deletes a guest: their checks stay for the figures but lose the link, a linked subscriber forgets them, their
 * notes, cards and imported rows go, and a deleted-customer record without personal data is written. False
 * when the guest is not in this company.
 */
export async function eraseGuest(sql: Sql, scope: WriteScope, id: number): Promise<boolean> {
  // The figures kept with the checks are adjusted below: no batch or void may move them meanwhile.
  await lockCompanyIngestion(sql, scope.companyId);
  const before = (await findGuestsByIds(sql, scope.companyId, [id]))[0];
  if (!before) return false;
  const owner: CustomerRef = { type: 'guest', id };
  await removeGuestFromCohorts(sql, scope.companyId, id);
  // Their guest-day rows go with them (a cascade): their distinct-guest rows go first.
  await removeGuestPresence(sql, scope.companyId, [id]);
  await unlinkChecksOfGuest(sql, scope.companyId, id);
  await unlinkGuestFromSubscribers(sql, scope.companyId, id);
  await deleteNotesAbout(sql, scope.companyId, owner);
  await deleteProfileCardsOf(sql, scope.companyId, owner);
  await forgetStagedPerson(sql, scope.companyId, {
    kind: 'guest',
    customer_name: before.customer_name,
    last_four_digits: before.last_four_digits,
    pos_id: before.pos_id,
  });
  await deleteGuest(sql, scope, before);
  await recordDeletedCustomer(sql, scope, { customerType: 'guest', posId: before.pos_id, originalId: id });
  return true;
}
