// What one file may cost to read, decided before anything big is allocated. Every reader (the page's
// Open trace…, ?trace= links, the embed page, <pipescope-player>, the CLI) derives a budget from the
// bytes it was given and a fixed ceiling, and holds the decoding to it: inflated bytes while gunzipping,
// then JSON values, nesting depth and string length in one pass over the text before JSON.parse, then
// rows and cells of the compact encoding's tables from their declared counts (compact-trace.ts) before
// a single row is built. A hostile file is refused early, with a message that names the limit; a real
// trace is well inside every limit (decode-budget.test.ts checks the largest recorded fixture).
import { MAX_COMMANDS } from './run-request.ts';
import { TraceError } from './trace-builder.ts';

/** A file refused for what it would cost to read, not for what it says: the message names the limit. */
export class DecodeLimitError extends TraceError {
  override name = 'DecodeLimitError';
}

/**
 * Text bytes of any one file, whatever its size: a plain trace of MAX_COMMANDS commands is ~70 MB for one
 * pipeline, ~320 MB for a sequential run traced with MONITOR (as the app's Save trace writes it); its compact
 * form (npm run record -- compact), what is served to the web, a tenth of that or far less.
 */
export const MAX_INFLATED_BYTES = 384 * 1024 * 1024;
/** Inflated bytes allowed however small the gzip: the largest recorded trace is far below. */
export const INFLATED_FLOOR_BYTES = 16 * 1024 * 1024;
/** Inflated bytes per gzip byte beyond the floor: recorded traces inflate 2–25× (a plain pipeline of PING); a gzip bomb ~1,000×. */
export const INFLATE_RATIO = 32;
/** JSON values (array elements and object members) in one file's text; each costs JSON.parse 8–60 bytes. */
export const MAX_JSON_VALUES = 48 * MAX_COMMANDS;
/** Nesting of arrays and objects: a trace nests under 10 deep; a reply value a few more. */
export const MAX_JSON_DEPTH = 64;
/** Characters in one JSON string (a trace's strings are names, previews and notes of at most a few hundred). */
export const MAX_STRING_CHARS = 1024 * 1024;
/** Records the compact tables of one file may decode to: MAX_COMMANDS commands, and as many writes, reads, proxy frames and syscalls. */
export const MAX_DECODED_ROWS = 8 * MAX_COMMANDS;
/** Values in those records, whatever the input's size (a command record has at most 7). */
export const MAX_DECODED_CELLS = 32 * MAX_COMMANDS;
/** Decoded values allowed however short the compact text (a recorded 100,000-command pipeline needs 500,703 from 4,049 characters). */
export const CELLS_FLOOR = 1_000_000;
/** Decoded values per character of compact text beyond the floor: a recorded run needs ~125; a run of [k, count] items can claim millions. */
export const CELLS_PER_CHAR = 1024;

export interface DecodeBudget {
  /** Bytes the gunzip may write before it is refused (for the bytes given; at most MAX_INFLATED_BYTES). */
  inflatedBytes: number;
  values: number;
  depth: number;
  stringChars: number;
  /** Rows and cells the compact decoder may build, for the text given (decodeBudgetForText). */
  rows: number;
  cells: number;
}

/** The budget for a file of `inputBytes` bytes as given (gzipped or not); its decoded-size limits are set from its text later. */
export function decodeBudget(inputBytes: number): DecodeBudget {
  return {
    inflatedBytes: Math.min(MAX_INFLATED_BYTES, INFLATED_FLOOR_BYTES + INFLATE_RATIO * inputBytes),
    values: MAX_JSON_VALUES,
    depth: MAX_JSON_DEPTH,
    stringChars: MAX_STRING_CHARS,
    rows: MAX_DECODED_ROWS,
    cells: MAX_DECODED_CELLS,
  };
}

/** The compact decoder's share of the budget for a text of `chars` characters: tables may expand it, within reason. */
export function tableBudget(chars: number): { rows: number; cells: number } {
  const cells = Math.min(MAX_DECODED_CELLS, CELLS_FLOOR + CELLS_PER_CHAR * chars);
  return { rows: Math.min(MAX_DECODED_ROWS, cells), cells };
}

/** "256 MiB", "1.5 KiB": sizes in refusals. */
export function sizeText(bytes: number): string {
  const units = ['B', 'KiB', 'MiB', 'GiB'];
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit++;
  }
  return `${Number.isInteger(value) ? value : value.toFixed(1)} ${units[unit]}`;
}

/** The refusal for a gzip that writes more than `limit` bytes. */
export function inflateRefusal(limit: number, inputBytes: number): DecodeLimitError {
  return new DecodeLimitError(
    `the file inflates to more than ${sizeText(limit)} (the limit for ${sizeText(inputBytes)} of gzip: ` +
    `${sizeText(INFLATED_FLOOR_BYTES)} + ${INFLATE_RATIO} × its size, at most ${sizeText(MAX_INFLATED_BYTES)}); that is not a trace Pipescope can show.`,
  );
}

/** The text without a leading byte-order mark (U+FEFF), as a browser's TextDecoder reads a file. */
export function withoutBom(text: string): string {
  return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
}

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN_ARRAY = 0x5b;
const OPEN_OBJECT = 0x7b;
const CLOSE_ARRAY = 0x5d;
const CLOSE_OBJECT = 0x7d;
const COMMA = 0x2c;

/**
 * One pass over JSON text, before JSON.parse: refuses text that nests deeper than the budget, holds more
 * values (counted by their separators: a value per `,` and per opened array or object) or a longer
 * string. It does not check the grammar (JSON.parse does); it only bounds what JSON.parse would build.
 */
export function checkJsonText(text: string, budget: Pick<DecodeBudget, 'values' | 'depth' | 'stringChars'>): void {
  if (text.length > MAX_INFLATED_BYTES) throw new DecodeLimitError(`the file holds more than ${sizeText(MAX_INFLATED_BYTES)} of text; that is not a trace Pipescope can show.`);
  let depth = 0;
  let values = 0;
  const length = text.length;
  for (let i = 0; i < length; i++) {
    const c = text.charCodeAt(i);
    if (c === QUOTE) {
      const start = i;
      for (i++; i < length; i++) {
        const s = text.charCodeAt(i);
        if (s === BACKSLASH) i++;
        else if (s === QUOTE) break;
      }
      if (i - start - 1 > budget.stringChars) {
        throw new DecodeLimitError(`the file holds a string longer than ${budget.stringChars.toLocaleString('en-US')} characters; no trace field is that long.`);
      }
    } else if (c === OPEN_ARRAY || c === OPEN_OBJECT) {
      if (++depth > budget.depth) throw new DecodeLimitError(`the file nests arrays and objects more than ${budget.depth} deep; a trace nests under 10.`);
      if (++values > budget.values) throw tooManyValues(budget.values);
    } else if (c === CLOSE_ARRAY || c === CLOSE_OBJECT) {
      depth--;
    } else if (c === COMMA && ++values > budget.values) {
      throw tooManyValues(budget.values);
    }
  }
}

function tooManyValues(limit: number): DecodeLimitError {
  return new DecodeLimitError(`the file holds more than ${limit.toLocaleString('en-US')} JSON values; that is not a trace Pipescope can show.`);
}
