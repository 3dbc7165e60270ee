/**
 * The image types an email may carry, told by their first bytes (never by the name or the declared type):
 * PNG, JPEG, GIF and WebP.
 */

/** An accepted image type. */
export type EmailImageType = 'image/png' | 'image/jpeg' | 'image/gif' | 'image/webp';

/** The image type of `bytes` by its magic bytes, or null when it is none of the accepted ones. */
export function imageTypeOf(bytes: Buffer): EmailImageType | null {
  if (
    bytes.length >= 8 &&
    bytes.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))
  )
    return 'image/png';
  if (bytes.length >= 3 && bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) return 'image/jpeg';
  const head = bytes.subarray(0, 6).toString('latin1');
  if (head === 'GIF87a' || head === 'GIF89a') return 'image/gif';
  if (
    bytes.length >= 12 &&
    bytes.subarray(0, 4).toString('latin1') === 'RIFF' &&
    bytes.subarray(8, 12).toString('latin1') === 'WEBP'
  )
    return 'image/webp';
  return null;
}
