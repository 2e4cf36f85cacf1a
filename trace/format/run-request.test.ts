import { describe, expect, it } from 'vitest';
import { MAX_COMMANDS, MAX_PAYLOAD_BYTES, MAX_VALUE_BYTES, MEMORY_AUTO_OPERATIONS, RunSpecSchema, commandTakesValue, memorySampled } from './run-request.ts';

const VALID = { command: 'SET', n: 100, valueBytes: 16, modes: ['sequential', 'pipeline'] };

/** The single issue a spec fails with, as "path: message". */
function issueOf(spec: Record<string, unknown>): string {
  const result = RunSpecSchema.safeParse(spec);
  if (result.success) throw new Error(`expected ${JSON.stringify(spec)} to be refused`);
  expect(result.error.issues).toHaveLength(1);
  const [issue] = result.error.issues;
  return `${issue!.path.join('.')}: ${issue!.message}`;
}

describe('RunSpecSchema accepts', () => {
  it('a full spec as given', () => {
    expect(RunSpecSchema.parse(VALID)).toMatchObject(VALID);
  });

  it('valueBytes defaults to 16', () => {
    expect(RunSpecSchema.parse({ command: 'PING', n: 1, modes: ['pipeline'] }).valueBytes).toBe(16);
  });

  it.each([1, MAX_COMMANDS])('n = %i', (n) => {
    expect(RunSpecSchema.safeParse({ ...VALID, command: 'PING', n }).success).toBe(true);
  });

  it.each([0, MAX_VALUE_BYTES])('valueBytes = %i', (valueBytes) => {
    expect(RunSpecSchema.safeParse({ ...VALID, n: 1, valueBytes }).success).toBe(true);
  });

  it('n × valueBytes of exactly 256 MiB for SET', () => {
    expect(RunSpecSchema.safeParse({ ...VALID, n: 256, valueBytes: MAX_VALUE_BYTES }).success).toBe(true);
    expect(256 * MAX_VALUE_BYTES).toBe(MAX_PAYLOAD_BYTES);
  });

  it.each(['PING', 'INCR'])('%s ignores the payload limit (it sends no value)', (command) => {
    expect(RunSpecSchema.safeParse({ ...VALID, command, n: MAX_COMMANDS, valueBytes: MAX_VALUE_BYTES }).success).toBe(true);
  });

  it('either mode alone', () => {
    expect(RunSpecSchema.safeParse({ ...VALID, modes: ['pipeline'] }).success).toBe(true);
    expect(RunSpecSchema.safeParse({ ...VALID, modes: ['sequential'] }).success).toBe(true);
  });
});

