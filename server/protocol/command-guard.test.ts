import { describe, expect, it } from 'vitest';
import { RUN_NAMESPACE_PREFIX, RefusedCommandError, assertAllowed, namespaceFor } from './command-guard.ts';

const NS = namespaceFor('m3x9k2ab-0a1b2c3d');

function refusal(namespace: string, name: string, args: (string | number)[]): string {
  try {
    assertAllowed(namespace, name, args);
  } catch (error) {
    expect(error).toBeInstanceOf(RefusedCommandError);
    return (error as Error).message;
  }
  throw new Error(`expected ${name} to be refused`);
}

describe('namespaceFor', () => {
  it('puts a run id under the pipescope: prefix', () => {
    expect(NS).toBe('pipescope:m3x9k2ab-0a1b2c3d:');
    expect(NS.startsWith(RUN_NAMESPACE_PREFIX)).toBe(true);
  });

  it.each(['abcd', 'a'.repeat(64), '0123-4567'])('accepts %s', (id) => {
    expect(namespaceFor(id)).toBe(`pipescope:${id}:`);
  });

  it.each([
    ['too short', 'abc'],
    ['too long', 'a'.repeat(65)],
    ['empty', ''],
    ['upper case', 'ABCD1234'],
    ['a colon', 'abcd:efgh'],
    ['a glob', 'abcd*'],
    ['a space', 'abcd efgh'],
    ['a newline', 'abcd\n1234'],
  ])('refuses an id with %s', (_why, id) => {
    expect(() => namespaceFor(id)).toThrow(RefusedCommandError);
    expect(() => namespaceFor(id)).toThrow(`Invalid run id "${id}"`);
  });
});

describe('assertAllowed: the allow-list', () => {
  it.each([
    ['PING', []],
    ['ping', []],
    ['INCR', [`${NS}counter`]],
    ['SET', [`${NS}key:0`, 'value']],
    ['GET', [`${NS}value`]],
    ['UNLINK', [`${NS}key:0`, `${NS}key:1`]],
    ['EXISTS', [`${NS}key:0`]],
    ['INFO', ['stats']],
    ['INFO', ['server']],
    ['INFO', ['all']],
    ['INFO', []],
  ] as [string, string[]][])('allows %s %j', (name, args) => {
    expect(() => assertAllowed(NS, name, args)).not.toThrow();
  });

  it.each(['FLUSHALL', 'FLUSHDB', 'KEYS', 'CONFIG', 'DEBUG', 'SHUTDOWN', 'EVAL', 'DEL', 'SCAN', 'MULTI', 'CLIENT'])('refuses %s', (name) => {
    expect(refusal(NS, name, [`${NS}key:0`])).toBe(`Refused: ${name} is not a command Pipescope runs.`);
  });

  it('names the refused command in upper case', () => {
    expect(refusal(NS, 'flushall', [])).toBe('Refused: FLUSHALL is not a command Pipescope runs.');
  });

  it('reads INFO only for a few sections', () => {
    expect(refusal(NS, 'INFO', ['keyspace'])).toBe('Refused: INFO is only read for server, stats, memory, clients and all.');
    expect(refusal(NS, 'INFO', ['stats', 'commandstats'])).toBe('Refused: INFO is only read for server, stats, memory, clients and all.');
  });
});

describe('assertAllowed: the run namespace', () => {
  it('refuses a key outside the namespace', () => {
    expect(refusal(NS, 'GET', ['user:1'])).toBe(
      'Refused: GET names key "user:1" outside the run namespace pipescope:m3x9k2ab-0a1b2c3d:*.',
    );
  });

  it("refuses another run's key (the prefix trick)", () => {
    expect(refusal(NS, 'SET', ['pipescope:other:key:0', 'v'])).toBe(
      'Refused: SET names key "pipescope:other:key:0" outside the run namespace pipescope:m3x9k2ab-0a1b2c3d:*.',
    );
    // The id followed by more characters is a different namespace, not a sub-key of this one.
    expect(refusal(NS, 'GET', ['pipescope:m3x9k2ab-0a1b2c3dX:value'])).toMatch(/^Refused: GET names key/);
    expect(refusal(NS, 'GET', ['pipescope:m3x9k2ab-0a1b2c3d'])).toMatch(/^Refused: GET names key/);
  });

  it('checks every key of a multi-key command', () => {
    expect(refusal(NS, 'UNLINK', [`${NS}key:0`, 'important', `${NS}key:1`])).toBe(
      'Refused: UNLINK names key "important" outside the run namespace pipescope:m3x9k2ab-0a1b2c3d:*.',
    );
  });

  it('refuses a key that is not a string', () => {
    expect(refusal(NS, 'GET', [42])).toBe('Refused: GET names key "42" outside the run namespace pipescope:m3x9k2ab-0a1b2c3d:*.');
  });

  it('refuses a keyed command without a key', () => {
    expect(refusal(NS, 'GET', [])).toBe('Refused: GET without a key.');
    expect(refusal(NS, 'UNLINK', [])).toBe('Refused: UNLINK without a key.');
  });

  it('does not treat a SET value as a key', () => {
    expect(() => assertAllowed(NS, 'SET', [`${NS}key:0`, 'not-a-key:anything'])).not.toThrow();
  });

  it('refuses a namespace that is not a run namespace', () => {
    expect(refusal('app:', 'GET', ['app:x'])).toBe('Refused: "app:" is not a run namespace.');
    expect(refusal('', 'PING', [])).toBe('Refused: "" is not a run namespace.');
  });
});
