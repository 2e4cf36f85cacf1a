// Compact traces for the web: the same trace document, written denser, so that a recorded run of
// 100,000 commands is served in well under a megabyte (usually gzipped too, as *.json.gz). The encoding
// knows nothing of the trace schema: every array of records (commands, writes, reads, syscalls, memory
// samples, …) becomes a table of columns, each column stored whichever way of a few is shortest —
// integers as runs of deltas, repeated values ("PONG") interned, a column equal to an earlier one as a
// reference to it, anything else as it was. So a field added to the format later round-trips without a
// change here; a record key the encoding cannot hold (one starting with "$", its own marker) makes
// encoding fail loudly instead of dropping it.
//
// Invariant (compact-trace.test.ts; server/support/compact-fixtures.test.ts on every e2e fixture and a
// recorded 100k trace):
//   JSON.stringify(decodeCompactValue(encoded)) === JSON.stringify(original)
// byte for byte — key order, optional fields, numbers and all. Decoding yields plain JSON only; the
// reader (sweep-io.ts parseDocument) then verifies it like any other trace file (trace-io.ts).
//
// Grammar of an encoded value E:
//   string | number | boolean | null       itself
//   [E, …]                                 an array that is not a table
//   { key: E, … }                          a plain object (no key starts with "$")
//   { "$table": rows, "keys": [name, …], "shapes": [[key index, …], …], "shapeOf"?: Ints, "columns": [Column, …] }
//       rows records; shapes are the distinct key sequences (so key order and absent optional keys are
//       kept), shapeOf the shape of each row (absent: all rows have shape 0); columns[k] holds the values
//       of keys[k] in row order, for the rows that have that key.
//   Column: { "ints": Ints, "scale"?: s }  numbers, each = integer / 10^s
//         | { "dict": [value, …], "picks": Ints } primitive values interned: picks are indices into dict
//         | { "plain": [E, …] }
//         | { "same": id }  the same values as the id-th "ints" or "dict" column of the file (ids count those
//                           columns from 0, in the order they are written), e.g. writes[].atUs = commands[].sentUs
//   Ints:   { "deltas": Runs } (each the difference from the previous, the first from 0) | { "values": Runs }
//   Runs:   [item, …], an item being an integer, or [integer, count ≥ 2] for that integer repeated.
import { DecodeLimitError, MAX_DECODED_CELLS, MAX_DECODED_ROWS, tableBudget } from './decode-budget.ts';
import { TraceError } from './trace-builder.ts';
import type { TraceDocument } from './trace-format.ts';
import type { TraceBundle } from './trace-bundle.ts';

export const COMPACT_FORMAT = 'pipescope-trace-columns';
export const COMPACT_FORMAT_VERSION = 1;

/** Arrays of records shorter than this stay as they are: a table would not be smaller, and is less readable. */
const MIN_TABLE_ROWS = 4;
/** Decimal places tried for a numeric column (µs with ns precision needs 3). */
const MAX_SCALE = 6;
/**
 * What is left of the records and values one file may decode to, in all its tables (decode-budget.ts: from the
 * compact text's length, at most MAX_DECODED_ROWS and MAX_DECODED_CELLS), checked against each table's declared
 * counts before any row is built; and its "ints" and "dict" columns so far, by id.
 */
export interface Budget {
  rows: number;
  cells: number;
  columns?: unknown[][];
}

export interface CompactTrace {
  format: typeof COMPACT_FORMAT;
  version: typeof COMPACT_FORMAT_VERSION;
  trace: unknown;
}

type Json = string | number | boolean | null | Json[] | { [key: string]: Json };
type Runs = (number | [number, number])[];
type Ints = { deltas: Runs } | { values: Runs };

/** While one value is encoded: the "ints" and "dict" columns written so far (their JSON → id), for "same". */
interface EncodeState {
  columns: Map<string, number>;
}

/** The document (a trace, or a bundle of them) in the compact format, as JSON text. Throws TraceError for a value JSON cannot hold as written. */
export function encodeCompactTrace(doc: TraceDocument | TraceBundle): string {
  const compact: CompactTrace = { format: COMPACT_FORMAT, version: COMPACT_FORMAT_VERSION, trace: encodeCompactValue(doc) };
  return JSON.stringify(compact);
}

/** Any JSON value in the compact encoding (the grammar above); decodeCompactValue gives it back. */
export function encodeCompactValue(value: unknown, path = 'trace'): unknown {
  return encodeValue(value, path, { columns: new Map() });
}

/** True when the parsed JSON says it is a compact trace (of any version). */
export function isCompactTrace(json: unknown): boolean {
  return typeof json === 'object' && json !== null && (json as { format?: unknown }).format === COMPACT_FORMAT;
}

/**
 * The plain trace JSON held by a parsed compact file, still to be verified (verifyTrace); throws TraceError when
 * damaged, DecodeLimitError when its tables declare more than `budget` (default: the most any file may).
 */
