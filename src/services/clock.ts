import { interval, map, type Observable } from 'rxjs';

/** The current time in ms since the epoch: the app's only reading of the wall clock. */
export function now(): number {
  return Date.now();
}

/** The time every `periodMs`, for screens that show how long ago something happened. */
export function ticks(periodMs: number): Observable<number> {
  return interval(periodMs).pipe(map(() => Date.now()));
}
