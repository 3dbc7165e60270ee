import { rgbPng } from './png.js';

/**
 * The social link icons of the editor's social block, drawn here and served from the installation beside the
 * gallery's placeholders (`/email-images/placeholders/<network>.png`): mjml's default icons live on mailjet.com,
 * and the renderer refuses a social link without its own icon (docs/templates.md). Each is a disc in the
 * network's colour with its initial in white, 48 px (shown at 24 px, sharp on dense screens).
 */

/** The networks with an icon, by file name: colour and the 5 × 7 bitmap of the letter. */
export const SOCIAL_ICONS = {
  'facebook.png': {
    colour: [0x18, 0x77, 0xf2],
    glyph: ['..###', '.#...', '.#...', '####.', '.#...', '.#...', '.#...'],
  },
  'instagram.png': {
    colour: [0xc1, 0x35, 0x84],
    glyph: ['..#..', '.....', '.##..', '..#..', '..#..', '..#..', '.###.'],
  },
  'x.png': {
    colour: [0x14, 0x17, 0x1a],
    glyph: ['#...#', '#...#', '.#.#.', '..#..', '.#.#.', '#...#', '#...#'],
  },
  'tiktok.png': {
    colour: [0x25, 0xf4, 0xee],
    glyph: ['#####', '..#..', '..#..', '..#..', '..#..', '..#..', '..#..'],
  },
} as const satisfies Record<string, { colour: readonly number[]; glyph: readonly string[] }>;

/** An icon's file name. */
export type SocialIconName = keyof typeof SOCIAL_ICONS;

/** The icons' side in pixels. */
const SIZE = 48;
/** One bitmap cell in pixels: the 5 × 7 letter fills 25 × 35 px in the middle. */
const CELL = 5;
const WHITE = [0xff, 0xff, 0xff] as const;

/** Draws one icon: white outside the disc, the letter's cells white on the network's colour. */
function drawIcon(colour: readonly number[], glyph: readonly string[]): Buffer {
  const left = (SIZE - 5 * CELL) / 2;
  const top = (SIZE - 7 * CELL) / 2;
  const centre = (SIZE - 1) / 2;
  return rgbPng(SIZE, SIZE, (x, y) => {
    if ((x - centre) ** 2 + (y - centre) ** 2 > (SIZE / 2) ** 2) return WHITE;
    const row = Math.floor((y - top) / CELL);
    const column = Math.floor((x - left) / CELL);
    const lit = x >= left && y >= top && glyph[row]?.[column] === '#';
    return lit ? WHITE : colour;
  });
}

const drawn = new Map<SocialIconName, Buffer>();

/** The PNG of a social icon (drawn once), or null for a name that is not one. */
export function socialIconPng(name: string): Buffer | null {
  if (!Object.hasOwn(SOCIAL_ICONS, name)) return null;
  const key = name as SocialIconName;
  if (!drawn.has(key)) drawn.set(key, drawIcon(SOCIAL_ICONS[key].colour, SOCIAL_ICONS[key].glyph));
  return drawn.get(key)!;
}
