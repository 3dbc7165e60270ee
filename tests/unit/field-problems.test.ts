import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { fieldErrorsOf } from '../../src/machines/support/api-problem.js';

// The codes are read from real zod issues of schemas written the way src/schemas writes them.
const Form = z.object({
  name: z.string().trim().min(1, 'Name is required'),
  password: z.string().min(8, 'Password minimum length is 8'),
  note: z.string().max(5, 'Note must be at most 5 characters'),
  email: z.email('Email is not valid'),
  tags: z.array(z.string()).min(1, 'Tags is required'),
  code: z
    .string()
    .refine((value) => value !== 'taken', { message: 'Code is already in use', params: { code: 'in_use' } }),
  other: z.string().refine((value) => value !== 'bad', 'Other is not valid'),
});

describe('field problems', () => {
  it('names each refused field with the code and limit its translation needs, keeping the message', () => {
    const result = Form.safeParse({
      name: '  ',
      password: 'short',
      note: 'far too long',
      email: 'nope',
      tags: [],
      code: 'taken',
      other: 'bad',
    });
    expect(result.success).toBe(false);
    expect(fieldErrorsOf(result.error!)).toEqual({
      name: { code: 'required', message: 'Name is required' },
      password: { code: 'min_length', min: 8, message: 'Password minimum length is 8' },
      note: { code: 'max_length', max: 5, message: 'Note must be at most 5 characters' },
      email: { code: 'not_valid', message: 'Email is not valid' },
      tags: { code: 'required', message: 'Tags is required' },
      code: { code: 'in_use', message: 'Code is already in use' },
      other: { code: 'not_valid', message: 'Other is not valid' },
    });
  });

  it('reads a missing field as required', () => {
    const result = Form.pick({ name: true }).safeParse({});
    expect(fieldErrorsOf(result.error!)).toMatchObject({ name: { code: 'required' } });
  });
});
