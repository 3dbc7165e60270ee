import { describe, expect, it } from 'vitest';
import type { Database } from '../../server/db/database.js';
import { listAudit } from '../../server/repositories/audit.repository.js';
import {
  createEmailTemplate,
  getEmailTemplate,
  listEmailTemplates,
  updateEmailTemplate,
} from '../../server/repositories/email-templates.repository.js';
import { withoutRowLevelSecurity } from '../support/database.js';
import { systemScope } from '../support/factories.js';
import { useTwoCompanies } from '../support/two-companies.js';

const design = {
  body: {
    rows: [
      { columns: [{ contents: [{ type: 'text', values: { text: 'Hello {{first_name}} — “bienvenue”' } }] }] },
    ],
  },
  counters: { u_row: 1, u_column: 1 },
  schemaVersion: 16,
  flags: [true, false, null],
};

describe('email templates repository', () => {
  let db: Database;
  let companyA: number;
  let companyB: number;
  useTwoCompanies((opened) => ({ db, companyA, companyB } = opened));

  it('creates a template whose design round-trips as JSON, and updates it in part', async () => {
    const scope = systemScope(companyA);
    const template = await db.tenant(scope.companyId, (sql) =>
      createEmailTemplate(sql, scope, {
        name: 'Welcome',
        export_html: design,
        html_content: '<p>Hello</p>',
        text_content: 'Hello',
      }),
    );
    expect(template).toMatchObject({
      company_id: companyA,
      name: 'Welcome',
      export_html: design,
      html_content: '<p>Hello</p>',
    });
    expect(await db.tenant(companyA, (sql) => getEmailTemplate(sql, companyA, template.id))).toEqual(
      template,
    );

    const empty = await db.tenant(scope.companyId, (sql) =>
      createEmailTemplate(sql, scope, { name: 'Blank' }),
    );
    expect(empty).toMatchObject({ export_html: {}, html_content: '', text_content: '' });

    const changedDesign = { ...design, schemaVersion: 17 };
    const updated = await db.tenant(scope.companyId, (sql) =>
      updateEmailTemplate(sql, scope, template.id, {
        export_html: changedDesign,
        text_content: 'Hi',
      }),
    );
    expect(updated).toMatchObject({
      name: 'Welcome',
      export_html: changedDesign,
      html_content: '<p>Hello</p>',
      text_content: 'Hi',
    });
    const renamed = await db.tenant(scope.companyId, (sql) =>
      updateEmailTemplate(sql, scope, template.id, { name: 'Welcome v2' }),
    );
    expect(renamed?.export_html).toEqual(changedDesign);
    expect(
      await db.tenant(scope.companyId, (sql) => updateEmailTemplate(sql, scope, 0, { name: 'Nothing' })),
    ).toBeNull();

    const audit = await db.tenant(companyA, (sql) =>
      listAudit(sql, companyA, { entity: 'email_template', entityId: template.id }),
    );
    expect(audit.map((entry) => entry.action)).toEqual(['update', 'update', 'create']);
  });

  it('pages by name and searches with literal wildcards', async () => {
    const scope = systemScope(companyA);
    for (const name of ['Promo 20%', 'promo_summer', 'Receipt'])
      await db.tenant(scope.companyId, (sql) => createEmailTemplate(sql, scope, { name }));
    const all = await db.tenant(companyA, (sql) =>
      listEmailTemplates(sql, companyA, { limit: 100, offset: 0 }),
    );
    expect(all.rows.map((row) => row.name)).toEqual([
      'Blank',
      'Promo 20%',
      'promo_summer',
      'Receipt',
      'Welcome v2',
    ]);
    const page = await db.tenant(companyA, (sql) =>
      listEmailTemplates(sql, companyA, { limit: 2, offset: 2 }),
    );
    expect(page.count).toBe(5);
    expect(page.rows.map((row) => row.name)).toEqual(['promo_summer', 'Receipt']);
    expect(
      (
        await db.tenant(companyA, (sql) =>
          listEmailTemplates(sql, companyA, { q: 'promo', limit: 10, offset: 0 }),
        )
      ).count,
    ).toBe(2);
    expect(
      (
        await db.tenant(companyA, (sql) =>
          listEmailTemplates(sql, companyA, { q: '20%', limit: 10, offset: 0 }),
        )
      ).rows.map((r) => r.name),
    ).toEqual(['Promo 20%']);
    expect(
      (
        await db.tenant(companyA, (sql) =>
          listEmailTemplates(sql, companyA, { q: 'o_s', limit: 10, offset: 0 }),
        )
      ).rows.map((r) => r.name),
    ).toEqual(['promo_summer']);
  });

  it("never returns or changes another company's templates, even without row-level security", async () => {
    for (const guarded of [db, withoutRowLevelSecurity(db)]) {
      const theirs = await guarded.tenant(companyB, (sql) =>
        createEmailTemplate(sql, systemScope(companyB), {
          name: 'Theirs',
          export_html: design,
        }),
      );
      const list = await guarded.tenant(companyA, (sql) =>
        listEmailTemplates(sql, companyA, { limit: 100, offset: 0 }),
      );
      expect(list.rows.every((row) => row.company_id === companyA)).toBe(true);
      expect(
        (
          await guarded.tenant(companyA, (sql) =>
            listEmailTemplates(sql, companyA, { q: 'Theirs', limit: 10, offset: 0 }),
          )
        ).count,
      ).toBe(0);
      expect(await guarded.tenant(companyA, (sql) => getEmailTemplate(sql, companyA, theirs.id))).toBeNull();
      expect(
        await guarded.tenant(companyA, (sql) =>
          updateEmailTemplate(sql, systemScope(companyA), theirs.id, { name: 'Taken' }),
        ),
      ).toBeNull();
      expect(await guarded.tenant(companyB, (sql) => getEmailTemplate(sql, companyB, theirs.id))).toEqual(
        theirs,
      );
    }
  });
});
