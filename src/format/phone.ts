/**
 * Phone numbers in one stored form and one shown form (docs/decisions.md, "Phone numbers"): the spec's rule
 * (section 5) decides what is valid; a valid number is stored as E.164 (`+15035554585`), read with US as the
 * region of numbers written without a country code, and shown in the national form for US numbers and the
 * international form otherwise. Uses libphonenumber-js with its small (`min`) metadata; import this module
 * only from code that handles phones, so the app's first load never carries it.
 */
import { parsePhoneNumberFromString, type CountryCode } from 'libphonenumber-js/min';

/** The region of a number written without a country code: the product's restaurants are in the US. */
export const DEFAULT_PHONE_REGION: CountryCode = 'US';

/**
 * A US number written the common way (`503-555-4585`, `(503) 555-4585`, `503.555.4585`, `5035554585`; area code
 * 2–9 first): libphonenumber reads every one as `+1` and the ten digits, and skipping it saves most of a CSV
 * import's per-row checking time.
 */
const PLAIN_US_NUMBER = /^(?:\(([2-9]\d{2})\)|([2-9]\d{2}))[-. ]?(\d{3})[-. ]?(\d{4})$/;

/**
 * The stored form of a phone as typed: E.164 when the digits can be a number of their region, '+' and the
 * digits for any other number written with a country code, else the text as typed (trimmed); '' stays ''.
 */
export function canonicalPhone(typed: string): string {
  const text = typed.trim();
  if (text === '') return '';
  const plain = PLAIN_US_NUMBER.exec(text);
  if (plain) return `+1${plain[1] ?? plain[2]}${plain[3]}${plain[4]}`;
  const parsed = parsePhoneNumberFromString(text, DEFAULT_PHONE_REGION);
  if (parsed?.isPossible()) return parsed.number;
  // The migration of stored phones writes these the same way (server/db/migrations/0008_phone_e164.sql).
  if (text.startsWith('+')) return `+${text.replace(/\D/g, '')}`;
  return text;
}

/** A stored phone as people read it: `(503) 555-4585` for a US number, `+44 20 7946 0958` for others. */
export function displayPhone(stored: string): string {
  const parsed = parsePhoneNumberFromString(stored, DEFAULT_PHONE_REGION);
  if (!parsed?.isValid()) return stored;
  return parsed.country === DEFAULT_PHONE_REGION ? parsed.formatNational() : parsed.formatInternational();
}

/**
 * A stored phone as an edit field starts: the national form for a US number (`(503) 555-4585`, which the spec's
 * rule accepts), else as stored (E.164 passes the rule too).
 */
export function editablePhone(stored: string): string {
  const parsed = parsePhoneNumberFromString(stored, DEFAULT_PHONE_REGION);
  return parsed?.isValid() && parsed.country === DEFAULT_PHONE_REGION ? parsed.formatNational() : stored;
}