describe('RunSpecSchema refuses, with a message', () => {
  it.each([
    [0, 'n: n must be at least 1'],
    [-5, 'n: n must be at least 1'],
    [MAX_COMMANDS + 1, 'n: n must be at most 1,000,000'],
    [2.5, 'n: n must be a whole number'],
    ['100', 'n: n must be a number'],
    [null, 'n: n must be a number'],
    [Number.NaN, 'n: n must be a number'],
  ])('n = %s', (n, message) => {
    expect(issueOf({ ...VALID, command: 'PING', n })).toBe(message);
  });

  it('a missing n', () => {
    expect(issueOf({ command: 'PING', modes: ['pipeline'] })).toBe('n: n must be a number');
  });

  it.each([
    [-1, 'valueBytes: valueBytes must be at least 0'],
    [MAX_VALUE_BYTES + 1, 'valueBytes: valueBytes must be at most 1048576 (1 MiB)'],
    [0.5, 'valueBytes: valueBytes must be a whole number'],
    ['16', 'valueBytes: valueBytes must be a number'],
  ])('valueBytes = %s', (valueBytes, message) => {
    expect(issueOf({ ...VALID, n: 1, valueBytes })).toBe(message);
  });

  it.each(['SET', 'GET'])('%s with n × valueBytes over 256 MiB', (command) => {
    expect(issueOf({ ...VALID, command, n: 257, valueBytes: MAX_VALUE_BYTES })).toBe(
      'valueBytes: n × valueBytes must be at most 256 MiB per run',
    );
    expect(issueOf({ ...VALID, command, n: 1_000_000, valueBytes: 269 })).toBe(
      'valueBytes: n × valueBytes must be at most 256 MiB per run',
    );
  });

  it('an unknown command, listing the known ones', () => {
    expect(issueOf({ ...VALID, command: 'FLUSHALL' })).toBe('command: Invalid option: expected one of "PING"|"INCR"|"SET"|"GET"|"GET-COMPUTE-SET"');
    expect(issueOf({ ...VALID, command: 'ping' })).toBe('command: Invalid option: expected one of "PING"|"INCR"|"SET"|"GET"|"GET-COMPUTE-SET"');
  });

  it('no modes', () => {
    expect(issueOf({ ...VALID, modes: [] })).toBe('modes: choose at least one mode');
  });

  it('a mode twice', () => {
    expect(issueOf({ ...VALID, modes: ['pipeline', 'pipeline'] })).toBe('modes: each mode at most once');
  });

  it('an unknown mode', () => {
    expect(issueOf({ ...VALID, modes: ['burst'] })).toBe('modes.0: Invalid option: expected one of "sequential"|"pipeline"|"chunked"|"multi"|"eval"|"evalsha"|"multikey"|"auto"');
  });
});

describe('added round-trip time and jitter', () => {
  it('default to 0 (a direct connection)', () => {
    expect(RunSpecSchema.parse(VALID)).toMatchObject({ rttMs: 0, jitterMs: 0 });
  });

  it('accept fractions within their bounds', () => {
    expect(RunSpecSchema.parse({ ...VALID, rttMs: 0.5, jitterMs: 500 })).toMatchObject({ rttMs: 0.5, jitterMs: 500 });
    expect(RunSpecSchema.safeParse({ ...VALID, rttMs: 1000 }).success).toBe(true);
  });

  it.each([
    [{ rttMs: -1 }, 'rttMs: rttMs must be at least 0'],
    [{ rttMs: 1000.5 }, 'rttMs: rttMs must be at most 1000'],
    [{ rttMs: '5' }, 'rttMs: rttMs must be a number'],
    [{ jitterMs: -0.1 }, 'jitterMs: jitterMs must be at least 0'],
    [{ jitterMs: 501 }, 'jitterMs: jitterMs must be at most 500'],
  ])('refuse %o', (extra, message) => {
    expect(issueOf({ ...VALID, ...extra })).toBe(message);
  });
});

describe('commandTakesValue', () => {
  it('is true only for SET and GET', () => {
    expect((['PING', 'INCR', 'SET', 'GET'] as const).map(commandTakesValue)).toEqual([false, false, true, true]);
  });
});

