import { describe, expect, it } from 'vitest';
import { describeViolations, seriousA11yViolations } from './support/a11y.js';
import { dialogViolations } from './support/dialogs.js';
import { screenshots } from './support/pages.js';
import { signedInSession } from './support/session.js';

const SENDER = { name: 'Harbor Vine News', email: 'news.e2e@harborvine.example' };

describe('verifying an email sender with no mail server set up', () => {
  const session = signedInSession('/account');

  it('adds a sender, sends the verification, opens the kept email, follows its link and sees the sender verified', async () => {
    const { page, errors } = session.watched;
    await page.getByRole('tab', { name: 'Email senders' }).click();
    await page.getByRole('button', { name: 'Add sender' }).click();
    const add = page.getByRole('dialog', { name: 'Add a sender' });
    await add.getByLabel('Sender name').fill(SENDER.name);
    await add.getByRole('textbox', { name: 'Email' }).fill(SENDER.email);
    await add.getByRole('button', { name: 'Add sender' }).click();
    await add.waitFor({ state: 'detached' });
    const row = page.getByRole('row', { name: new RegExp(SENDER.email) });
    await row.getByText('Not verified').waitFor();

    await row.getByRole('button', { name: `Send verification email to ${SENDER.email}` }).click();
    await page.getByText('No mail server is set up, so the email was kept here.').waitFor();
    await screenshots(page, 'senders', 'verification-kept');
    expect(describeViolations(await seriousA11yViolations(page))).toBe('');

    await page.getByRole('button', { name: 'Open the email' }).click();
    const email = page.getByRole('dialog', { name: 'Verification email' });
    await email.getByText(`Verify ${SENDER.email} for Regulars`).waitFor();
    await email.getByText(SENDER.email, { exact: true }).waitFor();
    expect(await dialogViolations(page, email, 'verification email')).toBe('');
    await screenshots(page, 'senders', 'verification-email');
    const link = email.getByRole('link', { name: /\/verify-sender\?token=/ });
    const href = await link.getAttribute('href');
    expect(href).toMatch(new RegExp(`^${session.server.url}/verify-sender\\?token=[\\w-]{43}$`));

    await link.click();
    await page.waitForURL(/\/verify-sender\?token=/);
    await page.getByRole('heading', { name: 'Sender verified' }).waitFor();
    await page.getByText(`${SENDER.email} is verified. Campaigns can be sent from it.`).waitFor();
    await screenshots(page, 'verify-sender', 'verified');
    expect(describeViolations(await seriousA11yViolations(page))).toBe('');

    // The link works once.
    await page.goto(href!);
    await page.getByText('This link was already used: each link works once.').waitFor();
    await screenshots(page, 'verify-sender', 'used');

    await page.getByRole('link', { name: 'Go to email senders' }).click();
    await page.waitForURL(/\/account$/);
    await page.getByRole('tab', { name: 'Email senders' }).click();
    const verified = page.getByRole('row', { name: new RegExp(SENDER.email) });
    await verified.getByText('Verified', { exact: true }).waitFor();
    // A verified sender is not offered another verification.
    expect(
      await verified.getByRole('button', { name: `Send verification email to ${SENDER.email}` }).count(),
    ).toBe(0);
    // The only failure the browser saw is the refused second use of the link.
    expect(errors).toEqual([
      expect.stringContaining(
        `status of 400 (Bad Request) (${session.server.url}/api/campaigns/email-sender/verify/)`,
      ),
    ]);
  });

  it('explains a link without a token', async () => {
    const { page } = session.watched;
    await page.goto('/verify-sender');
    await page
      .getByText('This link has no verification token. Open the link from the email again.')
      .waitFor();
    await page.getByRole('heading', { name: 'The sender could not be verified' }).waitFor();
  });

  it('sets the company’s email provider with a write-only key, naming each missing field, and removes it', async () => {
    const { page, errors } = session.watched;
    const before = errors.length;
    await page.goto('/account');
    await page.getByRole('tab', { name: 'Email senders' }).click();
    await page.getByRole('heading', { name: 'Email provider' }).waitFor();
    const provider = page.getByRole('combobox', { name: 'Provider' });
    expect(await provider.inputValue()).toBe("None (this installation's mail server)");
    await provider.click();
    await page.getByRole('option', { name: 'Amazon SES' }).click();
    await page.getByRole('button', { name: 'Save provider' }).click();
    // Every missing field named, before any call.
    await page.getByText('SMTP password is required').waitFor();
    await page.getByText('AWS region is required').waitFor();
    await page.getByText('SES SMTP user name is required').waitFor();
    await page.getByLabel('SMTP password').fill('ses-secret-e2e-key');
    await page.getByRole('textbox', { name: 'AWS region' }).fill('Ireland');
    await page.getByRole('textbox', { name: 'SES SMTP user name' }).fill('AKIAE2EEXAMPLE');
    await page.getByRole('button', { name: 'Save provider' }).click();
    await page.getByText('AWS region is not valid').waitFor();
    await page.getByRole('textbox', { name: 'AWS region' }).fill('eu-west-1');
    await page.getByRole('button', { name: 'Save provider' }).click();
    await page.getByText('Email provider saved.').waitFor();
    // The password is never shown back: the field is empty, only its status says it is set.
    expect(await page.getByLabel('SMTP password').inputValue()).toBe('');
    await page.getByText('set', { exact: true }).waitFor();
    expect(await page.content()).not.toContain('ses-secret-e2e-key');
    expect(describeViolations(await seriousA11yViolations(page))).toBe('');
    await screenshots(page, 'senders', 'email-provider');

    // Read again from the server after a reload.
    await page.reload();
    await page.getByRole('tab', { name: 'Email senders' }).click();
    await page.getByRole('heading', { name: 'Email provider' }).waitFor();
    await expect.poll(() => page.getByRole('combobox', { name: 'Provider' }).inputValue()).toBe('Amazon SES');
    expect(await page.getByRole('textbox', { name: 'AWS region' }).inputValue()).toBe('eu-west-1');
    await page.getByText('set', { exact: true }).waitFor();

    // Removed: mail goes through the installation again (the rest of the suite sends through it).
    await page.getByRole('button', { name: 'Remove provider' }).click();
    await page
      .getByText("Email provider removed: mail goes through this installation's mail server.")
      .waitFor();
    expect(await page.getByRole('combobox', { name: 'Provider' }).inputValue()).toBe(
      "None (this installation's mail server)",
    );
    expect(errors.slice(before)).toEqual([]);
  }, 120_000);
});
