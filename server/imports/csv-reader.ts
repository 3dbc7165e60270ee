/**
 * A streaming CSV reader (RFC 4180, leniently): text arrives in chunks and records come out in batches, so
 * a file of any size is read with memory bounded by the longest record. Quoted fields may hold commas,
 * doubled quotes and line breaks; CRLF, LF and lone CR all end a line; blank lines (or lines of empty
 * cells) are skipped. Each record carries the physical line it starts on, counting from 1.
 */

/** One record of the file: its fields and the line it starts on. */
export interface CsvRecord {
  line: number;
  fields: string[];
  /** Set when the file ended inside a quoted field: the row is unusable. */
  unclosedQuote?: true;
  /** Where the text after this record starts: reading on from here reads the next records only. */
  end: CsvPosition;
}

/**
 * A record boundary in the text: `chunk` counts the chunks of this read from 0, `offset` is the character of
 * that chunk that ended the record (its line break, or the chunk's length at the end of the text), and `line`
 * the line the record ended on. Reading from it in a fresh reader (the `from` argument) goes on as if never stopped.
 */
export interface CsvPosition {
  chunk: number;
  offset: number;
  line: number;
}

/** Raised for a record longer than the reader will hold (usually a quote that is never closed). */
export class CsvRecordTooLongError extends Error {
  constructor(
    readonly line: number,
    readonly maxChars: number,
  ) {
    super(`The row starting on line ${line} is longer than ${maxChars} characters; is a quote left open?`);
    this.name = 'CsvRecordTooLongError';
  }
}

/** The longest record kept in memory, in characters, unless the caller says otherwise. */
export const DEFAULT_MAX_RECORD_CHARS = 1024 * 1024;

const COMMA = 0x2c;
const QUOTE = 0x22;
const LF = 0x0a;
const CR = 0x0d;

/** Where the reader is within the current field. */
const State = {
  FieldStart: 0,
  Unquoted: 1,
  Quoted: 2,
  /** A quote inside a quoted field: either the closing quote or the first of a doubled one. */
  QuoteInQuoted: 3,
} as const;

/** True when every cell is empty or spaces: such a line is skipped, not counted. */
function isBlank(fields: readonly string[]): boolean {
  return fields.every((field) => field.trim() === '');
}

/**
 * Reads CSV text chunk by chunk and yields, after each chunk, the records it completed (possibly none).
 * Throws CsvRecordTooLongError when a record grows beyond `maxRecordChars`. With `from`, the first chunk is
 * read from `from.offset` on with lines counted from `from.line` (a record boundary an earlier read reported).
 */
export async function* readCsvRecords(
  chunks: AsyncIterable<string>,
  maxRecordChars = DEFAULT_MAX_RECORD_CHARS,
  from: { offset: number; line: number } = { offset: 0, line: 1 },
): AsyncGenerator<CsvRecord[]> {
  // Widened to number: the helpers below change it, which narrowing cannot see.
  let state: number = State.FieldStart;
  let fields: string[] = [];
  let field = '';
  let recordChars = 0;
  let started = false;
  let line = from.line;
  let recordLine = from.line;
  let chunkIndex = -1;
  // The ending character's index in the current chunk, for the record's end position.
  let at = 0;
  let previousWasCR = false;
  let out: CsvRecord[] = [];

  const pushField = () => {
    recordChars += field.length;
    if (recordChars > maxRecordChars) throw new CsvRecordTooLongError(recordLine, maxRecordChars);
    fields.push(field);
    field = '';
  };
  const endRecord = () => {
    if (started) {
      pushField();
      // The line break that ended the record was counted once already (the one before it is never a CR).
      const endLine = at < currentLength ? line - 1 : line;
      if (!isBlank(fields)) {
        out.push({ line: recordLine, fields, end: { chunk: chunkIndex, offset: at, line: endLine } });
      }
    }
    fields = [];
    field = '';
    recordChars = 0;
    started = false;
    state = State.FieldStart;
  };
  const begin = () => {
    if (!started) {
      started = true;
      recordLine = line;
    }
  };

  let currentLength = 0;
  for await (const chunk of chunks) {
    chunkIndex++;
    currentLength = chunk.length;
    // Start of the current field's text not yet copied into `field`, while Unquoted or Quoted.
    const first = chunkIndex === 0 ? from.offset : 0;
    let segment = first;
    for (let i = first; i < chunk.length; i++) {
      at = i;
      const c = chunk.charCodeAt(i);
      const newline = c === LF || c === CR;
      // CRLF counts as one line break; a lone CR or LF as one each.
      if (c === CR || (c === LF && !previousWasCR)) line++;
      previousWasCR = c === CR;

      switch (state) {
        case State.FieldStart:
          if (c === QUOTE) {
            begin();
            state = State.Quoted;
            segment = i + 1;
          } else if (c === COMMA) {
            begin();
            pushField();
          } else if (newline) {
            endRecord();
          } else {
            // The record starts here; `line` already counts any break before this character.
            begin();
            state = State.Unquoted;
            segment = i;
          }
          break;
        case State.Unquoted:
          if (c === COMMA) {
            field += chunk.slice(segment, i);
            pushField();
            state = State.FieldStart;
          } else if (newline) {
            field += chunk.slice(segment, i);
            endRecord();
          }
          break;
        case State.Quoted:
          if (c === QUOTE) {
            field += chunk.slice(segment, i);
            state = State.QuoteInQuoted;
          }
          break;
        case State.QuoteInQuoted:
          if (c === QUOTE) {
            field += '"';
            state = State.Quoted;
            segment = i + 1;
          } else if (c === COMMA) {
            pushField();
            state = State.FieldStart;
          } else if (newline) {
            endRecord();
          } else {
            // Text after a closing quote is kept as written rather than refusing the file.
            state = State.Unquoted;
            segment = i;
          }
          break;
      }
    }
    if (state === State.Unquoted || state === State.Quoted) field += chunk.slice(segment);
    if (recordChars + field.length > maxRecordChars) {
      throw new CsvRecordTooLongError(recordLine, maxRecordChars);
    }
    if (out.length > 0) {
      yield out;
      out = [];
    }
  }

  at = currentLength;
  if (state === State.Quoted) {
    pushField();
    out.push({
      line: recordLine,
      fields,
      unclosedQuote: true,
      end: { chunk: chunkIndex, offset: at, line },
    });
  } else {
    endRecord();
  }
  if (out.length > 0) yield out;
}
