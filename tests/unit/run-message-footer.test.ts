import { describe, expect, it } from 'vitest';
import { compileRun, hasOwnFooter, type RunContent } from '../../server/sending/run-message.js';

const ADDRESS = '12 Quay Road, Portland, OR 97201';
const links = {
  url: 'https://mail.example/u/tok',
  mailto: 'mailto:unsubscribe@mail.example?subject=unsubscribe%20tok',
  viewUrl: 'https://mail.example/v/tok',
};
const recipient = {
  email: 'ana@example.com',
  merge: { first_name: 'Ana' },
  messageId: '<r1.s1@x>',
  runId: 1,
  outboxId: 1,
};
const company = { name: 'Quay Kitchen', time_zone: 'America/Los_Angeles' };

function render(html: string, text: string) {
  const run: RunContent = {
    from_address: 'news@quay.example',
    subject: 'Hi {{first_name}}',
    html_template: html,
    text_template: text,
    postal_address: ADDRESS,
    language: 'en',
    tracking: false,
  };
  return compileRun(run, company).render(recipient, links);
}

const occurrences = (haystack: string, needle: string) => haystack.split(needle).length - 1;

describe('the compliance footer', () => {
  it('is added to a design that shows neither the unsubscribe link nor the address', () => {
    const message = render('<html><body><p>Hello {{first_name}}</p></body></html>', 'Hello {{first_name}}');
    expect(occurrences(message.html, ADDRESS)).toBe(1);
    expect(occurrences(message.html, links.url)).toBe(1);
    expect(message.html.indexOf(ADDRESS)).toBeLessThan(message.html.indexOf('</body>'));
    expect(occurrences(message.text, ADDRESS)).toBe(1);
    expect(message.text).toContain(`: ${links.url}`);
  });

  it('is left out where the design has its own, so nothing is said twice', () => {
    const html =
      '<html><body><p>Hello</p><p>{{company_name}} · {{ company_address }} <a href="{{unsubscribe_url}}">Unsubscribe</a></p></body></html>';
    const message = render(html, 'Hello\n{{company_address}}\nUnsubscribe: {{unsubscribe_url}}');
    expect(occurrences(message.html, ADDRESS)).toBe(1);
    expect(occurrences(message.html, links.url)).toBe(1);
    expect(occurrences(message.text, ADDRESS)).toBe(1);
    expect(occurrences(message.text, links.url)).toBe(1);
  });

  it('is still added when the design has only the unsubscribe link (the address would be missing)', () => {
    const message = render('<html><body><a href="{{unsubscribe_url}}">Stop</a></body></html>', 'x');
    expect(occurrences(message.html, ADDRESS)).toBe(1);
    expect(occurrences(message.html, links.url)).toBe(2);
  });

  it('counts a design as showing its own only where a reader sees it: not in comments, the head, styles or titles', () => {
    const both = '{{unsubscribe_url}} {{company_address}}';
    expect(hasOwnFooter(`<body><p>${both}</p></body>`, 'html')).toBe(true);
    for (const hidden of [
      `<body><!-- ${both} --></body>`,
      `<body><!--\n{{ unsubscribe_url }}\n--><p>{{company_address}}</p></body>`,
      `<body><p>{{unsubscribe_url}}</p><!-- {{company_address}}</body>`,
      `<html><head><meta name="x" content="${both}"></head><body>Hi</body></html>`,
      `<HTML><HEAD><TITLE>${both}</TITLE></HEAD><body>Hi</body></HTML>`,
      `<body><style>/* ${both} */</style><p>Hi</p></body>`,
      `<body><title>{{unsubscribe_url}}</title><p>{{company_address}}</p></body>`,
      `<body><script>var a = "${both}";</script></body>`,
    ]) {
      expect(hasOwnFooter(hidden, 'html'), hidden).toBe(false);
    }
    // Seen: after a closed comment, in a <header> (not <head>), in a link's address.
    expect(
      hasOwnFooter(
        '<!-- x --><header>{{company_address}}</header><a href="{{unsubscribe_url}}">x</a>',
        'html',
      ),
    ).toBe(true);
    // A text part has no comments: what is written is what is read.
    expect(hasOwnFooter(`<!-- ${both} -->`, 'text')).toBe(true);
  });

  it('is added when the design has its unsubscribe link and address only in a comment', () => {
    const html =
      '<html><body><p>Hello</p><!-- {{company_address}} <a href="{{unsubscribe_url}}">Unsubscribe</a> --></body></html>';
    const message = render(html, 'Hello\n{{company_address}}\nUnsubscribe: {{unsubscribe_url}}');
    const afterComment = message.html.slice(message.html.indexOf('-->'));
    expect(occurrences(afterComment, ADDRESS)).toBe(1);
    expect(occurrences(afterComment, links.url)).toBe(1);
    // The text part showed both itself: no second footer there.
    expect(occurrences(message.text, ADDRESS)).toBe(1);
  });
});
