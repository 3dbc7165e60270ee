import { useEffect, useState } from 'react';
import type * as FloatingPartsModule from './floating-parts.js';

/** The shell's floating components, once their chunk has loaded. */
export type FloatingParts = typeof FloatingPartsModule;

let loaded: FloatingParts | null = null;
let loading: Promise<FloatingParts> | null = null;
const waiting = new Set<(parts: FloatingParts) => void>();

/**
 * Loads the floating parts' chunk (once; again after a failure) and tells every component waiting for it.
 * The user menu calls it on a click, so a chunk that failed to download is tried again.
 */
export function loadFloatingParts(): Promise<FloatingParts> {
  loading ??= import('./floating-parts.js').then(
    (parts) => {
      loaded = parts;
      for (const tell of waiting) tell(parts);
      return parts;
    },
    (error: unknown) => {
      loading = null;
      throw error;
    },
  );
  return loading;
}

/**
 * The shell's menus, tooltips and flyouts, or null until their chunk arrives. They are not needed to
 * show a page, so they stay out of the first load (docs/platform.md, "First load") and start loading
 * as soon as the first component asking for them has rendered; until then the buttons they wrap work
 * on their own (the user menu opens once they are there).
 */
export function useFloatingParts(): FloatingParts | null {
  const [parts, setParts] = useState(loaded);
  useEffect(() => {
    if (loaded) {
      setParts(loaded);
      return;
    }
    waiting.add(setParts);
    // A failed download leaves the plain buttons; a click on the user menu tries again.
    loadFloatingParts().catch(() => undefined);
    return () => {
      waiting.delete(setParts);
    };
  }, []);
  return parts;
}
