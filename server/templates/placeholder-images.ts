import { deflateSync } from 'node:zlib';

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

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});

/** The CRC-32 of a PNG chunk's type and data. */
function crc32(bytes: Buffer): number {
  let crc = 0xffffffff;
  for (const byte of bytes) crc = CRC_TABLE[(crc ^ byte) & 0xff]! ^ (crc >>> 8);
  return (crc ^ 0xffffffff) >>> 0;
}

/** One PNG chunk: length, type, data, CRC. */
function chunk(type: string, data: Buffer): Buffer {
  const typed = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(typed));
  return Buffer.concat([length, typed, crc]);
}

/** An RGB PNG fading from `top` to `bottom`. */
function gradientPng(
  width: number,
  height: number,
  top: readonly number[],
  bottom: readonly number[],
): Buffer {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.set([8, 2, 0, 0, 0], 8); // 8-bit RGB, no interlace
  const rows = Buffer.alloc((width * 3 + 1) * height);
  for (let y = 0; y < height; y++) {
    const share = y / Math.max(1, height - 1);
    const colour = top.map((value, i) => Math.round(value + (bottom[i]! - value) * share));
    const start = y * (width * 3 + 1); // each row starts with filter type 0
    for (let x = 0; x < width; x++) rows.set(colour, start + 1 + x * 3);
  }
  const signature = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  return Buffer.concat([
    signature,
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(rows)),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

const drawn = new Map<PlaceholderName, Buffer>();

/** The PNG of a placeholder (drawn once), or null for a name that is not one. */
export function placeholderPng(name: string): Buffer | null {
  if (!Object.hasOwn(PLACEHOLDERS, name)) return null;
  const key = name as PlaceholderName;
  const spec = PLACEHOLDERS[key];
  if (!drawn.has(key)) drawn.set(key, gradientPng(spec.width, spec.height, spec.top, spec.bottom));
  return drawn.get(key)!;
}
