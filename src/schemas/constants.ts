/** Limits and defaults shared by the server and the app (product spec section 9). */
export const LIMITS = {
  /** Rows per page of the subscriber list. */
  subscribersPageSize: 8,
  /** Rows per page of the guest list. */
  guestsPageSize: 10,
  /** Rows per page when a caller does not say. */
  defaultPageSize: 25,
  /** The most rows one page may hold. */
  maxPageSize: 500,
  /** Longest name of a location, group, list or segment. */
  nameMaxLength: 120,
  /** Shortest password (spec section 5). */
  passwordMinLength: 8,
  /** Length of a US zip code. */
  zipLength: 5,
  /** Longest note about a guest or subscriber. */
  noteMaxLength: 2000,
  /** Rows in one file of the file-URLs call (the file-paging machine's default fileEndCount). */
  fileRowsPerFile: 100,
  /** File URLs in one page of the file-URLs call. */
  fileUrlsPerPage: 10,
  /** Largest CSV upload, in bytes (a million subscriber rows take about 60 MB). */
  uploadMaxBytes: 256 * 1024 * 1024,
  /** Row errors returned with an import job; all of them are in the rejected-rows download. */
  importErrorPreview: 100,
  /** How long an upload call waits for a small import to finish before answering 202 to be followed. */
  uploadWaitMs: 3000,
} as const;

/** The interface languages, default first. */
export const LANGUAGES = ['en', 'ch', 'es', 'jp', 'de', 'fr'] as const;

/** One of the interface languages. */
export type Language = (typeof LANGUAGES)[number];

/** The BCP 47 tag each interface language is written in, for `<html lang>` (the codes ch and jp are not tags). */
export const HTML_LANG: Record<Language, string> = {
  en: 'en',
  ch: 'zh-Hans',
  es: 'es',
  jp: 'ja',
  de: 'de',
  fr: 'fr',
};
