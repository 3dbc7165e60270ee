import type {
  CustomerActivity,
  Note,
  NoteCreate,
  ProfileCard,
  ProfileCardCreate,
} from '../../src/schemas/customers.js';
import type { Database } from '../db/database.js';
import { notFound } from '../http/errors.js';
import { customerActivity, type CustomerActivityRows } from '../repositories/customer-activity.repository.js';
import { createNote, listNotes, type ActingStaff, type NoteRow } from '../repositories/notes.repository.js';
import { findUserOnPlatform } from '../repositories/users.repository.js';
import { displayName } from './accounts.service.js';
import {
  createProfileCard,
  deleteProfileCard,
  listProfileCards,
  type ProfileCardRow,
} from '../repositories/profile-cards.repository.js';
import type { CustomerRef } from '../repositories/references.js';
import type { WriteScope } from '../repositories/scope.js';

/** Cents as dollars with two decimals. */
export function dollars(cents: number): number {
  return Math.round(cents) / 100;
}

/** An optional time as an ISO string. */
export function isoOrNull(value: Date | null): string | null {
  return value === null ? null : value.toISOString();
}

/** The activity of someone with no visits (a subscriber with no linked guest). */
export const NO_ACTIVITY: CustomerActivity = {
  visits: 0,
  total_spend: 0,
  average_check: 0,
  first_visit_at: null,
  last_visit_at: null,
  favourite_items: [],
  locations_visited: [],
  recent_visits: [],
};

/** A guest's activity rows as the API shows them; money in dollars. */
export function presentActivity(rows: CustomerActivityRows): CustomerActivity {
  const { visits, total_spend_cents: spend } = rows.totals;
  return {
    visits,
    total_spend: dollars(spend),
    average_check: visits === 0 ? 0 : dollars(Math.round(spend / visits)),
    first_visit_at: isoOrNull(rows.totals.first_visit_at),
    last_visit_at: isoOrNull(rows.totals.last_visit_at),
    favourite_items: rows.favourite_items.map((item) => ({
      menu_item_id: item.menu_item_id,
      name: item.name,
      quantity: item.quantity,
      spend: dollars(item.spend_cents),
    })),
    locations_visited: rows.locations_visited.map((location) => ({
      location_id: location.location_id,
      name: location.name,
      visits: location.visits,
      spend: dollars(location.spend_cents),
      last_visit_at: location.last_visit_at.toISOString(),
    })),
    recent_visits: rows.recent_visits.map((visit) => ({
      check_id: visit.check_id,
      location_name: visit.location_name,
      closed_at: visit.closed_at.toISOString(),
      total: dollars(visit.total_cents),
      items: visit.items,
    })),
  };
}

/** A linked card as the API shows it. */
export function presentProfileCard(row: ProfileCardRow): ProfileCard {
  return {
    id: row.id,
    card_brand: row.card_brand,
    name_on_card: row.name_on_card,
    last_four_digits: row.last_four_digits,
    created_at: row.created_at.toISOString(),
  };
}

/** A note as the API shows it. */
export function presentNote(row: NoteRow): Note {
  return {
    id: row.id,
    body: row.body,
    author_name: row.author_name,
    written_by_staff_name: row.written_by_staff_name,
    created_at: row.created_at.toISOString(),
  };
}

/** The cards and notes calls of one kind of profile, by its id; each throws 404 for a missing profile. */
export interface ProfileExtrasService {
  listCards(companyId: number, id: number): Promise<ProfileCard[]>;
  addCard(scope: WriteScope, id: number, input: ProfileCardCreate): Promise<ProfileCard>;
  removeCard(scope: WriteScope, id: number, cardId: number): Promise<void>;
  listNotes(companyId: number, id: number): Promise<Note[]>;
  addNote(scope: WriteScope, id: number, input: NoteCreate): Promise<Note>;
}

/** The profile parts guests and subscribers share: activity, linked cards and notes. */
export function customerProfilesService(db: Database) {
  /** 404 naming the kind of profile, for an id that is not the company's. */
  const missing = (owner: CustomerRef) => notFound(owner.type === 'guest' ? 'Guest' : 'Subscriber');
  // Staff act from the platform's own company, so their name is a platform read.
  const actingStaffOf = async (scope: WriteScope): Promise<ActingStaff | null> => {
    if (scope.actorUserId === null || scope.actorUserId === scope.userId) return null;
    const staffId = scope.actorUserId;
    const staff = await db.platform((sql) => findUserOnPlatform(sql, staffId));
    return staff ? { id: staff.id, name: displayName(staff) } : null;
  };
  const shared = {
    /** The activity of a guest; none for a subscriber without a linked guest. */
    async activity(companyId: number, guestId: number | null): Promise<CustomerActivity> {
      if (guestId === null) return NO_ACTIVITY;
      return presentActivity(await db.tenant(companyId, (sql) => customerActivity(sql, companyId, guestId)));
    },
    async listCards(companyId: number, owner: CustomerRef): Promise<ProfileCard[]> {
      const rows = await db.tenant(companyId, (sql) => listProfileCards(sql, companyId, owner));
      if (!rows) throw missing(owner);
      return rows.map(presentProfileCard);
    },
    async addCard(scope: WriteScope, owner: CustomerRef, input: ProfileCardCreate): Promise<ProfileCard> {
      const row = await db.tenant(scope.companyId, (sql) => createProfileCard(sql, scope, owner, input));
      if (!row) throw missing(owner);
      return presentProfileCard(row);
    },
    async removeCard(scope: WriteScope, owner: CustomerRef, cardId: number): Promise<void> {
      if (!(await db.tenant(scope.companyId, (sql) => deleteProfileCard(sql, scope, owner, cardId))))
        throw notFound('Card');
    },
    async listNotes(companyId: number, owner: CustomerRef): Promise<Note[]> {
      const rows = await db.tenant(companyId, (sql) => listNotes(sql, companyId, owner));
      if (!rows) throw missing(owner);
      return rows.map(presentNote);
    },
    async addNote(scope: WriteScope, owner: CustomerRef, input: NoteCreate): Promise<Note> {
      const actingStaff = await actingStaffOf(scope);
      const row = await db.tenant(scope.companyId, (sql) =>
        createNote(sql, scope, owner, input.body, actingStaff),
      );
      if (!row) throw missing(owner);
      return presentNote(row);
    },
  };
  return {
    ...shared,
    /** The cards and notes calls bound to one kind of profile. */
    extrasOf(type: CustomerRef['type']): ProfileExtrasService {
      const ref = (id: number): CustomerRef => ({ type, id });
      return {
        listCards: (companyId, id) => shared.listCards(companyId, ref(id)),
        addCard: (scope, id, input) => shared.addCard(scope, ref(id), input),
        removeCard: (scope, id, cardId) => shared.removeCard(scope, ref(id), cardId),
        listNotes: (companyId, id) => shared.listNotes(companyId, ref(id)),
        addNote: (scope, id, input) => shared.addNote(scope, ref(id), input),
      };
    },
  };
}

/** The shared profile service. */
export type CustomerProfilesService = ReturnType<typeof customerProfilesService>;