export function decodeCompactTrace(json: unknown, budget: Budget = { rows: MAX_DECODED_ROWS, cells: MAX_DECODED_CELLS }): unknown {
  const version = (json as { version?: unknown }).version;
  if (version !== COMPACT_FORMAT_VERSION) {
    throw new TraceError(`Unsupported compact trace version ${JSON.stringify(version)}; this Pipescope reads version ${COMPACT_FORMAT_VERSION}.`);
  }
  if (!('trace' in (json as object))) throw new TraceError('Damaged compact trace: it holds no "trace".');
  return decodeCompactValue((json as { trace: unknown }).trace, 'trace', budget);
}

/** The table budget for a compact file of `chars` characters of text (decode-budget.ts tableBudget). */
export function compactBudgetFor(chars: number): Budget {
  return tableBudget(chars);
}

// ── encoding ──────────────────────────────────────────────────────────────────────────────────────

function encodeValue(value: unknown, path: string, state: EncodeState): Json {
  if (value === null || typeof value === 'string' || typeof value === 'boolean') return value;
  if (typeof value === 'number') return Number.isFinite(value) ? value : null; // as JSON.stringify writes it
  if (Array.isArray(value)) {
    if (value.length >= MIN_TABLE_ROWS && value.every(isRecord)) return encodeTable(value as Record<string, unknown>[], path, state);
    return value.map((v, i) => (v === undefined || typeof v === 'function' || typeof v === 'symbol' ? null : encodeValue(v, `${path}[${i}]`, state)));
  }
  if (isRecord(value)) {
    const out: Record<string, Json> = {};
    for (const [key, v] of presentEntries(value, path)) setOwn(out, key, encodeValue(v, `${path}.${key}`, state));
    return out;
  }
  throw new TraceError(`Cannot write a compact trace: ${path} is a ${typeof value}, which JSON cannot hold.`);
}

