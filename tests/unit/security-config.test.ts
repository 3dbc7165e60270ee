import { describe, expect, it } from 'vitest';
import { loadConfig, rateLimitsOf } from '../../server/config.js';
import { DEFAULT_RATE_LIMITS, rateLimitsWith } from '../../server/http/rate-limits.js';

describe('CORS and rate limits in the environment', () => {
  it('allows no other origin by default and reads a comma-separated list', () => {
    expect(loadConfig({}).CORS_ORIGINS).toEqual([]);
    expect(loadConfig({ CORS_ORIGINS: 'https://a.example, https://b.example:8443/ ,' }).CORS_ORIGINS).toEqual(
      ['https://a.example', 'https://b.example:8443'],
    );
  });

  it('stops the start for anything but origins', () => {
    expect(() => loadConfig({ CORS_ORIGINS: 'https://a.example/path' })).toThrow(/CORS_ORIGINS/);
    expect(() => loadConfig({ CORS_ORIGINS: '*' })).toThrow(/CORS_ORIGINS/);
  });

  it('reads <max>/<seconds> limits and keeps the defaults of those unset', () => {
    const limits = rateLimitsWith(rateLimitsOf(loadConfig({ RATE_LIMIT_SIGN_IN: '5/30' })));
    expect(limits.signIn).toEqual({ max: 5, windowSeconds: 30 });
    expect(limits.upload).toEqual(DEFAULT_RATE_LIMITS.upload);
  });

  it('stops the start for a limit written otherwise, naming it', () => {
    expect(() => loadConfig({ RATE_LIMIT_UPLOAD: '30 per hour' })).toThrow(/RATE_LIMIT_UPLOAD/);
    expect(() => loadConfig({ RATE_LIMIT_PREVIEW: '0/60' })).toThrow(/RATE_LIMIT_PREVIEW/);
  });
});
