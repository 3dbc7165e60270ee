import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EMAIL_FRAME_PATH, SOCIAL_NETWORKS } from '../../src/schemas/email-templates.js';
import { emailBlocks, type BlockTexts } from '../../src/views/template-editor/email-blocks.js';
import { openTestApp, type ApiCaller, type TestApp } from '../support/app.js';

const TEXTS: BlockTexts = {
  categories: { layout: 'Layout', content: 'Content', restaurant: 'Restaurant' },
  labels: {
    oneColumn: '1',
    twoColumns: '2',
    threeColumns: '3',
    text: 'Text',
    image: 'Image',
    button: 'Button',
    divider: 'Divider',
    spacer: 'Spacer',
    social: 'Social',
    offer: 'Offer',
  },
  menuItemLabel: (name) => `Menu: ${name}`,
  locationLabel: (name) => `Location: ${name}`,
  sample: {
    text: 'Write here',
    heading: 'Heading',
    button: 'Book a table',
    imageAlt: 'A dish',
    offerHeadline: '20% off',
    offerCode: 'CODE: WELCOME20',
    offerExpiry: 'Until Sunday',
    hours: 'Mon–Sun 11–22',
  },
  price: (amount) => `$${amount.toFixed(2)}`,
};

describe('the email frame page, the social icons and the editor blocks', () => {
  let t: TestApp;
  let alice: ApiCaller;

  beforeAll(async () => {
    t = await openTestApp();
    alice = await t.newCaller('Alice Restaurants');
  });
  afterAll(() => t.close());

  it('serves a blank frame page that allows inline styles and no script, framed by the app alone', async () => {
    const response = await t.app.inject({ method: 'GET', url: EMAIL_FRAME_PATH });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('text/html; charset=utf-8');
    const policy = String(response.headers['content-security-policy']);
    expect(policy).toContain("style-src 'self' 'unsafe-inline'");
    expect(policy).toContain("script-src 'none'");
    expect(policy).toContain("default-src 'none'");
    expect(policy).toContain("frame-ancestors 'self'");
    expect(response.headers['x-frame-options']).toBe('SAMEORIGIN');
    expect(response.body).toMatch(/^<!DOCTYPE html>/);
    expect(response.body).not.toMatch(/<script|<link|src=/i);
  });

  it('serves a PNG icon for each social network, without signing in', async () => {
    for (const network of SOCIAL_NETWORKS) {
      const response = await t.app.inject({
        method: 'GET',
        url: `/email-images/placeholders/${network}.png`,
      });
      expect(response.statusCode).toBe(200);
      expect(response.headers['content-type']).toBe('image/png');
      expect(response.rawPayload.subarray(0, 8)).toEqual(
        Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
      );
      // 48 × 48, as the IHDR chunk says.
      expect(response.rawPayload.readUInt32BE(16)).toBe(48);
      expect(response.rawPayload.readUInt32BE(20)).toBe(48);
    }
    expect(
      (await t.app.inject({ method: 'GET', url: '/email-images/placeholders/myspace.png' })).statusCode,
    ).toBe(404);
  });

  it('saves a design made of every editor block: the server renders each, and it loads nothing from another host', async () => {
    const origin = 'http://localhost:3000';
    const blocks = emailBlocks(
      TEXTS,
      {
        menuItems: [{ id: 1, name: 'Crab <cakes> & {{first_name}}', price: 14.5 }],
        locations: [{ id: 2, name: 'Downtown', address: '100 Harbor Street, Portland, OR 97201' }],
        starters: [],
      },
      origin,
    );
    // Column-level blocks go into a section of their own; section blocks straight into the body.
    const body = blocks
      .map((block) =>
        block.content.startsWith('<mj-section')
          ? block.content
          : `<mj-section><mj-column>${block.content}</mj-column></mj-section>`,
      )
      .join('');
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/campaigns/email-templates/',
      headers: alice.headers,
      payload: { name: 'Every block', export_html: `<mjml><mj-body>${body}</mj-body></mjml>` },
    });
    expect(response.statusCode, response.body).toBe(201);
    const { html_content: html } = response.json<{ html_content: string }>();
    for (const text of [
      'Write here',
      'Book a table',
      '20% off',
      'CODE: WELCOME20',
      'Until Sunday',
      '$14.50',
    ]) {
      expect(html).toContain(text);
    }
    expect(html).toContain('100 Harbor Street, Portland, OR 97201');
    // A menu item's name is text, never markup or a merge tag.
    expect(html).toContain('Crab &lt;cakes&gt; &amp; &#123;&#123;first_name}}');
    for (const network of SOCIAL_NETWORKS)
      expect(html).toContain(`${origin}/email-images/placeholders/${network}.png`);
    const sources = [...html.matchAll(/\ssrc="([^"]*)"/g)].map((match) => match[1]!);
    expect(sources.length).toBeGreaterThan(SOCIAL_NETWORKS.length);
    for (const source of sources) expect(source.startsWith(`${origin}/email-images/`)).toBe(true);
  });
});
