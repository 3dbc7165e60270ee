import type { Observable } from 'rxjs';
import { fromEvent, map, merge, Subject } from 'rxjs';

/**
 * The browser history as a stream of paths: back/forward (popstate) and every push or replace the app
 * makes through this module. src/app forwards each path to the navigation machine as `route.changed`.
 */

const changes = new Subject<string>();

/** The path the browser shows now (no query string or hash). */
export function currentPath(): string {
  return globalThis.location?.pathname ?? '/';
}

/** The path and query string the browser shows now, e.g. `/account?tab=tokens`. */
export function currentLocation(): string {
  const location = globalThis.location;
  return location ? `${location.pathname}${location.search}` : '/';
}

/** Every path the browser moves to after start, from back/forward or from push and replace. */
export function pathChanges(): Observable<string> {
  return merge(fromEvent(globalThis, 'popstate').pipe(map(() => currentPath())), changes.asObservable());
}

/** Adds a history entry for `path` (which may carry a query string) and announces it. */
export function pushPath(path: string): void {
  if (path !== currentLocation()) globalThis.history.pushState(null, '', path);
  changes.next(currentPath());
}

/** Replaces the current history entry with `path` and announces it. */
export function replacePath(path: string): void {
  globalThis.history.replaceState(null, '', path);
  changes.next(currentPath());
}
