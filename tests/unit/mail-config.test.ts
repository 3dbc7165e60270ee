import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../server/config.js';

describe('mail settings in the environment', () => {
  it('leaves SMTP_URL unset by default, so mail is captured', () => {
    expect(loadConfig({}).SMTP_URL).toBeUndefined();
  });

  it('takes smtp:// and smtps:// URLs', () => {
    expect(loadConfig({ SMTP_URL: 'smtp://user:secret@mail.example:587' }).SMTP_URL).toBe(
      'smtp://user:secret@mail.example:587',
    );
    expect(loadConfig({ SMTP_URL: 'smtps://mail.example:465' }).SMTP_URL).toBe('smtps://mail.example:465');
  });

  it('stops the start with a message naming SMTP_URL for anything else', () => {
    expect(() => loadConfig({ SMTP_URL: 'mail.example:25' })).toThrow(/SMTP_URL: SMTP_URL must look like/);
    expect(() => loadConfig({ SMTP_URL: 'https://mail.example' })).toThrow(/SMTP_URL/);
  });
});
