// A trace's JSON (exactly serializeTrace's text) as a stream of small string parts, so that saving a
// run of a million commands to the history can pause between parts and never hold the page for the
// whole JSON.stringify at once. The document and its direct children are walked key by key; a long
// array is cut into slices of ARRAY_SLICE elements, each stringified whole; everything else is one
// JSON.stringify. Joined, the parts are byte for byte JSON.stringify(doc) (unit-tested), so the
// history reads a saved run back with the same parser as a file.

/** Elements stringified per part: small enough that one part takes well under a millisecond. */
export const ARRAY_SLICE = 2000;

/** Objects walked key by key down to this depth (0 = the document); deeper values are stringified whole. */
const WALK_DEPTH = 2;

export function* jsonParts(value: unknown, depth = 0): Generator<string> {
  if (Array.isArray(value) && value.length > ARRAY_SLICE) {
    yield '[';
    for (let i = 0; i < value.length; i += ARRAY_SLICE) {
      // JSON.stringify writes an array's undefined (or function) elements as null.
      const slice = value.slice(i, i + ARRAY_SLICE).map((v: unknown) => JSON.stringify(v) ?? 'null');
      yield (i > 0 ? ',' : '') + slice.join(',');
    }
    yield ']';
    return;
  }
  if (depth < WALK_DEPTH && isPlainObject(value)) {
    yield '{';
    let first = true;
    for (const [key, v] of Object.entries(value)) {
      if (v === undefined || typeof v === 'function' || typeof v === 'symbol') continue; // omitted, as JSON.stringify does
      yield `${first ? '' : ','}${JSON.stringify(key)}:`;
      first = false;
      yield* jsonParts(v, depth + 1);
    }
    yield '}';
    return;
  }
  yield JSON.stringify(value) ?? 'null';
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const proto: unknown = Object.getPrototypeOf(value);
  return (proto === Object.prototype || proto === null) && typeof (value as { toJSON?: unknown }).toJSON !== 'function';
}
