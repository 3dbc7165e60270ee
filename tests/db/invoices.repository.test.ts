import { describe, expect, it } from 'vitest';
import type { Database } from '../../server/db/database.js';
import { listAudit } from '../../server/repositories/audit.repository.js';
import {
  createInvoice,
  DuplicateInvoiceNumberError,
  getInvoice,
  listInvoices,
  type InvoiceInput,
} from '../../server/repositories/invoices.repository.js';
import { withoutRowLevelSecurity } from '../support/database.js';
import { systemScope } from '../support/factories.js';
import { countRows } from '../support/marketing.js';
import { useTwoCompanies } from '../support/two-companies.js';

function invoice(number: string, month: number, extra: Partial<InvoiceInput> = {}): InvoiceInput {
  const mm = String(month).padStart(2, '0');
  return {
    number,
    period_start: `2025-${mm}-01`,
    period_end: `2025-${mm}-28`,
    amount_cents: 4900 * month,
    issued_at: new Date(`2025-${mm}-28T12:00:00Z`),
    ...extra,
  };
}

describe('invoices repository', () => {
  let db: Database;
  let companyA: number;
  let companyB: number;
  useTwoCompanies((opened) => ({ db, companyA, companyB } = opened));

  it('lists invoices newest first by issue date, pages them and reads one back', async () => {
    const scope = systemScope(companyA);
    const lines = [{ description: 'Regulars Pro', quantity: 3, unit_cents: 4900 }];
    // Issued out of order on purpose: the list follows issued_at, not insertion.
    const march = await db.tenant(scope.companyId, (sql) =>
      createInvoice(
        sql,
        scope,
        invoice('INV-003', 3, { lines, status: 'paid', paid_at: new Date('2025-04-02T00:00:00Z') }),
      ),
    );
    const january = await db.tenant(scope.companyId, (sql) =>
      createInvoice(sql, scope, invoice('INV-001', 1)),
    );
    const february = await db.tenant(scope.companyId, (sql) =>
      createInvoice(sql, scope, invoice('INV-002', 2, { currency: 'EUR' })),
    );

    const first = await db.tenant(companyA, (sql) => listInvoices(sql, companyA, { limit: 2, offset: 0 }));
    expect(first.count).toBe(3);
    expect(first.rows.map((row) => row.number)).toEqual(['INV-003', 'INV-002']);
    expect(
      (await db.tenant(companyA, (sql) => listInvoices(sql, companyA, { limit: 2, offset: 2 }))).rows.map(
        (row) => row.id,
      ),
    ).toEqual([january.id]);

    expect(march).toMatchObject({
      company_id: companyA,
      period_start: '2025-03-01',
      period_end: '2025-03-28',
      amount_cents: 14700,
      currency: 'USD',
      status: 'paid',
      lines,
    });
    expect(march.paid_at?.toISOString()).toBe('2025-04-02T00:00:00.000Z');
    expect(february).toMatchObject({ currency: 'EUR', status: 'open', lines: [], paid_at: null });
    expect(await db.tenant(companyA, (sql) => getInvoice(sql, companyA, march.id))).toEqual(march);
    expect(await db.tenant(companyA, (sql) => getInvoice(sql, companyA, 0))).toBeNull();
    expect(
      (
        await db.tenant(companyA, (sql) =>
          listAudit(sql, companyA, { entity: 'invoice', entityId: march.id }),
        )
      )[0]?.action,
    ).toBe('create');
  });

  it('refuses a number already used in the company', async () => {
    const scope = systemScope(companyA);
    const before = await countRows(db, 'invoices', companyA);
    await expect(
      db.tenant(scope.companyId, (sql) => createInvoice(sql, scope, invoice('INV-001', 5))),
    ).rejects.toBeInstanceOf(DuplicateInvoiceNumberError);
    expect(await countRows(db, 'invoices', companyA)).toBe(before);
  });

  it("never reads another company's invoices, even without row-level security", async () => {
    for (const guarded of [db, withoutRowLevelSecurity(db)]) {
      const label = guarded === db ? 'rls' : 'plain';
      // The same number is free in another company.
      const theirs = await guarded.tenant(companyB, (sql) =>
        createInvoice(sql, systemScope(companyB), invoice(`B-${label}`, 6)),
      );
      await guarded.tenant(companyB, (sql) =>
        createInvoice(sql, systemScope(companyB), invoice('INV-001', 6, { number: `INV-001-${label}` })),
      );
      const mine = await guarded.tenant(companyA, (sql) =>
        listInvoices(sql, companyA, { limit: 100, offset: 0 }),
      );
      expect(mine.rows.every((row) => row.company_id === companyA)).toBe(true);
      expect(mine.count).toBe(3);
      expect(await guarded.tenant(companyA, (sql) => getInvoice(sql, companyA, theirs.id))).toBeNull();
      expect(await guarded.tenant(companyB, (sql) => getInvoice(sql, companyB, theirs.id))).toEqual(theirs);
    }
    expect(
      (await db.tenant(companyB, (sql) => createInvoice(sql, systemScope(companyB), invoice('INV-001', 7))))
        .number,
    ).toBe('INV-001');
  });
});
