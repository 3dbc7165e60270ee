import { useEffect, useState } from 'react';
import type * as FloatingPartsModule from './floating-parts.js';

/** The shell's floating components, once their chunk has loaded. */
export type FloatingParts = typeof FloatingPartsModule;

let loaded: FloatingParts | null = null;
let loading: Promise<FloatingParts> | null = null;

function loadFloatingParts(): Promise<FloatingParts> {
  loading ??= import('./floating-parts.js').then((parts) => (loaded = parts));
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
    if (parts) return;
    let current = true;
    // A failed load leaves the plain buttons; the next screen that asks tries again.
    loadFloatingParts().then(
      (ready) => current && setParts(ready),
      () => (loading = null),
    );
    return () => {
      current = false;
    };
  }, [parts]);
  return parts;
}
