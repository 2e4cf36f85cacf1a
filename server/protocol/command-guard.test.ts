import { describe, expect, it } from 'vitest';
import { RUN_NAMESPACE_PREFIX, RefusedCommandError, assertAllowed, hashTaggedNamespaceFor, namespaceFor, namespaceOfKey, runIdOfKey } from './command-guard.ts';
import { BATCH_SCRIPTS, SINGLE_SCRIPTS, scriptSha } from './lua-scripts.ts';

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

  it.each(['FLUSHALL', 'FLUSHDB', 'KEYS', 'CONFIG', 'DEBUG', 'SHUTDOWN', 'DEL', 'SCAN', 'CLIENT', 'FUNCTION', 'FCALL', 'DISCARD', 'WATCH'])('refuses %s', (name) => {
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

describe('assertAllowed: the v3 modes', () => {
  const incrScript = BATCH_SCRIPTS.INCR;
  const incrSha = scriptSha(SINGLE_SCRIPTS.INCR!);

  it.each([
    ['MULTI', []],
    ['EXEC', []],
    ['EVAL', [incrScript, '2', `${NS}counter:0`, `${NS}counter:1`, '2']],
    ['EVAL', [BATCH_SCRIPTS.PING, '0', '10']],
    ['EVALSHA', [incrSha, '1', `${NS}counter:0`]],
    ['evalsha', [incrSha.toUpperCase(), '1', `${NS}counter:0`]],
    ['EVALSHA', [incrSha]], // the planted queueing error: no numkeys, Redis refuses it unrun
    ['SCRIPT', ['LOAD', SINGLE_SCRIPTS.SET!]],
    ['MSET', [`${NS}key:0`, 'a', `${NS}key:1`, 'b']],
    ['MGET', [`${NS}value`, `${NS}value`]],
    ['INCR', []], // the planted queueing error: INCR without its key
    ['TYPE', [`${NS}counter:1`]],
  ] as [string, string[]][])('allows %s %j', (name, args) => {
    expect(() => assertAllowed(NS, name, args)).not.toThrow();
  });

  it('refuses a script that is not one of Pipescope\'s own, by text or by SHA1', () => {
    expect(refusal(NS, 'EVAL', ["return redis.call('FLUSHALL')", '0'])).toBe("Refused: EVAL runs only Pipescope's own scripts.");
    expect(refusal(NS, 'EVAL', [`${incrScript} `, '1', `${NS}counter`, '1'])).toBe("Refused: EVAL runs only Pipescope's own scripts.");
    expect(refusal(NS, 'EVALSHA', [scriptSha("return redis.call('FLUSHALL')"), '0'])).toBe("Refused: EVALSHA runs only Pipescope's own scripts.");
    expect(refusal(NS, 'EVALSHA', [])).toBe("Refused: EVALSHA runs only Pipescope's own scripts.");
  });

  it('refuses an own script given a key outside the namespace, or a key count that hides one', () => {
    expect(refusal(NS, 'EVAL', [incrScript, '2', `${NS}counter:0`, 'user:1', '2'])).toBe(
      'Refused: EVAL names key "user:1" outside the run namespace pipescope:m3x9k2ab-0a1b2c3d:*.',
    );
    expect(refusal(NS, 'EVALSHA', [incrSha, '1', 'user:1'])).toMatch(/^Refused: EVALSHA names key "user:1"/);
    expect(refusal(NS, 'EVALSHA', [incrSha, '2', `${NS}counter:0`])).toBe('Refused: EVALSHA with a bad key count "2".');
    expect(refusal(NS, 'EVAL', [incrScript, '-1'])).toBe('Refused: EVAL with a bad key count "-1".');
    expect(refusal(NS, 'EVAL', [incrScript, 'x', `${NS}counter`])).toBe('Refused: EVAL with a bad key count "x".');
  });

  it('uses SCRIPT only to LOAD its own scripts: never FLUSH, KILL or anything else', () => {
    const only = "Refused: SCRIPT is only used to LOAD one of Pipescope's own scripts.";
    expect(refusal(NS, 'SCRIPT', ['FLUSH'])).toBe(only);
    expect(refusal(NS, 'SCRIPT', ['KILL'])).toBe(only);
    expect(refusal(NS, 'SCRIPT', ['EXISTS', scriptSha(incrScript)])).toBe(only);
    expect(refusal(NS, 'SCRIPT', ['LOAD', "return redis.call('FLUSHALL')"])).toBe(only);
    expect(refusal(NS, 'SCRIPT', ['LOAD', SINGLE_SCRIPTS.SET!, 'extra'])).toBe(only);
  });

  it('checks every key of MSET and MGET, and MSET\'s pairs', () => {
    expect(refusal(NS, 'MSET', [`${NS}key:0`, 'a', 'user:1', 'b'])).toMatch(/^Refused: MSET names key "user:1"/);
    expect(refusal(NS, 'MSET', [`${NS}key:0`, 'a', `${NS}key:1`])).toBe('Refused: MSET needs a value for each key.');
    expect(refusal(NS, 'MSET', [])).toBe('Refused: MSET without a key.');
    expect(refusal(NS, 'MGET', [`${NS}value`, 'user:1'])).toMatch(/^Refused: MGET names key "user:1"/);
    expect(refusal(NS, 'MGET', [])).toBe('Refused: MGET without a key.');
  });

  it('MULTI and EXEC take no arguments; only INCR may go without its key', () => {
    expect(refusal(NS, 'MULTI', [`${NS}key:0`])).toBe('Refused: MULTI takes no arguments.');
    expect(refusal(NS, 'EXEC', ['x'])).toBe('Refused: EXEC takes no arguments.');
    expect(refusal(NS, 'SET', [])).toBe('Refused: SET without a key.');
    expect(refusal(NS, 'INCR', ['user:1'])).toMatch(/^Refused: INCR names key "user:1"/);
  });
});

describe('a run\'s hash-tagged namespace (keys under one hash tag on a cluster)', () => {
  const ID = 'lx0guard-0000000f';
  it('is pipescope:{<run id>}:, its keys the run\'s own, found again by the janitor', () => {
    const ns = hashTaggedNamespaceFor(ID);
    expect(ns).toBe(`pipescope:{${ID}}:`);
    expect(() => assertAllowed(ns, 'SET', [`${ns}key:3`, 'v'])).not.toThrow();
    expect(() => assertAllowed(ns, 'SET', [`${namespaceFor(ID)}key:3`, 'v'])).toThrow(RefusedCommandError);
    for (const key of [`${ns}key:3`, `${ns}warmup:key:0`, `${namespaceFor(ID)}counter`]) expect(runIdOfKey(key)).toBe(ID);
    expect(namespaceOfKey(`${ns}key:3`)).toBe(ns);
    expect(namespaceOfKey(`${namespaceFor(ID)}key:3`)).toBe(namespaceFor(ID));
    // Braces half open, or around something else, are no run's.
    for (const key of [`pipescope:{${ID}:key:3`, `pipescope:${ID}}:key:3`, `pipescope:{x}:key:3`]) {
      expect(runIdOfKey(key)).toBeNull();
      expect(namespaceOfKey(key)).toBeNull();
    }
    expect(() => hashTaggedNamespaceFor('bad id')).toThrow(RefusedCommandError);
  });
});
