import { describe, expect, it } from 'vitest';
import type { RunInfo } from '../../../trace/format/trace-format.ts';
import { commandText, replyText, wireDiffers, wireName } from './command-text.ts';

const run = (mode: RunInfo['mode'], command: RunInfo['command'] = 'INCR', heldConnection = false) => ({
  mode, command, operations: 10, valueBytes: command === 'INCR' ? 0 : 16, keyPattern: 'pipescope:r:key:{i}',
  probes: { monitor: false, strace: false, memory: false, kernelTcp: false, heldConnection },
});

describe('commandText', () => {
  it('names each wire position of a transaction', () => {
    expect(commandText(run('multi'), 0)).toBe('MULTI');
    expect(commandText(run('multi'), 1)).toBe('INCR pipescope:r:key:0');
    expect(commandText(run('multi'), 10)).toBe('INCR pipescope:r:key:9');
    expect(commandText(run('multi'), 11)).toBe('EXEC');
    expect([0, 5, 11].map((i) => wireName(run('multi'), i))).toEqual(['MULTI', 'INCR', 'EXEC']);
  });

  it('says what one EVAL, EVALSHA calls and MSET/MGET carry', () => {
    expect(commandText(run('eval'), 0)).toBe('EVAL <Lua: 10 × INCR>');
    expect(commandText(run('evalsha'), 3)).toBe('EVALSHA <sha1> pipescope:r:key:3');
    expect(commandText(run('multikey', 'SET'), 0)).toBe('MSET pipescope:r:key:0 … pipescope:r:key:9 (10 keys, 16 B values)');
    expect(commandText(run('multikey', 'GET'), 0)).toBe('MGET pipescope:r:key:0 … pipescope:r:key:9 (10 keys)');
  });

  it('splits a GET-COMPUTE-SET step into its GET and its SET, and names the held PING', () => {
    expect(commandText(run('sequential', 'GET-COMPUTE-SET'), 4)).toBe('GET pipescope:r:key:2');
    expect(commandText(run('sequential', 'GET-COMPUTE-SET'), 5)).toBe('SET pipescope:r:key:2 <GET’s value × 2 + 1>');
    expect(commandText(run('pipeline', 'INCR', true), 10)).toBe('PING');
  });

  it('reads a run without a mode as one plain command per position', () => {
    expect(commandText({ command: 'PING', keyPattern: '', valueBytes: 0 }, 3)).toBe('PING');
  });
});

describe('replyText', () => {
  it('shows a reply as recorded', () => {
    const at = { index: 0, sentUs: 1, repliedUs: 2 };
    expect(replyText({ ...at, reply: 'QUEUED' })).toBe('QUEUED');
    expect(replyText({ ...at, reply: 11 })).toBe('11');
    expect(replyText({ ...at, reply: null })).toBe('(nil)');
    expect(replyText({ ...at, error: 'ERR value is not an integer or out of range' })).toBe('ERR value is not an integer or out of range');
  });
});

describe('wireDiffers', () => {
  it('is true when the wire is not N × the command', () => {
    expect(['multi', 'eval', 'evalsha', 'multikey'].map((m) => wireDiffers(run(m as RunInfo['mode'])))).toEqual([true, true, true, true]);
    expect(wireDiffers(run('pipeline'))).toBe(false);
    expect(wireDiffers(run('sequential', 'GET-COMPUTE-SET'))).toBe(true);
    expect(wireDiffers(run('pipeline', 'INCR', true))).toBe(true);
  });
});
