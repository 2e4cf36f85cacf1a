// The compact encoding on its own: any JSON value round-trips (fields it does not know included), and a
// key it cannot hold is refused. Recorded traces and damaged files: server/support/compact-fixtures.test.ts.
import { describe, expect, it } from 'vitest';
import { decodeCompactValue, encodeCompactValue } from './compact-trace.ts';
import { TraceError } from './trace-builder.ts';
import { thrownMessage } from '../test-support/thrown-message.ts';

describe('the compact encoding', () => {
  it('keeps fields it does not know, optional keys, key order, ns decimals, negatives and mixed values', () => {
    const rows = Array.from({ length: 12 }, (_, i) => ({
      ...(i % 3 === 0 ? { later: `x${i}` } : {}),
      atUs: 1000.125 + i * 0.001,
      delta: -i * 7,
      ...(i % 4 === 1 ? { reply: null } : i % 4 === 2 ? { error: 'ERR no' } : { reply: i % 2 ? 'PONG' : i }),
      nested: { list: [i, 'a'], deep: Array.from({ length: 5 }, (_, k) => ({ k, big: 2 ** 52 + k })) },
      flag: i % 2 === 0,
    }));
    const value = { format: 'future', rows, keyed: { '2': 'b', '1': 'a', __proto__: 'own' } as unknown, huge: [1e300, 5e-324, 0.1, 0.2, 0.30000000000000004] };
    const encoded = encodeCompactValue(value);
    expect(JSON.stringify(decodeCompactValue(JSON.parse(JSON.stringify(encoded))))).toBe(JSON.stringify(value));
  });

  it('writes undefined, NaN and Infinity as JSON.stringify does', () => {
    const rows = Array.from({ length: 5 }, (_, i) => ({ a: i, gone: undefined, nan: i ? Number.NaN : Infinity }));
    const value = { rows, list: [undefined, 1], gone: undefined };
    expect(JSON.stringify(decodeCompactValue(encodeCompactValue(value)))).toBe(JSON.stringify(value));
  });

  it('refuses, loudly, a key it could not tell from its own markers', () => {
    const rows = Array.from({ length: 5 }, (_, i) => ({ i, ...(i === 3 ? { $table: 1 } : {}) }));
    expect(thrownMessage(() => encodeCompactValue({ rows }), TraceError)).toBe(
      'Cannot write a compact trace: the key "$table" at trace.rows[3] starts with "$", the compact format\'s own marker.',
    );
  });

  it('counts the records of all tables of one file against one budget', () => {
    const table = { $table: 3, keys: ['a'], shapes: [[0]], columns: [{ ints: { values: [[7, 3]] } }] };
    expect(decodeCompactValue({ one: table }, 'x', { rows: 5, cells: 100 })).toEqual({ one: [{ a: 7 }, { a: 7 }, { a: 7 }] });
    expect(thrownMessage(() => decodeCompactValue({ one: table, two: table }, 'x', { rows: 5, cells: 100 }), TraceError))
      .toBe('Refused compact trace: x.two declares 3 records, more than the 2 left of the limit for a file this size; that is not a trace Pipescope can show.');
    expect(thrownMessage(() => decodeCompactValue({ one: table, two: table }, 'x', { rows: 50, cells: 5 }), TraceError))
      .toBe('Refused compact trace: x.two declares 3 values, more than the 2 left of the limit for a file this size; that is not a trace Pipescope can show.');
  });

  it('writes a column that repeats an earlier one (writes[].atUs = commands[].sentUs) as a reference to it', () => {
    const times = Array.from({ length: 50 }, (_, i) => 1000 + i * 137 + (i % 7));
    const value = {
      commands: times.map((sentUs, index) => ({ index, sentUs, reply: 'PONG' })),
      writes: times.map((atUs) => ({ atUs, bytes: 14, head: 'PING' })),
      nested: [{ list: times.map((t) => ({ t })) }, { list: [] }, { list: [] }, { list: [] }],
    };
    const encoded = JSON.stringify(encodeCompactValue(value));
    expect(encoded.match(/"same":\d+/g)).toEqual(['"same":1', '"same":1']); // id 1: commands' sentUs, after index (0)
    expect(JSON.stringify(decodeCompactValue(JSON.parse(encoded)))).toBe(JSON.stringify(value));
    const bad = (same: number) => () => decodeCompactValue({ a: { $table: 4, keys: ['x'], shapes: [[0]], columns: [{ same }] } });
    expect(thrownMessage(bad(0), TraceError)).toBe('Damaged compact trace: trace.a.x names a column that was not written before it.');
  });
});
