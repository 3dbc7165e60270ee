import { describe, expect, it } from 'vitest';
import { CsvRecordTooLongError, readCsvRecords, type CsvRecord } from '../../server/imports/csv-reader.js';
import { UploadRefusedError, utf8Text } from '../../server/imports/text-source.js';

/** The text in chunks of `size` characters (1 splits every quote, CRLF and comma across chunks). */
function chunked(text: string, size: number): string[] {
  const pieces: string[] = [];
  for (let i = 0; i < text.length; i += size) pieces.push(text.slice(i, i + size));
  return pieces;
}

/** Every record of the pieces, from `from` on when given, with where each ended. */
async function readAll(pieces: string[], from?: { offset: number; line: number }): Promise<CsvRecord[]> {
  async function* chunks() {
    yield* pieces;
  }
  const records: CsvRecord[] = [];
  for await (const batch of readCsvRecords(chunks(), undefined, from)) records.push(...batch);
  return records;
}

/** Feeds the text in chunks of `size` characters; the records' cells and lines, without their end positions. */
async function read(
  text: string,
  size = text.length || 1,
  maxChars?: number,
): Promise<Omit<CsvRecord, 'end'>[]> {
  async function* chunks() {
    yield* chunked(text, size);
  }
  const records: Omit<CsvRecord, 'end'>[] = [];
  for await (const batch of readCsvRecords(chunks(), maxChars)) {
    for (const { end: _end, ...record } of batch) records.push(record);
  }
  return records;
}

/** Decodes bytes through the upload's text source, in chunks of `size` bytes. */
async function decode(bytes: Uint8Array, maxBytes = 1024, size = 3): Promise<string> {
  async function* chunks() {
    for (let i = 0; i < bytes.length; i += size) yield bytes.subarray(i, i + size);
  }
  let text = '';
  for await (const piece of utf8Text(chunks(), maxBytes)) text += piece;
  return text;
}

describe('readCsvRecords', () => {
  it('reads on from any record end it reported exactly as one uninterrupted read goes on', async () => {
    const text = 'h1,h2\r\na,"multi\nline"\n\n b ,c\r\n"x""y",z\r"q"\nlast,row';
    for (const size of [1, 2, 5, 1000]) {
      const pieces = chunked(text, size);
      const whole = await readAll(pieces);
      expect(whole.map((record) => record.fields[0])).toEqual(['h1', 'a', ' b ', 'x"y', 'q', 'last']);
      for (const [index, record] of whole.entries()) {
        const resumed = await readAll(pieces.slice(record.end.chunk), record.end);
        const expected = whole.slice(index + 1).map(({ line, fields }) => ({ line, fields }));
        expect(resumed.map(({ line, fields }) => ({ line, fields }))).toEqual(expected);
      }
    }
  });

  for (const size of [1, 2, 7, 1000]) {
    describe(`in chunks of ${size}`, () => {
      it('reads CRLF, LF and lone CR line ends with the line each record starts on', async () => {
        expect(await read('a,b\r\n1,2\n3,4\r5,6', size)).toEqual([
          { line: 1, fields: ['a', 'b'] },
          { line: 2, fields: ['1', '2'] },
          { line: 3, fields: ['3', '4'] },
          { line: 4, fields: ['5', '6'] },
        ]);
      });

      it('keeps commas, doubled quotes and line breaks inside quoted fields, reporting the starting line', async () => {
        const text = 'name,note\r\n"Smith, Jo","said ""hi""\r\nthen left"\r\nnext,row\r\n';
        expect(await read(text, size)).toEqual([
          { line: 1, fields: ['name', 'note'] },
          { line: 2, fields: ['Smith, Jo', 'said "hi"\r\nthen left'] },
          { line: 4, fields: ['next', 'row'] },
        ]);
      });

      it('skips blank lines and lines of empty cells without counting them, but keeps line numbers', async () => {
        expect(await read('h\n\n   \n,,\nx\n\r\n\ny', size)).toEqual([
          { line: 1, fields: ['h'] },
          { line: 5, fields: ['x'] },
          { line: 8, fields: ['y'] },
        ]);
      });

      it('keeps empty fields and a trailing empty field', async () => {
        expect(await read('a,,c,\n', size)).toEqual([{ line: 1, fields: ['a', '', 'c', ''] }]);
      });

      it('flags a quote never closed at the end of the file', async () => {
        expect(await read('h\n"open,\nmore', size)).toEqual([
          { line: 1, fields: ['h'] },
          { line: 2, fields: ['open,\nmore'], unclosedQuote: true },
        ]);
      });
    });
  }

  it('keeps text after a closing quote as written', async () => {
    expect(await read('"ab"c,d')).toEqual([{ line: 1, fields: ['abc', 'd'] }]);
  });

  it('refuses a record longer than the limit, naming its line', async () => {
    const error = await read(`h\n"${'x'.repeat(50)}`, 8, 20).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(CsvRecordTooLongError);
    expect((error as CsvRecordTooLongError).line).toBe(2);
  });
});

describe('utf8Text', () => {
  it('drops a UTF-8 byte order mark and decodes characters split across chunks', async () => {
    const bytes = new Uint8Array([0xef, 0xbb, 0xbf, ...Buffer.from('email\nzoë@example.com', 'utf8')]);
    expect(await decode(bytes)).toBe('email\nzoë@example.com');
  });

  it('refuses NUL bytes as binary content', async () => {
    const error = await decode(new Uint8Array([0x61, 0x00, 0x62])).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(UploadRefusedError);
    expect((error as UploadRefusedError).reason).toBe('binary');
  });

  it('refuses bytes that are not UTF-8, including a sequence cut off at the end', async () => {
    for (const bytes of [
      [0x61, 0xff, 0x62],
      [0x61, 0xc3],
    ]) {
      const error = await decode(new Uint8Array(bytes)).catch((caught: unknown) => caught);
      expect((error as UploadRefusedError).reason).toBe('not_utf8');
    }
  });

  it('refuses more bytes than allowed', async () => {
    const error = await decode(new Uint8Array(20).fill(0x61), 10).catch((caught: unknown) => caught);
    expect((error as UploadRefusedError).reason).toBe('too_large');
  });
});
