import { describe, expect, it } from 'vitest';
import { viewerDocument } from '../../src/views/sent-mail/viewer-document.js';

/** The "Sent mail" viewer's HTML: the message as sent, minus the open pixel (reading it is not an open). */
describe('sent mail viewer document', () => {
  const pixel =
    '<img src="https://mail.example/o/AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA.gif" width="1" height="1" alt="">';

  it('leaves the open pixel out, keeping everything else as sent', () => {
    const html = `<html><head><title>t</title></head><body><p>Hi</p><a href="https://x.example/">x</a><img src="https://img.example/a.png">${pixel}</body></html>`;
    expect(viewerDocument(html)).toBe(
      '<html><head><title>t</title></head><body><p>Hi</p><a href="https://x.example/">x</a><img src="https://img.example/a.png"></body></html>',
    );
  });

  it('keeps an image that only looks like a pixel elsewhere', () => {
    expect(viewerDocument(`<p>Hi</p>${pixel}<img src="https://mail.example/o/short.gif">`)).toBe(
      '<p>Hi</p><img src="https://mail.example/o/short.gif">',
    );
  });
});