/** obj[key] = value as JSON.parse does it: an own property even for "__proto__". */
function setOwn(obj: object, key: string, value: unknown): void {
  if (key === '__proto__') Object.defineProperty(obj, key, { value, enumerable: true, writable: true, configurable: true });
  else (obj as Record<string, unknown>)[key] = value;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The entries JSON.stringify would write, in its order; a key that is the encoding's own marker is refused. */
function presentEntries(record: Record<string, unknown>, path: string): [string, unknown][] {
  if (typeof (record as { toJSON?: unknown }).toJSON === 'function') {
    throw new TraceError(`Cannot write a compact trace: ${path} has its own toJSON.`);
  }
  const entries: [string, unknown][] = [];
  for (const [key, v] of Object.entries(record)) {
    if (key.startsWith('$')) throw new TraceError(`Cannot write a compact trace: the key "${key}" at ${path} starts with "$", the compact format's own marker.`);
    if (v === undefined || typeof v === 'function' || typeof v === 'symbol') continue;
    entries.push([key, v]);
  }
  return entries;
}

function encodeTable(rows: Record<string, unknown>[], path: string, state: EncodeState): Json {
  const keys: string[] = [];
  const keyIndex = new Map<string, number>();
  const shapes: number[][] = [];
  const shapeIndex = new Map<string, number>();
  const shapeOf: number[] = [];
  const columns: unknown[][] = [];
  for (const [r, row] of rows.entries()) {
    const shape: number[] = [];
    for (const [key, v] of presentEntries(row, `${path}[${r}]`)) {
      let k = keyIndex.get(key);
      if (k === undefined) {
        k = keys.push(key) - 1;
        keyIndex.set(key, k);
        columns.push([]);
      }
      shape.push(k);
      columns[k]!.push(v);
    }
    const id = shape.join(',');
    let s = shapeIndex.get(id);
    if (s === undefined) {
      s = shapes.push(shape) - 1;
      shapeIndex.set(id, s);
    }
    shapeOf.push(s);
  }
  return {
    $table: rows.length,
    keys,
    shapes,
    ...(shapes.length > 1 ? { shapeOf: encodeInts(shapeOf) } : {}),
    columns: columns.map((values, k) => encodeColumn(values, `${path}[].${keys[k]}`, state)),
  };
}

/** The shortest of the column encodings that hold these values exactly. */
function encodeColumn(values: unknown[], path: string, state: EncodeState): Json {
  const plain = { plain: values.map((v, i) => encodeValue(v, `${path}#${i}`, state)) };
  const candidates: Json[] = [plain];
  const ints = values.every((v) => typeof v === 'number' && Number.isFinite(v)) ? scaledInts(values as number[]) : null;
  if (ints) candidates.push({ ints: encodeInts(ints.ints), ...(ints.scale ? { scale: ints.scale } : {}) });
  const dict = interned(values, state);
  if (dict) candidates.push({ dict: dict.dict, picks: encodeInts(dict.picks) });
  const best = shortest(candidates);
  if (best === plain) return best;
  // An "ints" or "dict" column (primitives only, no tables inside): the same values written before are named by id.
  const json = JSON.stringify(best);
  const earlier = state.columns.get(json);
  if (earlier !== undefined && JSON.stringify({ same: earlier }).length < json.length) return { same: earlier };
  if (earlier === undefined) state.columns.set(json, state.columns.size);
  else state.columns.set(`${json}#${state.columns.size}`, state.columns.size); // written again: it still takes an id
  return best;
}

/** The numbers as integers over 10^scale, for the smallest scale at which every one is exact; null if none is. */
function scaledInts(values: number[]): { ints: number[]; scale: number } | null {
  let scale = 0;
  for (const v of values) {
    while (scale <= MAX_SCALE && !exactAt(v, scale)) scale++;
    if (scale > MAX_SCALE) return null;
  }
  const power = 10 ** scale;
  const ints = values.map((v) => Math.round(v * power));
  return ints.every((k, i) => Number.isSafeInteger(k) && k / power === values[i]) ? { ints, scale } : null;
}

function exactAt(v: number, scale: number): boolean {
  const power = 10 ** scale;
  const k = Math.round(v * power);
  return Number.isSafeInteger(k) && k / power === v;
}

/** Primitive values interned, when some repeat; null otherwise (objects stay plain: a shared reference is not a copy). */
function interned(values: unknown[], state: EncodeState): { dict: Json[]; picks: number[] } | null {
  const dict: Json[] = [];
  const index = new Map<string, number>();
  const picks: number[] = [];
  for (const v of values) {
    if (v !== null && typeof v === 'object') return null;
    const json = encodeValue(v, '', state);
    const id = JSON.stringify(json);
    let k = index.get(id);
    if (k === undefined) {
      k = dict.push(json) - 1;
      index.set(id, k);
    }
    picks.push(k);
  }
  return dict.length < values.length ? { dict, picks } : null;
}

function encodeInts(ints: number[]): Ints {
  const candidates: Ints[] = [{ values: runsOf(ints) }];
  const deltas = ints.map((k, i) => k - (i === 0 ? 0 : ints[i - 1]!));
  if (deltas.every(Number.isSafeInteger)) candidates.push({ deltas: runsOf(deltas) });
  return shortest(candidates);
}

function runsOf(ints: number[]): Runs {
  const runs: Runs = [];
  for (let i = 0; i < ints.length;) {
    let j = i + 1;
    while (j < ints.length && ints[j] === ints[i]) j++;
    runs.push(j - i >= 2 ? [ints[i]!, j - i] : ints[i]!);
    i = j;
  }
  return runs;
}

function shortest<T>(candidates: T[]): T {
  let best: T = candidates[0]!;
  let bestLength = JSON.stringify(best).length;
  for (const c of candidates.slice(1)) {
    const length = JSON.stringify(c).length;
    if (length < bestLength) [best, bestLength] = [c, length];
  }
  return best;
}

// ── decoding ──────────────────────────────────────────────────────────────────────────────────────

function damaged(path: string, what: string): TraceError {
  return new TraceError(`Damaged compact trace: ${path} ${what}.`);
}

/** A table that declares more than what is left of the file's budget: refused before a row is built. */
function tooBig(path: string, declared: string, left: number): DecodeLimitError {
  return new DecodeLimitError(`Refused compact trace: ${path} declares ${declared}, more than the ${left.toLocaleString('en-US')} left of the limit for a file this size; that is not a trace Pipescope can show.`);
}

/** An encoded value as the plain JSON it stands for; throws TraceError (saying where) when it is not well formed. */
export function decodeCompactValue(value: unknown, path = 'trace', budget: Budget = { rows: MAX_DECODED_ROWS, cells: MAX_DECODED_CELLS }): unknown {
  if (value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) return value.map((v, i) => decodeCompactValue(v, `${path}[${i}]`, budget));
  if ('$table' in value) return decodeTable(value as Record<string, unknown>, path, budget);
  const out: Record<string, unknown> = {};
  for (const [key, v] of Object.entries(value)) {
    if (key.startsWith('$')) throw damaged(path, `has an unknown marker "${key}"`);
    setOwn(out, key, decodeCompactValue(v, `${path}.${key}`, budget));
  }
  return out;
}

function decodeTable(table: Record<string, unknown>, path: string, budget: Budget): Record<string, unknown>[] {
  const rows = table['$table'];
  if (!Number.isSafeInteger(rows) || (rows as number) < 0) throw damaged(path, 'has a table of no sensible length');
  if ((rows as number) > budget.rows) throw tooBig(path, `${(rows as number).toLocaleString('en-US')} records`, budget.rows);
  const n = rows as number;
  budget.rows -= n;
  const { keys, shapes, columns } = table;
  if (!Array.isArray(keys) || !keys.every((k) => typeof k === 'string' && !k.startsWith('$'))) throw damaged(path, 'has a table whose keys are not names');
  if (!Array.isArray(columns) || columns.length !== keys.length) throw damaged(path, 'has a table with a column missing');
  if (!Array.isArray(shapes) || shapes.length === 0 || !shapes.every((s) => Array.isArray(s) && s.every((k) => Number.isInteger(k) && k >= 0 && k < keys.length))) {
    throw damaged(path, 'has a table whose record shapes name no column');
  }
  const cells = n * shapes.reduce((widest: number, s) => Math.max(widest, (s as number[]).length), 0);
  if (cells > budget.cells) throw tooBig(path, `${cells.toLocaleString('en-US')} values`, budget.cells);
  budget.cells -= cells;
  const shapeOf = table['shapeOf'] === undefined ? null : decodeInts(table['shapeOf'], n, `${path}.shapeOf`);
  if (shapeOf?.some((s) => !Number.isInteger(s) || s < 0 || s >= shapes.length)) throw damaged(`${path}.shapeOf`, 'names a shape the table does not have');
  // How many rows have each key: each column must hold exactly that many values.
  const uses = new Array<number>(keys.length).fill(0);
  for (let r = 0; r < n; r++) for (const k of shapes[shapeOf?.[r] ?? 0] as number[]) uses[k]!++;
  const values = columns.map((c, k) => decodeColumn(c, uses[k]!, `${path}.${keys[k] as string}`, budget));
  const next = new Array<number>(keys.length).fill(0);
  const out: Record<string, unknown>[] = [];
  for (let r = 0; r < n; r++) {
    const row: Record<string, unknown> = {};
    for (const k of shapes[shapeOf?.[r] ?? 0] as number[]) setOwn(row, keys[k] as string, values[k]![next[k]!++]);
    out.push(row);
  }
  return out;
}

function decodeColumn(column: unknown, length: number, path: string, budget: Budget): unknown[] {
  if (typeof column !== 'object' || column === null) throw damaged(path, 'is not a column');
  const c = column as Record<string, unknown>;
  const written = (budget.columns ??= []);
  if ('same' in c) {
    const earlier = Number.isInteger(c['same']) ? written[c['same'] as number] : undefined;
    if (!earlier) throw damaged(path, 'names a column that was not written before it');
    if (earlier.length !== length) throw damaged(path, `does not hold ${length} values`);
    return earlier.slice();
  }
  if ('ints' in c) {
    const scale = c['scale'] ?? 0;
    if (!Number.isInteger(scale) || (scale as number) < 0 || (scale as number) > MAX_SCALE) throw damaged(path, 'has a bad scale');
    const power = 10 ** (scale as number);
    const values = decodeInts(c['ints'], length, path).map((k) => k / power);
    written.push(values);
    return values.slice();
  }
  if ('dict' in c) {
    const dict = c['dict'];
    if (!Array.isArray(dict) || !dict.every((v) => v === null || typeof v !== 'object')) throw damaged(path, 'has no dictionary of plain values');
    const values = decodeInts(c['picks'], length, `${path}.picks`).map((k) => {
      if (!Number.isInteger(k) || k < 0 || k >= dict.length) throw damaged(path, 'picks a value its dictionary does not have');
      return dict[k] as unknown;
    });
    written.push(values);
    return values.slice();
  }
  if ('plain' in c) {
    if (!Array.isArray(c['plain']) || c['plain'].length !== length) throw damaged(path, `does not hold ${length} values`);
    return c['plain'].map((v, i) => decodeCompactValue(v, `${path}[${i}]`, budget));
  }
  throw damaged(path, 'is a column of an unknown kind');
}

function decodeInts(ints: unknown, length: number, path: string): number[] {
  if (typeof ints !== 'object' || ints === null) throw damaged(path, 'is not a list of integers');
  const deltas = 'deltas' in ints;
  const runs = deltas ? (ints as { deltas: unknown }).deltas : (ints as { values?: unknown }).values;
  if (!Array.isArray(runs)) throw damaged(path, 'is not a list of integers');
  const out: number[] = [];
  let previous = 0;
  for (const item of runs) {
    const [k, count] = Array.isArray(item) ? item : [item, 1];
    if (!Number.isSafeInteger(k) || !Number.isSafeInteger(count) || (count as number) < 1 || out.length + (count as number) > length) {
      throw damaged(path, `does not hold ${length} integers`);
    }
    for (let i = 0; i < (count as number); i++) {
      previous = deltas ? previous + (k as number) : (k as number);
      out.push(previous);
    }
  }
  if (out.length !== length) throw damaged(path, `does not hold ${length} integers`);
  return out;
}
