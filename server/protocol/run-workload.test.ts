import { describe, expect, it } from 'vitest';
import { assertAllowed, namespaceFor } from './command-guard.ts';
import { chunks, makeValue, workloadFor } from './run-workload.ts';

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
