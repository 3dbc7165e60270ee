import { useSelector } from '@xstate/react';
import dayjs from 'dayjs';
import timezone from 'dayjs/plugin/timezone.js';
import utc from 'dayjs/plugin/utc.js';
import { useCallback, useSyncExternalStore } from 'react';
import { rangeOfPreset, type DateRange } from '../schemas/date-range.js';
import { useAuthActor } from './session-context.js';

dayjs.extend(utc);
dayjs.extend(timezone);

/** The session's choice: null until the user picks a range (then the last 30 days, worked out from today). */
interface RangeChoice {
  range: DateRange | null;
  compare: boolean;
}

// One choice for every dashboard of the tab, kept while the app runs (a reload starts again from the default).
let choice: RangeChoice = { range: null, compare: true };
const listeners = new Set<() => void>();

function choose(next: Partial<RangeChoice>): void {
  choice = { ...choice, ...next };
  for (const listener of listeners) listener();
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

const read = () => choice;

/** Today as `YYYY-MM-DD` in a time zone (the browser's when none or an unknown one is given). */
export function todayIn(timeZone: string | undefined, now: Date = new Date()): string {
  try {
    return (timeZone ? dayjs(now).tz(timeZone) : dayjs(now)).format('YYYY-MM-DD');
  } catch {
    return dayjs(now).format('YYYY-MM-DD');
  }
}

/**
 * The company's today (`YYYY-MM-DD`): the dashboards' presets are days of the company's zone, as their figures
 * are (the session's company carries it; the browser's zone only until the session has been read).
 */
export function useCompanyToday(): string {
  const auth = useAuthActor();
  const timeZone = useSelector(auth, (state) => state.context.user?.company.time_zone);
  return todayIn(timeZone);
}

/** The dashboards' shared date range and comparison, what changes them, and a key that changes with them. */
export interface DashboardRangeChoice {
  range: DateRange;
  compare: boolean;
  setRange: (range: DateRange) => void;
  setCompare: (compare: boolean) => void;
  /** Changes only when the range or the comparison does (a screen sends its machine the new ones then). */
  key: string;
}

/**
 * The date range and "compare with the previous period" every dashboard shows, one choice for the session
 * (like the header's locations, `useLocationFilter`): the last 30 days with the comparison on until the user
 * picks otherwise; "today" is the company's, in its time zone (`useCompanyToday`).
 */
export function useDashboardRange(): DashboardRangeChoice {
  const current = useSyncExternalStore(subscribe, read);
  const today = useCompanyToday();
  const range = current.range ?? rangeOfPreset('last30', today);
  const setRange = useCallback((next: DateRange) => choose({ range: next }), []);
  const setCompare = useCallback((compare: boolean) => choose({ compare }), []);
  return {
    range,
    compare: current.compare,
    setRange,
    setCompare,
    key: `${range.preset}:${range.from}:${range.to}:${current.compare ? 'compare' : 'alone'}`,
  };
}
