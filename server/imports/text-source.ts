/**
 * Turns an uploaded byte stream into text for the CSV reader, refusing what is not a text file as early as
 * it shows: more bytes than allowed, NUL bytes (binary files), or bytes that are not UTF-8. A UTF-8 byte
 * order mark is dropped. Nothing is buffered beyond the chunk at hand.
 */

/** Why an upload's bytes were refused. */
export class UploadRefusedError extends Error {
  constructor(
    readonly reason: 'too_large' | 'binary' | 'not_utf8',
    message: string,
  ) {
    super(message);
    this.name = 'UploadRefusedError';
  }
}

/** Counts the bytes read so far, for the job's size. */
export interface ByteCounter {
  bytes: number;
}

/**
 * Decodes `source` as UTF-8 chunk by chunk; throws UploadRefusedError once the bytes pass `maxBytes`, on a
 * NUL byte, or on an invalid UTF-8 sequence (including one cut off at the end).
 */
export async function* utf8Text(
  source: AsyncIterable<Uint8Array | string>,
  maxBytes: number,
  counter: ByteCounter = { bytes: 0 },
): AsyncGenerator<string> {
  // fatal: invalid sequences throw instead of becoming U+FFFD; the BOM is removed by default.
  const decoder = new TextDecoder('utf-8', { fatal: true });
  for await (const piece of source) {
    const bytes = typeof piece === 'string' ? Buffer.from(piece, 'utf8') : piece;
    counter.bytes += bytes.byteLength;
    if (counter.bytes > maxBytes) {
      throw new UploadRefusedError('too_large', `The file is larger than ${maxBytes} bytes`);
    }
    if (bytes.includes(0)) {
      throw new UploadRefusedError('binary', 'The file is not a CSV text file (it holds binary data)');
    }
    yield decodeOrRefuse(() => decoder.decode(bytes, { stream: true }));
  }
  const rest = decodeOrRefuse(() => decoder.decode());
  if (rest !== '') yield rest;
}

/** Runs a decode step, turning the decoder's TypeError into a refusal that says what to do. */
function decodeOrRefuse(decode: () => string): string {
  try {
    return decode();
  } catch {
    throw new UploadRefusedError(
      'not_utf8',
      'The file is not UTF-8 text; save it as "CSV UTF-8" and upload it again',
    );
  }
}
