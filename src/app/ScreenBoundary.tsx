import { Component, type ErrorInfo, type ReactNode } from 'react';
import { PageLoader } from '../views/shell/PageLoader.js';
import type { CustomErrorCode } from './routes.js';

/**
 * Which custom error page explains a screen's failure: 1 when its code could not be downloaded
 * (ChunkLoadError, including the 120 s time-out and the browser's failed dynamic import), 2 when its
 * styles could not (CSS_CHUNK_LOAD_FAILED, Vite's `vite:preloadError` "Unable to preload CSS"), else 5.
 */
export function customErrorFor(error: unknown): CustomErrorCode {
  const name = error instanceof Error ? error.name : '';
  const message = error instanceof Error ? error.message : String(error);
  const code = (error as { code?: unknown } | null)?.code;
  if (code === 'CSS_CHUNK_LOAD_FAILED' || /CSS_CHUNK_LOAD_FAILED|Unable to preload CSS/i.test(message))
    return 2;
  if (
    name === 'ChunkLoadError' ||
    /dynamically imported module|Importing a module script failed|Loading chunk .* failed/i.test(message)
  )
    return 1;
  return 5;
}

/**
 * Catches a screen that failed to load or render and hands the failure to `onFailure`, which sends the
 * browser to the matching custom error page (remembering the path to retry); the app keeps working.
 */
export class ScreenBoundary extends Component<
  { children: ReactNode; onFailure: (code: CustomErrorCode) => void },
  { failed: boolean }
> {
  override state = { failed: false };

  static getDerivedStateFromError(): { failed: boolean } {
    return { failed: true };
  }

  override componentDidCatch(error: Error, info: ErrorInfo): void {
    console.warn(`${error.name}: ${error.message}`, info.componentStack);
    this.props.onFailure(customErrorFor(error));
  }

  override render(): ReactNode {
    if (this.state.failed) return <PageLoader />;
    return this.props.children;
  }
}
