import { describe, expect, it } from 'vitest';
import { assertAllowed, namespaceFor } from './command-guard.ts';
import { chunks, computeNext, makeValue, workloadFor } from './run-workload.ts';

const NS = namespaceFor('m3x9k2ab-0a1b2c3d');

describe('makeValue', () => {
  it('has exactly the asked length', () => {
    for (const bytes of [0, 1, 9, 10, 11, 16, 1000, 1024 * 1024]) expect(makeValue(bytes).length).toBe(bytes);
  });

  it('repeats "pipescope-"', () => {
    expect(makeValue(25).toString('latin1')).toBe('pipescope-pipescope-pipes');
    expect(makeValue(0).toString('latin1')).toBe('');
  });
});

describe('workloadFor', () => {
  it('PING: no arguments, no keys, no setup', () => {
    const w = workloadFor('PING', NS, 0);
    expect(w.command).toBe('PING');
    expect(w.argsFor(0)).toEqual([]);
    expect(w.keyPattern).toBe('');
    expect(w.setup).toEqual([]);
    expect([...w.keys(1000)]).toEqual([]);
  });

  it('INCR: every command increments the one counter key', () => {
    const w = workloadFor('INCR', NS, 0);
    expect(w.argsFor(0)).toEqual(['pipescope:m3x9k2ab-0a1b2c3d:counter']);
    expect(w.argsFor(999)).toEqual(['pipescope:m3x9k2ab-0a1b2c3d:counter']);
    expect(w.keyPattern).toBe('pipescope:m3x9k2ab-0a1b2c3d:counter');
    expect([...w.keys(1000)]).toEqual(['pipescope:m3x9k2ab-0a1b2c3d:counter']);
  });

  it('SET: command i writes key:i with the value', () => {
    const w = workloadFor('SET', NS, 32);
    const [key, value] = w.argsFor(7);
    expect(key).toBe('pipescope:m3x9k2ab-0a1b2c3d:key:7');
    expect(value).toEqual(makeValue(32));
    expect(w.keyPattern).toBe('pipescope:m3x9k2ab-0a1b2c3d:key:{i}');
    expect(w.keyPattern.replace('{i}', '7')).toBe(key);
  });

  it('SET: keys(n) yields the n keys the commands wrote, in order', () => {
    const w = workloadFor('SET', NS, 16);
    const keys = [...w.keys(5)];
    expect(keys).toEqual([0, 1, 2, 3, 4].map((i) => `pipescope:m3x9k2ab-0a1b2c3d:key:${i}`));
    expect(keys).toEqual([0, 1, 2, 3, 4].map((i) => w.argsFor(i)[0]));
    expect([...w.keys(0)]).toEqual([]);
    expect(new Set(w.keys(10_000)).size).toBe(10_000);
  });

  it('GET: reads one key, which setup creates with the value', () => {
    const w = workloadFor('GET', NS, 100);
    expect(w.argsFor(3)).toEqual(['pipescope:m3x9k2ab-0a1b2c3d:value']);
    expect(w.keyPattern).toBe('pipescope:m3x9k2ab-0a1b2c3d:value');
    expect(w.setup).toEqual([['SET', 'pipescope:m3x9k2ab-0a1b2c3d:value', makeValue(100)]]);
    // Deleted afterwards even if no command was written: setup made it before t0.
    expect([...w.keys(0)]).toEqual(['pipescope:m3x9k2ab-0a1b2c3d:value']);
  });

  it.each(['PING', 'INCR', 'SET', 'GET'] as const)('%s: every command, setup and cleanup passes the command guard', (command) => {
    const w = workloadFor(command, NS, 8);
    for (const index of [0, 1, 999]) expect(() => assertAllowed(NS, command, w.argsFor(index).map(String))).not.toThrow();
    for (const [name, ...args] of w.setup) expect(() => assertAllowed(NS, name, args.map(String))).not.toThrow();
    const keys = [...w.keys(3)];
    if (keys.length) expect(() => assertAllowed(NS, 'UNLINK', keys)).not.toThrow();
  });
});

it('chunks cover 0..n in order, the last one holding the remainder', () => {
  expect([...chunks(2500, 1000)]).toEqual([[0, 1000], [1000, 2000], [2000, 2500]]);
  expect([...chunks(3, 10)]).toEqual([[0, 3]]);
  expect([...chunks(4, 1)]).toEqual([[0, 1], [1, 2], [2, 3], [3, 4]]);
});

describe('computeNext (GET-COMPUTE-SET)', () => {
  it('doubles and adds one, writing every digit as the Lua script does', () => {
    expect(computeNext(null)).toBe('1');
    expect(computeNext('0')).toBe('1');
    expect(computeNext('1')).toBe('3');
    let value = '0';
    for (let i = 0; i < 60; i++) value = computeNext(value);
    expect(value).toBe('1152921504606846976');
    expect(computeNext('inf')).toBe('inf');
  });
});

describe('workloadFor with a planted error', () => {
  it('runtime: one counter per operation, the failing one set up as a non-integer', () => {
    const w = workloadFor('INCR', 'pipescope:t-1:', 0, { operation: 2, kind: 'runtime' });
    expect(w.keyPattern).toBe('pipescope:t-1:counter:{i}');
    expect(w.argsFor(2)).toEqual(['pipescope:t-1:counter:2']);
    expect(w.setup).toEqual([['SET', 'pipescope:t-1:counter:2', 'not-an-integer']]);
    expect([...w.keys(2)]).toEqual(['pipescope:t-1:counter:0', 'pipescope:t-1:counter:1', 'pipescope:t-1:counter:2']);
  });

  it('queueing: that INCR goes without its key; nothing set up', () => {
    const w = workloadFor('INCR', 'pipescope:t-1:', 0, { operation: 1, kind: 'queueing' });
    expect([0, 1, 2].map((i) => w.argsFor(i))).toEqual([['pipescope:t-1:counter:0'], [], ['pipescope:t-1:counter:2']]);
    expect(w.setup).toEqual([]);
    expect(() => workloadFor('SET', 'pipescope:t-1:', 0, { operation: 1, kind: 'runtime' })).toThrow('An injected error needs INCR.');
  });
});
