import { Component, type ErrorInfo, type ReactNode } from 'react';
import { LoadFailedView } from '../views/shell/LoadFailedView.js';

/**
 * Catches a screen that failed to load or render (ChunkLoadError, CSS_CHUNK_LOAD_FAILED, a crash) and
 * shows the reload page instead of a blank one; the app around it keeps working.
 */
export class ScreenBoundary extends Component<{ children: ReactNode }, { failed: boolean }> {
  override state = { failed: false };

  static getDerivedStateFromError(): { failed: boolean } {
    return { failed: true };
  }

  override componentDidCatch(error: Error, info: ErrorInfo): void {
    console.error(`${error.name}: ${error.message}`, info.componentStack);
  }

  override render(): ReactNode {
    if (this.state.failed) return <LoadFailedView onReload={() => window.location.reload()} />;
    return this.props.children;
  }
}
