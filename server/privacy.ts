import { createHash } from 'node:crypto';

/** Keys whose values are personal data and never stored in logs or the audit trail in clear. */
export const PERSONAL_KEYS = new Set([
  'email',
  // A flow's notify-staff action: the staff members' addresses.
  'emails',
  'to_address',
  'first_name',
  'last_name',
  'customer_name',
  'name_on_card',
  'phone',
  'last_four_digits',
  'birthday',
  'username',
  'password',
  'password_hash',
  'key_hash',
  'body',
]);

/** A short, stable fingerprint of a personal value: the same input gives the same mark, but not the value. */
export function fingerprint(value: unknown): string {
  return `sha256:${createHash('sha256').update(String(value)).digest('hex').slice(0, 16)}`;
}

/** A copy of a record with every personal value replaced by its fingerprint (nested objects too). */
export function redactPersonalData<T>(value: T): T {
  if (Array.isArray(value)) return (value as unknown[]).map((item) => redactPersonalData(item)) as T;
  if (value === null || typeof value !== 'object' || value instanceof Date) return value;
  const copy: Record<string, unknown> = {};
  for (const [key, field] of Object.entries(value)) {
    copy[key] =
      PERSONAL_KEYS.has(key) && field !== null && field !== ''
        ? fingerprint(field)
        : redactPersonalData(field);
  }
  return copy as T;
}
