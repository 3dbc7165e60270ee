import { describe, expect, it } from 'vitest';
import { viewerDocument } from '../../src/views/sent-mail/viewer-document.js';

/** The "Sent mail" viewer's frame document: the message as sent, minus what would count as engagement. */
describe('sent mail viewer document', () => {
  const pixel =
    '<img src="https://mail.example/o/AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA.gif" width="1" height="1" alt="">';

  it('leaves the open pixel out and makes links open nowhere, keeping everything else', () => {
    const html = `<html><head><title>t</title></head><body><p>Hi</p><img src="https://img.example/a.png">${pixel}</body></html>`;
    expect(viewerDocument(html)).toBe(
      '<html><head><base target="_blank"><title>t</title></head><body><p>Hi</p><img src="https://img.example/a.png"></body></html>',
    );
  });

  it('puts the base first when the message has no head', () => {
    expect(viewerDocument(`<p>Hi</p>${pixel}`)).toBe('<base target="_blank"><p>Hi</p>');
  });
});
