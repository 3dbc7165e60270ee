import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GALLERY_KEYS } from '../../src/schemas/email-templates.js';
import { LANGUAGES } from '../../src/schemas/constants.js';
import { openTestApp, type ApiCaller, type TestApp } from '../support/app.js';

const BASE = '/api/campaigns/email-templates';

/** A small valid design using `text` in a text block. */
const design = (text: string) =>
  `<mjml><mj-body><mj-section><mj-column>
  <mj-text>${text}</mj-text>
  <mj-button href="{{unsubscribe_url}}">Unsubscribe</mj-button>
</mj-column></mj-section></mj-body></mjml>`;

/**
 * Every URL the HTML would load by itself (not a link the reader clicks): src attributes, <link> hrefs,
 * CSS url() and @import. Read with plain patterns, independently of the renderer.
 */
function loadedUrls(html: string): string[] {
  const urls: string[] = [];
  for (const match of html.matchAll(/\ssrc\s*=\s*["']([^"']*)["']/gi)) urls.push(match[1]!);
  for (const match of html.matchAll(/<link\b[^>]*href\s*=\s*["']([^"']*)["']/gi)) urls.push(match[1]!);
  for (const match of html.matchAll(/url\(\s*["']?([^"')]*)["']?\s*\)/gi)) urls.push(match[1]!);
  for (const match of html.matchAll(/@import\s+(?:url\()?\s*["']?([^"');\s]+)/gi)) urls.push(match[1]!);
  return urls;
}

describe('Email templates API', () => {
  let t: TestApp;
  let alice: ApiCaller;
  let bob: ApiCaller;

  beforeAll(async () => {
    t = await openTestApp();
    alice = await t.newCaller('Alice Restaurants');
    bob = await t.newCaller('Bob Bistro');
  });
  afterAll(() => t.close());

  const call = (
    caller: { headers: Record<string, string> },
    method: 'GET' | 'POST' | 'PUT' | 'DELETE',
    url: string,
    payload?: object,
  ) => t.app.inject({ method, url, payload, headers: caller.headers });

  it('creates a template from MJML, rendering inlined HTML and a text part, and updates and reads it', async () => {
    const created = await call(alice, 'POST', `${BASE}/`, {
      name: ' Welcome ',
      export_html: design('Hello <b>{{first_name}}</b> &amp; welcome'),
    });
    expect(created.statusCode).toBe(201);
    const template = created.json();
    expect(template).toMatchObject({ name: 'Welcome' });
    expect(template.html_content).toMatch(/^<!doctype html>/i);
    // CSS inlined by mjml: the text block's style sits on the element itself.
    expect(template.html_content).toMatch(
      /<div\s+style="[^"]*font-size:13px[^"]*"\s*>Hello <b>\{\{first_name\}\}<\/b>/,
    );
    expect(template.html_content).toContain('href="{{unsubscribe_url}}"');
    expect(template.text_content).toContain('Hello {{first_name}} & welcome');
    expect(template.text_content).toContain('Unsubscribe [{{unsubscribe_url}}]');
    expect(template.text_content).not.toContain('<');

    const changed = await call(alice, 'PUT', `${BASE}/${template.id}/`, {
      export_html: design('Good evening {{ location_name }}'),
    });
    expect(changed.statusCode).toBe(200);
    expect(changed.json()).toMatchObject({ name: 'Welcome' });
    expect(changed.json().text_content).toContain('Good evening {{ location_name }}');
    const renamed = await call(alice, 'PUT', `${BASE}/${template.id}/`, { name: 'Welcome v2' });
    expect(renamed.json()).toMatchObject({ name: 'Welcome v2', text_content: changed.json().text_content });
    expect((await call(alice, 'GET', `${BASE}/${template.id}/`)).json()).toEqual(renamed.json());
  });

  it('refuses bad MJML with its line, unknown merge tags by name, and outside includes, naming export_html', async () => {
    const badElement = await call(alice, 'POST', `${BASE}/`, {
      name: 'Broken',
      export_html:
        '<mjml><mj-body><mj-section><mj-column>\n\n<mj-bogus>x</mj-bogus></mj-column></mj-section></mj-body></mjml>',
    });
    expect(badElement.statusCode).toBe(400);
    expect(badElement.json().error.fields.export_html).toMatch(/^Line 3: .*mj-bogus/);
    expect(badElement.json().error.fields.export_html).not.toContain('/work');

    const unknown = await call(alice, 'POST', `${BASE}/`, {
      name: 'Tags',
      export_html: design('Hi {{first_name}} {{favourite_dish}} {{ secret }}'),
    });
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json().error.fields.export_html).toBe(
      'Unknown merge tags: {{favourite_dish}}, {{secret}}',
    );

    for (const outside of [
      '<mjml><mj-head><mj-font name="X" href="https://fonts.example/x.css" /></mj-head><mj-body></mj-body></mjml>',
      '<mjml><mj-body><mj-include path="/etc/passwd" /></mj-body></mjml>',
      '<p>not MJML</p>',
      // mjml's default social icons are on mailjet.com.
      design(
        'x</mj-text><mj-social><mj-social-element name="facebook" href="#">F</mj-social-element></mj-social><mj-text>',
      ),
    ]) {
      const refused = await call(alice, 'POST', `${BASE}/`, { name: 'Outside', export_html: outside });
      expect(refused.statusCode, outside).toBe(400);
      expect(Object.keys(refused.json().error.fields)).toEqual(['export_html']);
    }
    const count = (await call(alice, 'GET', `${BASE}/?q=Outside`)).json().count;
    expect(count).toBe(0);
  });

  it('keeps names unique per company whatever the case, pages and searches by name', async () => {
    const company = await t.newCaller('Names Co');
    for (const name of ['Zebra', 'alpha', 'Mid summer'])
      expect((await call(company, 'POST', `${BASE}/`, { name, export_html: design('x') })).statusCode).toBe(
        201,
      );
    const taken = await call(company, 'POST', `${BASE}/`, { name: 'ZEBRA', export_html: design('x') });
    expect(taken.statusCode).toBe(400);
    expect(taken.json().error.field_problems).toEqual({ name: { code: 'in_use' } });
    // The same name in another company is fine.
    expect(
      (await call(bob, 'POST', `${BASE}/`, { name: 'Zebra', export_html: design('x') })).statusCode,
    ).toBe(201);

    const page1 = (await call(company, 'GET', `${BASE}/?page_size=2`)).json();
    expect(page1.count).toBe(3);
    expect(page1.results.map((r: { name: string }) => r.name)).toEqual(['alpha', 'Mid summer']);
    expect(page1.results[0]).not.toHaveProperty('html_content');
    expect(
      (await call(company, 'GET', page1.next)).json().results.map((r: { name: string }) => r.name),
    ).toEqual(['Zebra']);
    const searched = (await call(company, 'GET', `${BASE}/?q=SUM`)).json();
    expect(searched.results.map((r: { name: string }) => r.name)).toEqual(['Mid summer']);
  });

  it("answers another company's template with 404 on every call and leaves it as it was", async () => {
    const theirs = (
      await call(bob, 'POST', `${BASE}/`, { name: 'Bob only', export_html: design('Bob') })
    ).json();
    for (const [method, url, payload] of [
      ['GET', `${BASE}/${theirs.id}/`],
      ['PUT', `${BASE}/${theirs.id}/`, { name: 'Mine now' }],
      ['DELETE', `${BASE}/${theirs.id}/`],
      ['POST', `${BASE}/${theirs.id}/duplicate/`],
      ['GET', `${BASE}/${theirs.id}/preview/`],
    ] as const) {
      const answer = await call(alice, method, url, payload);
      expect(answer.statusCode, `${method} ${url}`).toBe(404);
      expect(answer.body).not.toContain('Bob');
    }
    expect((await call(bob, 'GET', `${BASE}/${theirs.id}/`)).json()).toEqual(theirs);
    expect((await call(alice, 'GET', `${BASE}/?q=Bob`)).json().count).toBe(0);
  });

  it("duplicates under '(copy)', then '(copy 2)', in the caller's language", async () => {
    const company = await t.newCaller('Copies Co');
    const original = (
      await call(company, 'POST', `${BASE}/`, { name: 'Brunch', export_html: design('Eggs') })
    ).json();
    const first = await call(company, 'POST', `${BASE}/${original.id}/duplicate/`);
    expect(first.statusCode).toBe(201);
    expect(first.json()).toMatchObject({
      name: 'Brunch (copy)',
      export_html: original.export_html,
      html_content: original.html_content,
      text_content: original.text_content,
    });
    expect(first.json().id).not.toBe(original.id);
    expect((await call(company, 'POST', `${BASE}/${original.id}/duplicate/`)).json().name).toBe(
      'Brunch (copy 2)',
    );

    const marie = await t.newUser(company.companyId, 'marketer');
    const settings = await call(marie, 'PUT', '/api/accounts/settings/', {
      username: marie.email,
      email: marie.email,
      language: 'fr',
      time_zone: 'Europe/Paris',
      communication: { email: true, sms: false, phone: false },
    });
    expect(settings.statusCode).toBe(200);
    expect((await call(marie, 'POST', `${BASE}/${original.id}/duplicate/`)).json().name).toBe(
      'Brunch (copie)',
    );
    expect((await call(marie, 'POST', `${BASE}/${original.id}/duplicate/`)).json().name).toBe(
      'Brunch (copie 2)',
    );
  });

  it('deletes a template, after which it is gone', async () => {
    const made = (
      await call(alice, 'POST', `${BASE}/`, { name: 'Short lived', export_html: design('x') })
    ).json();
    expect((await call(alice, 'DELETE', `${BASE}/${made.id}/`)).statusCode).toBe(204);
    expect((await call(alice, 'GET', `${BASE}/${made.id}/`)).statusCode).toBe(404);
    expect((await call(alice, 'DELETE', `${BASE}/${made.id}/`)).statusCode).toBe(404);
  });

  it('previews with sample values escaped, under a policy that forbids scripts', async () => {
    const made = (
      await call(alice, 'POST', `${BASE}/`, {
        name: 'Preview me',
        export_html: design('Dear {{first_name}} at {{company_name}}'),
      })
    ).json();
    const preview = await call(alice, 'GET', `${BASE}/${made.id}/preview/`);
    expect(preview.statusCode).toBe(200);
    expect(preview.headers['content-type']).toBe('text/html; charset=utf-8');
    const policy = String(preview.headers['content-security-policy']);
    expect(policy).toContain("script-src 'none'");
    expect(policy).toContain("default-src 'none'");
    expect(preview.body).toContain('Dear Alex at Harbor &amp; Vine Restaurant Group');
    expect(preview.body).not.toMatch(/\{\{/);
  });

  it('offers six gallery templates in every language that save as they are and load nothing from another host', async () => {
    const installation = new URL(t.auth.publicUrl).origin;
    const company = await t.newCaller('Gallery Co');
    const english = (await call(company, 'GET', `${BASE}/gallery/`)).json().results;
    expect(english.map((item: { key: string }) => item.key)).toEqual([...GALLERY_KEYS]);
    for (const language of LANGUAGES) {
      const gallery = (await call(company, 'GET', `${BASE}/gallery/?language=${language}`)).json().results;
      expect(gallery).toHaveLength(6);
      for (const item of gallery) {
        const saved = await call(company, 'POST', `${BASE}/`, {
          name: `${item.name} ${language}`,
          export_html: item.export_html,
        });
        expect(saved.statusCode, `${language} ${item.key}: ${saved.body}`).toBe(201);
        const { html_content: html, text_content: text } = saved.json();
        expect(html).toContain('{{unsubscribe_url}}');
        expect(html).toContain('{{company_address}}');
        expect(html).not.toMatch(/<link\b|@import|<script/i);
        const loaded = loadedUrls(html);
        expect(loaded.length).toBeGreaterThan(0);
        for (const url of loaded) expect(new URL(url).origin, url).toBe(installation);
        // Links the reader clicks: merge tags or placeholders, never another site.
        for (const match of html.matchAll(/<a\b[^>]*href="([^"]*)"/g))
          expect(match[1]).toMatch(/^(#|\{\{\w+\}\})$/);
        expect(text).toContain('{{unsubscribe_url}}');
        expect(text).not.toMatch(/<\w/);
      }
      if (language !== 'en') expect(gallery[0].name).not.toBe(english[0].name);
    }
    // The placeholders are served from the installation, without signing in, as PNG.
    const hero = await t.app.inject({ method: 'GET', url: '/email-images/placeholders/hero.png' });
    expect(hero.statusCode).toBe(200);
    expect(hero.headers['content-type']).toBe('image/png');
    expect(hero.rawPayload.subarray(1, 4).toString('latin1')).toBe('PNG');
    expect(hero.rawPayload.readUInt32BE(16)).toBe(600);
  });
});

describe('Email images API', () => {
  let t: TestApp;
  let alice: ApiCaller;
  let bob: ApiCaller;

  beforeAll(async () => {
    t = await openTestApp();
    alice = await t.newCaller('Alice Images');
    bob = await t.newCaller('Bob Images');
  });
  afterAll(() => t.close());

  const boundary = 'imageboundary';
  /** A form with `bytes` in the field `field`. */
  const form = (bytes: Buffer, field = 'file', type = 'application/octet-stream') =>
    Buffer.concat([
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="${field}"; filename="photo.png"\r\n` +
          `Content-Type: ${type}\r\n\r\n`,
      ),
      bytes,
      Buffer.from(`\r\n--${boundary}--\r\n`),
    ]);
  const upload = (
    caller: ApiCaller,
    payload: Buffer,
    contentType = `multipart/form-data; boundary=${boundary}`,
  ) =>
    t.app.inject({
      method: 'POST',
      url: '/api/campaigns/email-images/',
      payload,
      headers: { ...caller.headers, 'content-type': contentType },
    });
  const PNG = Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    Buffer.from('rest of a png'),
  ]);
  const JPEG = Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), Buffer.from('jpeg body')]);
  const GIF = Buffer.from('GIF89a tiny gif');
  const WEBP = Buffer.concat([Buffer.from('RIFF'), Buffer.from([0, 0, 0, 0]), Buffer.from('WEBPVP8 ')]);

  it('stores PNG, JPEG, GIF and WebP by their bytes and serves them without sign-in at an unguessable address', async () => {
    const ids = new Set<string>();
    for (const [bytes, type] of [
      [PNG, 'image/png'],
      [JPEG, 'image/jpeg'],
      [GIF, 'image/gif'],
      [WEBP, 'image/webp'],
    ] as const) {
      // The declared type is ignored: the bytes say what the file is.
      const answer = await upload(alice, form(bytes, 'file', 'text/plain'));
      expect(answer.statusCode, answer.body).toBe(201);
      const image = answer.json();
      expect(image).toMatchObject({ content_type: type, byte_size: bytes.length });
      expect(image.id).toMatch(/^[A-Za-z0-9_-]{22}$/);
      expect(image.url).toBe(`${t.auth.publicUrl}/email-images/${image.id}`);
      ids.add(image.id);
      const served = await t.app.inject({ method: 'GET', url: new URL(image.url).pathname });
      expect(served.statusCode).toBe(200);
      expect(served.headers['content-type']).toBe(type);
      expect(served.headers['cross-origin-resource-policy']).toBe('cross-origin');
      expect(served.rawPayload.equals(bytes)).toBe(true);
    }
    expect(ids.size).toBe(4);
  });

  it('refuses other files, empty and oversized ones, and forms without the file field, with clear 4xx', async () => {
    const html = await upload(alice, form(Buffer.from('<html><script>alert(1)</script></html>')));
    expect(html.statusCode).toBe(400);
    expect(html.json().error.fields).toEqual({ file: 'The file is not a PNG, JPEG, GIF or WebP image' });
    const svg = await upload(
      alice,
      form(Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"/>'), 'file', 'image/svg+xml'),
    );
    expect(svg.statusCode).toBe(400);
    expect((await upload(alice, form(Buffer.alloc(0)))).json().error.fields).toEqual({
      file: 'The image file is empty',
    });
    expect((await upload(alice, form(PNG, 'picture'))).json().error.fields).toHaveProperty('file');
    const big = Buffer.concat([PNG, Buffer.alloc(2 * 1024 * 1024)]);
    const tooLarge = await upload(alice, form(big));
    expect(tooLarge.statusCode).toBe(413);
    expect(tooLarge.json().error.code).toBe('file_too_large');
    expect((await upload(alice, PNG, 'image/png')).statusCode).toBe(415);
  });

  it("deletes a company's own image only; another company's answers 404 and keeps being served", async () => {
    const mine = (await upload(alice, form(GIF))).json();
    const theirs = (await upload(bob, form(GIF))).json();
    const del = (caller: ApiCaller, id: string) =>
      t.app.inject({ method: 'DELETE', url: `/api/campaigns/email-images/${id}/`, headers: caller.headers });
    expect((await del(alice, theirs.id)).statusCode).toBe(404);
    expect((await t.app.inject({ method: 'GET', url: `/email-images/${theirs.id}` })).statusCode).toBe(200);
    expect((await del(alice, mine.id)).statusCode).toBe(204);
    expect((await t.app.inject({ method: 'GET', url: `/email-images/${mine.id}` })).statusCode).toBe(404);
    expect((await del(alice, 'not-an-id')).statusCode).toBe(400);
    expect(
      (await t.app.inject({ method: 'GET', url: '/email-images/AAAAAAAAAAAAAAAAAAAAAA' })).statusCode,
    ).toBe(404);
  });
});
