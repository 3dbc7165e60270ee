import { rgbPng } from './png.js';
import { socialIconPng } from './social-icons.js';

/**
 * The starter gallery's image placeholders, drawn here and served from the installation (docs/templates.md), so
 * a starter template loads nothing from another host: a soft two-tone band the owner replaces with a photo.
 */

/** The placeholders the gallery uses, by file name, with their size and colours (top, bottom). */
export const PLACEHOLDERS = {
  'hero.png': { width: 600, height: 260, top: [0xe8, 0xdf, 0xd3], bottom: [0xc9, 0xb8, 0xa3] },
  'dish.png': { width: 280, height: 200, top: [0xdc, 0xe6, 0xdc], bottom: [0xa9, 0xc0, 0xaa] },
} as const satisfies Record<string, { width: number; height: number; top: number[]; bottom: number[] }>;

/** A placeholder's file name. */
export type PlaceholderName = keyof typeof PLACEHOLDERS;

/** The path the placeholders are served under (public: email clients fetch them without signing in). */
export const PLACEHOLDER_PATH = '/email-images/placeholders/';

/** An RGB PNG fading from `top` to `bottom`. */
function gradientPng(
  width: number,
  height: number,
  top: readonly number[],
  bottom: readonly number[],
): Buffer {
  return rgbPng(width, height, (_x, y) => {
    const share = y / Math.max(1, height - 1);
    return top.map((value, i) => Math.round(value + (bottom[i]! - value) * share));
  });
}

const drawn = new Map<PlaceholderName, Buffer>();

/** The PNG of a placeholder or a social icon (drawn once), or null for a name that is neither. */
export function placeholderPng(name: string): Buffer | null {
  if (!Object.hasOwn(PLACEHOLDERS, name)) return socialIconPng(name);
  const key = name as PlaceholderName;
  const spec = PLACEHOLDERS[key];
  if (!drawn.has(key)) drawn.set(key, gradientPng(spec.width, spec.height, spec.top, spec.bottom));
  return drawn.get(key)!;
}
