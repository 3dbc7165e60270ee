import { describe, expect, it } from 'vitest';
import { segmentExportEmail } from '../../server/mail/segment-export-email.js';
import { LANGUAGES } from '../../src/schemas/constants.js';

/** The "export ready" email in every language: filled in, linked into the app, escaped in HTML. */
describe('segmentExportEmail', () => {
  const input = {
    brand: 'Harbor <Vine>',
    publicUrl: 'https://regulars.example',
    segmentName: 'Big & "loyal"',
    rows: 12345,
    expiresAt: new Date('2026-12-03T10:00:00Z'),
  };

  it.each(LANGUAGES)('is complete in %s', (language) => {
    const mail = segmentExportEmail({ ...input, language });
    expect(mail.link).toBe('https://regulars.example/segments?exports=1');
    for (const part of [mail.subject, mail.text, mail.html]) expect(part).not.toMatch(/\{\{|\}\}/);
    expect(mail.subject).toContain(input.segmentName);
    expect(mail.text).toContain(mail.link);
    expect(mail.text).toContain('2026-12-03');
    expect(mail.text).toContain(input.brand);
    expect(mail.html).toContain('Big &amp; &quot;loyal&quot;');
    expect(mail.html).toContain('Harbor &lt;Vine&gt;');
    expect(mail.html).not.toContain('<Vine>');
  });

  it('writes the count with the language’s separators and falls back to English', () => {
    expect(segmentExportEmail({ ...input, language: 'de' }).text).toContain('12.345');
    expect(segmentExportEmail({ ...input, language: 'xx' }).subject).toBe(
      'Your export of “Big & "loyal"” is ready',
    );
  });
});
