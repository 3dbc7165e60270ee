import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { ApiRequestError } from '../../src/services/api-client.js';
import { fingerprint as serverFingerprint } from '../../server/privacy.js';
import { fingerprint, REDACTED, redact, sha256Hex } from '../../src/services/redact.js';

describe('sha256Hex (the synchronous SHA-256 of the client)', () => {
  it('matches node:crypto for empty, short, multi-block and non-ASCII texts', () => {
    for (const text of [
      '',
      'abc',
      'a'.repeat(55),
      'b'.repeat(56),
      'c'.repeat(64),
      'x'.repeat(1000),
      'Zoë 東京 🍜',
    ]) {
      expect(sha256Hex(text)).toBe(createHash('sha256').update(text).digest('hex'));
    }
  });

  it("gives the server's fingerprint for the same value", () => {
    expect(fingerprint('ann@example.com')).toBe(serverFingerprint('ann@example.com'));
    expect(fingerprint(4242)).toMatch(/^sha256:[0-9a-f]{16}$/);
  });
});

describe('redact', () => {
  it('redacts every secret of a token response, even inside a done event', () => {
    const event = {
      type: 'xstate.done.actor.exchangeCode',
      actorId: 'exchangeCode',
      output: {
        tokenData: {
          access_token: 'eyJhbGciOiJSUzI1NiJ9.secret',
          id_token: 'eyJ.id.token',
          refresh_token: 'refresh-me',
          token_type: 'Bearer',
          expires_in: 3600,
        },
        receivedAt: 1_700_000_000_000,
      },
    };
    const text = JSON.stringify(redact(event));
    for (const secret of ['eyJhbGciOiJSUzI1NiJ9.secret', 'eyJ.id.token', 'refresh-me']) {
      expect(text).not.toContain(secret);
    }
    expect(redact(event)).toEqual({
      ...event,
      output: {
        tokenData: {
          access_token: REDACTED,
          id_token: REDACTED,
          refresh_token: REDACTED,
          token_type: 'Bearer',
          expires_in: 3600,
        },
        receivedAt: 1_700_000_000_000,
      },
    });
  });

  it('hashes the identifiers of a settings form and redacts passwords, codes and verifiers', () => {
    const settings = {
      type: 'xstate.done.actor.loadSettings',
      output: { email: 'Ann.Smith@Example.com', first_name: 'Ann', last_name: 'Smith', language: 'en' },
    };
    expect(redact(settings)).toEqual({
      type: 'xstate.done.actor.loadSettings',
      output: {
        email: fingerprint('Ann.Smith@Example.com'),
        first_name: fingerprint('Ann'),
        last_name: fingerprint('Smith'),
        language: 'en',
      },
    });
    const callback = { type: 'callback', code: 'abc', code_verifier: 'V'.repeat(43), state: 'xyz' };
    expect(redact(callback)).toEqual({
      type: 'callback',
      code: REDACTED,
      code_verifier: REDACTED,
      // The nonce is fingerprinted, so a replayed "callback state matches" check answers as it did live.
      state: fingerprint('xyz'),
    });
  });

  it('hides a form field change by the field it names', () => {
    expect(redact({ type: 'field.change', field: 'email', value: 'ann@example.com' })).toEqual({
      type: 'field.change',
      field: 'email',
      value: fingerprint('ann@example.com'),
    });
    expect(redact({ type: 'field.change', field: 'new_password', value: 'hunter22!' })).toEqual({
      type: 'field.change',
      field: 'new_password',
      value: REDACTED,
    });
    expect(redact({ type: 'field.change', field: 'time_zone', value: 'Europe/Paris' })).toEqual({
      type: 'field.change',
      field: 'time_zone',
      value: 'Europe/Paris',
    });
  });

  it('hashes a guest with name, phone and card digits in nested arrays, and emails in free text', () => {
    const guests = {
      type: 'xstate.done.actor.loadGuests',
      output: {
        results: [
          {
            id: 7,
            first_name: 'Bob',
            last_name: 'Stone',
            phone: '+1 555 0100',
            cards: [{ brand: 'visa', name_on_card: 'BOB STONE', last_four_digits: '4242' }],
            customer_name: 'Bob Stone',
            visits: 12,
          },
        ],
      },
    };
    const redacted = redact(guests);
    const text = JSON.stringify(redacted);
    for (const clear of ['Bob', 'Stone', '555', 'BOB STONE', '4242']) expect(text).not.toContain(clear);
    expect(text).toContain('"visits":12');
    expect(text).toContain('"brand":"visa"');
    const problem = redact({ type: 'x', error: { message: 'No user bob@example.com here' } });
    expect(JSON.stringify(problem)).not.toContain('bob@example.com');
    expect(JSON.stringify(problem)).toContain(fingerprint('bob@example.com'));
  });

  it('keeps refs, dates, errors and cycles JSON-safe', () => {
    const cycle: Record<string, unknown> = { type: 'loop' };
    cycle.self = cycle;
    expect(redact(cycle)).toEqual({ type: 'loop', self: '[circular]' });
    expect(redact({ when: new Date(0) })).toEqual({ when: '1970-01-01T00:00:00.000Z' });
    expect(redact({ error: new Error('boom for a@b.co') })).toEqual({
      error: { name: 'Error', message: `boom for ${fingerprint('a@b.co')}` },
    });
    class Ref {
      id = 'listener';
    }
    expect(redact({ listener: new Ref() })).toEqual({ listener: '[ref listener]' });
  });
  it('keeps what an API error tells a machine (status, code, fields) so replay takes the same branch', () => {
    const error = new ApiRequestError(404, 'not_found', 'No subscriber ana@example.com', {
      email: 'Email is not valid',
    });
    expect(redact({ type: 'xstate.error.actor.loadProfile', error })).toEqual({
      type: 'xstate.error.actor.loadProfile',
      error: {
        name: 'ApiRequestError',
        message: `No subscriber ${fingerprint('ana@example.com')}`,
        status: 404,
        code: 'not_found',
        // The field names stay (a machine shows the message by field); text under personal keys does not.
        fields: { email: fingerprint('Email is not valid') },
      },
    });
  });

  it('hides who sent a support log, and the one-time token in a kept verification email', () => {
    const logs = redact({
      type: 'xstate.done.actor.listLogs',
      output: [
        {
          id: 4,
          user_name: 'Dana Whitfield',
          actor_name: 'Sasha Support',
          user_email: 'dana@harbor.example',
        },
      ],
    });
    const kept = redact({
      type: 'xstate.done.actor.sendVerification',
      output: {
        text: 'Open http://localhost:3000/verify-sender?token=dO2WnSB9IVeT7LT8&x=1 to verify',
        html: '<a href="http://localhost:3000/verify-sender?token=dO2WnSB9IVeT7LT8">Verify</a>',
      },
    });
    const written = JSON.stringify([logs, kept]);
    for (const personal of ['Dana Whitfield', 'Sasha Support', 'dana@harbor.example', 'dO2WnSB9IVeT7LT8'])
      expect(written).not.toContain(personal);
    expect(written).toContain('verify-sender?token=[redacted]&x=1');
  });

  it('hides profile notes and their authors, and the rows of guest files', () => {
    const loaded = redact({
      type: 'xstate.done.actor.profile',
      output: {
        notes: [{ id: 1, body: 'Allergic to nuts, ask for Maria', author_name: 'Dana Whitfield' }],
        rows: [{ customer_name: 'Ana Ortiz', last_four_digits: '4242', pos_id: 'P-1' }],
      },
    });
    const text = JSON.stringify(loaded);
    for (const personal of ['Allergic', 'Dana Whitfield', 'Ana Ortiz', '4242'])
      expect(text).not.toContain(personal);
    expect(text).toContain(fingerprint('Dana Whitfield'));
    expect(text).toContain('"pos_id":"P-1"');
    expect(JSON.stringify(redact({ type: 'note.change', body: 'Prefers booth 4' }))).not.toContain('booth');
  });
});