describe('RunSpecSchema: chunked runs and memory sampling', () => {
  it('a chunked run names its chunk size', () => {
    expect(RunSpecSchema.parse({ ...VALID, modes: ['pipeline', 'chunked'], chunk: 1000 })).toMatchObject({ chunk: 1000 });
    expect(issueOf({ ...VALID, modes: ['chunked'] })).toBe('chunk: a chunked run needs a chunk size (commands per pipeline)');
  });

  it.each([
    [0, 'chunk: chunk must be at least 1'],
    [1.5, 'chunk: chunk must be a whole number'],
    [MAX_COMMANDS + 1, 'chunk: chunk must be at most 1,000,000'],
  ])('chunk %s is refused', (chunk, message) => {
    expect(issueOf({ ...VALID, modes: ['chunked'], chunk })).toBe(message);
  });

  it('memory sampling: as asked, or by default only for runs that can move memory', () => {
    expect(RunSpecSchema.parse(VALID).memory).toBeUndefined();
    expect(RunSpecSchema.parse({ ...VALID, memory: false }).memory).toBe(false);
    expect(issueOf({ ...VALID, memory: 'yes' })).toBe('memory: memory must be true or false');
    const spec = (fields: object) => RunSpecSchema.parse({ ...VALID, ...fields });
    expect(memorySampled(spec({ command: 'INCR', n: 10, modes: ['sequential', 'pipeline'] }))).toBe(false);
    expect(memorySampled(spec({ command: 'INCR', n: 10, modes: ['sequential'], memory: true }))).toBe(true);
    expect(memorySampled(spec({ command: 'INCR', n: MEMORY_AUTO_OPERATIONS, modes: ['pipeline'] }))).toBe(true);
    expect(memorySampled(spec({ command: 'INCR', n: MEMORY_AUTO_OPERATIONS, modes: ['pipeline'], memory: false }))).toBe(false);
    expect(memorySampled(spec({ command: 'SET', n: 1024, valueBytes: 1024, modes: ['pipeline'] }))).toBe(true);
    expect(memorySampled(spec({ command: 'SET', n: 1023, valueBytes: 1024, modes: ['pipeline'] }))).toBe(false);
    expect(memorySampled(spec({ command: 'PING', n: 1024, valueBytes: 1024, modes: ['pipeline'] }))).toBe(false); // PING carries no value
    expect(memorySampled(spec({ command: 'PING', n: 100, modes: ['pipeline', 'chunked'], chunk: 10 }))).toBe(true);
  });
});

describe('one-tick limits', () => {
  const base = { command: 'SET', valueBytes: 8 } as const;
  const issue = (spec: Record<string, unknown>) => {
    const parsed = RunSpecSchema.safeParse({ ...base, ...spec });
    return parsed.success ? 'ok' : parsed.error.issues[0]!.message;
  };

  it('auto takes at most 100,000 commands, on any engine', () => {
    expect(issue({ n: 100_000, modes: ['auto'] })).toBe('ok');
    expect(issue({ n: 100_001, modes: ['auto'] })).toMatch(/^auto-pipelining issues every command in one tick.*at most 100,000 commands/);
  });

  it('node-redis pipelines take at most 100,000 commands each; ioredis and chunks below it are not limited', () => {
    expect(issue({ n: 200_000, modes: ['pipeline'], engine: 'ioredis' })).toBe('ok');
    expect(issue({ n: 200_000, modes: ['pipeline'], engine: 'node-redis' })).toMatch(/^node-redis issues a pipeline in one tick/);
    expect(issue({ n: 200_000, modes: ['chunked'], chunk: 10_000, engine: 'node-redis' })).toBe('ok');
    expect(issue({ n: 200_000, modes: ['chunked'], chunk: 150_000, engine: 'node-redis' })).toMatch(/^node-redis issues a pipeline in one tick/);
  });
});

describe('the cluster parameters', () => {
  it('default to keys spread and split parallel; serial needs the raw engine\'s pipeline', () => {
    expect(RunSpecSchema.parse(VALID)).toMatchObject({ clusterKeys: 'spread', clusterSplit: 'parallel' });
    expect(RunSpecSchema.parse({ ...VALID, clusterKeys: 'hashtag', engine: 'raw', clusterSplit: 'serial' })).toMatchObject({ clusterKeys: 'hashtag', clusterSplit: 'serial' });
    const refused = (fields: object) => RunSpecSchema.safeParse({ ...VALID, ...fields }).error?.issues.map((issue) => issue.message);
    expect(refused({ clusterKeys: 'one' })).toEqual(['clusterKeys must be spread or hashtag']);
    expect(refused({ clusterSplit: 'both' })).toEqual(['clusterSplit must be parallel or serial']);
    expect(refused({ clusterSplit: 'serial' })).toEqual([expect.stringMatching(/^clusterSplit serial is how the raw engine writes a pipeline .* it needs the raw engine and the pipeline mode$/)]);
    expect(refused({ clusterSplit: 'serial', engine: 'raw', modes: ['sequential'] })).toHaveLength(1);
  });
});
