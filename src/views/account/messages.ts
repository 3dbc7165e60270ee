import type { CompanyUser } from '../../schemas/accounts.js';
import { LANGUAGES, type Language } from '../../schemas/constants.js';

const LOCALES: Record<Language, string> = {
  en: 'en-US',
  ch: 'zh-CN',
  es: 'es-ES',
  jp: 'ja-JP',
  de: 'de-DE',
  fr: 'fr-FR',
};

function localeOf(language: string): string {
  return (LANGUAGES as readonly string[]).includes(language) ? LOCALES[language as Language] : 'en-US';
}

/** A moment as a medium date and short time in the interface language and the user's time zone. */
export function formatMoment(iso: string, language: string, timeZone?: string): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return iso;
  try {
    return new Intl.DateTimeFormat(localeOf(language), {
      dateStyle: 'medium',
      timeStyle: 'short',
      ...(timeZone ? { timeZone } : {}),
    }).format(date);
  } catch {
    // An unknown time zone falls back to the browser's own rather than hiding the date.
    return new Intl.DateTimeFormat(localeOf(language), { dateStyle: 'medium', timeStyle: 'short' }).format(
      date,
    );
  }
}

/** A user's name as shown: first and last name, else the username. */
export function displayName(user: Pick<CompanyUser, 'first_name' | 'last_name' | 'username'>): string {
  return `${user.first_name} ${user.last_name}`.trim() || user.username;
}
