import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isPrivateAddress, postWebhook, type WebhookSettings } from '../../server/flows/webhook.js';

/** Flow webhooks: the address rules, and real POSTs to a local HTTP server through the checked connection. */

/** What the local server received. */
const received: { path: string; body: string; key: string | undefined }[] = [];

/** The local server: `/ok` 204, `/redirect` 302 to `/ok`, `/big` a megabyte, `/slow` never answers. */
let server: Server;
let port: number;

beforeAll(async () => {
  server = createServer((req: IncomingMessage, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString()));
    req.on('end', () => {
      received.push({ path: req.url ?? '', body, key: req.headers['idempotency-key'] as string | undefined });
      if (req.url === '/ok') res.writeHead(204).end();
      else if (req.url === '/redirect') res.writeHead(302, { location: `http://127.0.0.1:${port}/ok` }).end();
      else if (req.url === '/big') res.writeHead(200).end(Buffer.alloc(1024 * 1024, 97));
      else if (req.url === '/slow') return;
      else res.writeHead(500).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

/** Settings naming the local server by address and by a made-up name that resolves to it. */
function settings(overrides: Partial<WebhookSettings> = {}): WebhookSettings {
  return {
    allowedHosts: ['127.0.0.1', 'hooks.example', 'evil-rebind.example'],
    allowPrivate: false,
    timeoutMs: 1_000,
    resolve: async (hostname) => {
      if (hostname === 'hooks.example') return [{ address: '127.0.0.1', family: 4 }];
      // A public address beside a private one: any private answer refuses the call.
      if (hostname === 'evil-rebind.example')
        return [
          { address: '93.184.216.34', family: 4 },
          { address: '::ffff:169.254.169.254', family: 6 },
        ];
      throw Object.assign(new Error('not found'), { code: 'ENOTFOUND' });
    },
    ...overrides,
  };
}

describe('webhook address rules', () => {
  it('refuses every special-purpose range, IPv4 and IPv6 (with the IPv4 forms IPv6 carries)', () => {
    for (const address of [
      '0.0.0.0',
      '0.1.2.3',
      '10.1.2.3',
      '100.64.0.1',
      '100.127.255.254',
      '127.0.0.1',
      '169.254.169.254',
      '172.16.0.1',
      '172.31.255.255',
      '192.0.0.8',
      '192.168.1.1',
      '198.18.0.1',
      '198.19.255.255',
      '224.0.0.1',
      '239.255.255.250',
      '240.0.0.1',
      '255.255.255.255',
      '::',
      '::1',
      'fc00::1',
      'fd12:3456::1',
      'fe80::1',
      'febf::1',
      'ff02::1',
      '::ffff:127.0.0.1',
      '::ffff:7f00:1',
      '::FFFF:10.0.0.1',
      '::ffff:169.254.169.254',
      '64:ff9b::a9fe:a9fe',
      '64:ff9b::192.168.0.1',
      '::127.0.0.1',
      'not-an-address',
    ]) {
      expect(isPrivateAddress(address), address).toBe(true);
    }
    for (const address of [
      '93.184.216.34',
      '8.8.8.8',
      '100.63.255.255',
      '100.128.0.0',
      '172.32.0.1',
      '192.0.2.1',
      '198.20.0.1',
      '223.255.255.255',
      '2606:4700::1111',
      '2001:4860:4860::8888',
      '::ffff:8.8.8.8',
      '64:ff9b::808:808',
      'fec0::1',
    ]) {
      expect(isPrivateAddress(address), address).toBe(false);
    }
  });
});

describe('webhook POSTs', () => {
  it('refuses hosts not allowed, and private addresses unless allowed', async () => {
    expect(await postWebhook(settings(), 'https://evil.example/x', {}, 'k')).toBe('refused_host');
    expect(await postWebhook(settings(), 'ftp://hooks.example/x', {}, 'k')).toBe('refused_host');
    expect(await postWebhook(settings(), 'not a url', {}, 'k')).toBe('refused_host');
    expect(await postWebhook(settings(), `http://127.0.0.1:${port}/ok`, {}, 'k')).toBe('refused_private');
    expect(received).toEqual([]);
  });

  it('refuses a name that resolves to a private address where the connection is made', async () => {
    expect(await postWebhook(settings(), `http://hooks.example:${port}/ok`, {}, 'k')).toBe('refused_private');
    expect(await postWebhook(settings(), `http://evil-rebind.example:${port}/ok`, {}, 'k')).toBe(
      'refused_private',
    );
    expect(received).toEqual([]);
  });

  it('resolves once per call and connects to the address it checked', async () => {
    let lookups = 0;
    const counting = settings({
      allowPrivate: true,
      resolve: async () => {
        lookups += 1;
        return [{ address: '127.0.0.1', family: 4 }];
      },
    });
    // hooks.example has no DNS record: reaching the local server proves the checked answer was used.
    expect(await postWebhook(counting, `http://hooks.example:${port}/ok`, { flowId: 'f1' }, 'key-1')).toBe(
      'posted',
    );
    expect(lookups).toBe(1);
    expect(received.at(-1)).toEqual({ path: '/ok', body: JSON.stringify({ flowId: 'f1' }), key: 'key-1' });
  });

  it('posts to a local server only when private targets are allowed', async () => {
    received.length = 0;
    const allowed = settings({ allowPrivate: true });
    expect(await postWebhook(allowed, `http://127.0.0.1:${port}/ok`, { a: 1 }, 'k2')).toBe('posted');
    expect(received).toEqual([{ path: '/ok', body: '{"a":1}', key: 'k2' }]);
    // Nothing listens on port 9: a failure, reported as such.
    expect(await postWebhook(allowed, 'http://127.0.0.1:9/x', {}, 'k')).toBe('failed');
  });

  it('follows no redirect, and fails an error status, an oversized answer and a timeout', async () => {
    received.length = 0;
    const allowed = settings({ allowPrivate: true, timeoutMs: 300, maxResponseBytes: 1024 });
    expect(await postWebhook(allowed, `http://127.0.0.1:${port}/redirect`, {}, 'k')).toBe('failed');
    expect(received.map((r) => r.path)).toEqual(['/redirect']);
    expect(await postWebhook(allowed, `http://127.0.0.1:${port}/other`, {}, 'k')).toBe('failed');
    expect(await postWebhook(allowed, `http://127.0.0.1:${port}/big`, {}, 'k')).toBe('failed');
    expect(
      await postWebhook(
        { ...allowed, maxResponseBytes: 2 * 1024 * 1024 },
        `http://127.0.0.1:${port}/big`,
        {},
        'k',
      ),
    ).toBe('posted');
    const started = Date.now();
    expect(await postWebhook(allowed, `http://127.0.0.1:${port}/slow`, {}, 'k')).toBe('failed');
    expect(Date.now() - started).toBeLessThan(2_000);
  });
});
