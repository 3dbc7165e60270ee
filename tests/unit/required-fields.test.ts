import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { NEW_SENDER_FORM } from '../../src/machines/email-senders.machine.js';
import { NEW_USER_FORM } from '../../src/machines/company-users.machine.js';
import { LocationEditSchema, NEW_LOCATION_FORM } from '../../src/machines/locations-admin.machine.js';
import { NEW_SUBSCRIBER_FORM } from '../../src/machines/subscribers-list.machine.js';
import {
  CompanyTokenCreateSchema,
  CompanyUserCreateSchema,
  CompanyUserUpdateSchema,
  EmailSenderInputSchema,
} from '../../src/schemas/accounts.js';
import { SubscriberCreateSchema, SubscriberListWriteSchema } from '../../src/schemas/subscribers.js';
import { requiredFieldsOf } from '../../src/views/kit/required-fields.js';

/** The required fields, sorted, for a readable comparison. */
function marked(schema: z.ZodType | undefined, form: object): string[] {
  return [...requiredFieldsOf(schema, form)].map(String).sort();
}

describe('requiredFieldsOf: the fields a kit dialog marks as required', () => {
  it('marks what each dialog’s schema refuses empty and nothing it takes empty', () => {
    expect(marked(EmailSenderInputSchema, NEW_SENDER_FORM)).toEqual(['email', 'name']);
    expect(marked(CompanyUserCreateSchema, NEW_USER_FORM)).toEqual(['email', 'password', 'role']);
    expect(marked(CompanyUserUpdateSchema, NEW_USER_FORM)).toEqual(['role', 'username']);
    expect(marked(CompanyTokenCreateSchema, { name: '' })).toEqual(['name']);
    expect(marked(SubscriberListWriteSchema, { name: '' })).toEqual(['name']);
    expect(marked(SubscriberCreateSchema, NEW_SUBSCRIBER_FORM)).toEqual(['email']);
    expect(marked(LocationEditSchema, NEW_LOCATION_FORM)).toEqual(['name', 'time_zone']);
  });

  it('judges a field by itself: other fields half typed do not mark it', () => {
    const form = { ...NEW_SENDER_FORM, email: 'not an address', reply_to: 'also not' };
    expect(marked(EmailSenderInputSchema, form)).toEqual(['email', 'name']);
  });

  it('marks an empty list the schema refuses, never a switch, and nothing without a schema', () => {
    const schema = z.object({ ids: z.array(z.number()).min(1), on: z.boolean() });
    expect(marked(schema, { ids: [1], on: false })).toEqual(['ids']);
    expect(marked(undefined, NEW_SENDER_FORM)).toEqual([]);
  });
});
