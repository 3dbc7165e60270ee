import type { TFunction } from 'i18next';
import { DAYJS_LOCALES, languageOf } from '../../format/index.js';
import type { Recommendation } from '../../schemas/home-dashboard.js';
import { formatFigure } from '../kit/figure-format.js';

/** The name of a month (1–12) in the user's language. */
function monthName(month: number, language: string): string {
  const locale = DAYJS_LOCALES[languageOf(language)];
  return new Intl.DateTimeFormat(locale, { month: 'long', timeZone: 'UTC' }).format(
    new Date(Date.UTC(2024, month - 1, 1)),
  );
}

/** The name of an ISO weekday (1 Monday … 7 Sunday) in the user's language. */
function weekdayName(weekday: number, language: string): string {
  const locale = DAYJS_LOCALES[languageOf(language)];
  // 1 January 2024 was a Monday.
  return new Intl.DateTimeFormat(locale, { weekday: 'long', timeZone: 'UTC' }).format(
    new Date(Date.UTC(2024, 0, weekday)),
  );
}

/** The values a recommendation's sentences name, written in the user's language. */
export function recommendationParams(
  item: Recommendation,
  t: TFunction,
  language: string,
): Record<string, string> {
  const { details } = item;
  return {
    location: details.location_name ?? '',
    month: details.month === null ? '' : monthName(details.month, language),
    weekday: details.weekday === null ? '' : weekdayName(details.weekday, language),
    dayPart: details.day_part === null ? '' : t(`homeDashboard.dayParts.${details.day_part}`),
    checks: formatFigure(details.checks, 'decimal', language),
    average: formatFigure(details.average_checks, 'decimal', language),
    item: details.item_name ?? '',
  };
}
