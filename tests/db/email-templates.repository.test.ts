import { describe, expect, it } from 'vitest';
import type { Database } from '../../server/db/database.js';
import { listAudit } from '../../server/repositories/audit.repository.js';
import {
  createEmailTemplate,
  deleteEmailTemplate,
  getEmailTemplate,
  listEmailTemplates,
  templateNameTaken,
  updateEmailTemplate,
} from '../../server/repositories/email-templates.repository.js';
import { withoutRowLevelSecurity } from '../support/database.js';
import { systemScope } from '../support/factories.js';
import { useTwoCompanies } from '../support/two-companies.js';

const design = `<mjml><mj-body><mj-section><mj-column>
  <mj-text>Hello {{first_name}} — “bienvenue” &amp; 'welcome'</mj-text>
</mj-column></mj-section></mj-body></mjml>`;

describe('email templates repository', () => {
  let db: Database;
  let companyA: number;
  let companyB: number;
  useTwoCompanies((opened) => ({ db, companyA, companyB } = opened));

  it('creates a template whose MJML design round-trips as text, and updates it in part', async () => {
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
    expect(empty).toMatchObject({ export_html: '', html_content: '', text_content: '' });

    const changedDesign = design.replace('Hello', 'Hi');
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
    for (const [round, guarded] of [db, withoutRowLevelSecurity(db)].entries()) {
      const theirs = await guarded.tenant(companyB, (sql) =>
        createEmailTemplate(sql, systemScope(companyB), {
          name: `Theirs ${round}`,
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

  it('keeps names unique per company whatever their case, and deletes with an audit entry', async () => {
    const scope = systemScope(companyA);
    const made = await db.tenant(companyA, (sql) => createEmailTemplate(sql, scope, { name: 'Unique One' }));
    await expect(
      db.tenant(companyA, (sql) => createEmailTemplate(sql, scope, { name: 'UNIQUE one' })),
    ).rejects.toMatchObject({ code: '23505' });
    expect(await db.tenant(companyA, (sql) => templateNameTaken(sql, companyA, 'unique ONE', null))).toBe(
      true,
    );
    expect(await db.tenant(companyA, (sql) => templateNameTaken(sql, companyA, 'unique one', made.id))).toBe(
      false,
    );
    // Another company may use the same name.
    await db.tenant(companyB, (sql) =>
      createEmailTemplate(sql, systemScope(companyB), { name: 'Unique One' }),
    );
    expect(await db.tenant(companyA, (sql) => deleteEmailTemplate(sql, systemScope(companyB), made.id))).toBe(
      false,
    );
    expect(await db.tenant(companyA, (sql) => deleteEmailTemplate(sql, scope, made.id))).toBe(true);
    expect(await db.tenant(companyA, (sql) => getEmailTemplate(sql, companyA, made.id))).toBeNull();
    const audit = await db.tenant(companyA, (sql) =>
      listAudit(sql, companyA, { entity: 'email_template', entityId: made.id }),
    );
    expect(audit.map((entry) => entry.action)).toEqual(['delete', 'create']);
  });
});
