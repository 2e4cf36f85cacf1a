import type { Redis } from 'ioredis';
import { describe, expect, it } from 'vitest';
import { RefusedCommandError } from '../protocol/command-guard.ts';
import { parseInfo } from '../redis/info-fields.ts';
import { serverDelta, snapshotServer, type ServerSnapshot } from './server-counters.ts';

// What `INFO all` returns from Redis 7.2 (abridged), CRLF line ends included.
const INFO_ALL = [
  '# Server',
  'redis_version:7.2.4',
  'executable:/usr/bin/redis-server',
  '',
  '# Stats',
  'total_connections_received:4',
  'total_commands_processed:1207',
  'instantaneous_ops_per_sec:3',
  'instantaneous_input_kbps:0.04',
  'rejected_connections:0',
  'keyspace_hits:100',
  'total_reads_processed:1211',
  'total_writes_processed:1206',
  'io_threaded_reads_processed:0',
  '',
  '# Commandstats',
  'cmdstat_ping:calls=1000,usec=812,usec_per_call=0.81,rejected_calls=0,failed_calls=0',
  'cmdstat_info:calls=6,usec=1450,usec_per_call=241.67,rejected_calls=0,failed_calls=0',
  'cmdstat_incr:calls=200,usec=95,usec_per_call=0.47,rejected_calls=0,failed_calls=1',
  '',
  '# Errorstats',
  'errorstat_ERR:count=1',
  '',
  '# Keyspace',
  'db0:keys=1,expires=0,avg_ttl=0',
  '',
].join('\r\n');

describe('parseInfo', () => {
  const fields = parseInfo(INFO_ALL);

  it('reads every field of a realistic INFO reply', () => {
    expect(fields.get('total_reads_processed')).toBe('1211');
    expect(fields.get('total_writes_processed')).toBe('1206');
    expect(fields.get('total_commands_processed')).toBe('1207');
    expect(fields.get('instantaneous_input_kbps')).toBe('0.04');
    expect(fields.get('redis_version')).toBe('7.2.4');
    expect(fields.get('cmdstat_ping')).toBe('calls=1000,usec=812,usec_per_call=0.81,rejected_calls=0,failed_calls=0');
    expect(fields.size).toBe(16);
  });

  it('skips section headers and blank lines, and leaves no CR in values', () => {
    expect([...fields.keys()].some((key) => key.startsWith('#') || key === '')).toBe(false);
    expect([...fields.values()].some((value) => value.includes('\r'))).toBe(false);
  });

  it('splits at the first colon only', () => {
    expect(parseInfo('executable:/usr/bin/redis-server\r\nlistener0:name=tcp,bind=::1,port=6379\r\n')).toEqual(
      new Map([['executable', '/usr/bin/redis-server'], ['listener0', 'name=tcp,bind=::1,port=6379']]),
    );
  });

  it('ignores lines without a field name', () => {
    expect(parseInfo(':nothing\r\nno colon here\r\n').size).toBe(0);
  });
});

describe('serverDelta', () => {
  const snapshot = (reads: number, writes: number, commands: number, usec: Record<string, number> = {}): ServerSnapshot => ({
    reads, writes, commands, commandUsec: new Map(Object.entries(usec)),
  });
  const before = snapshot(1000, 900, 5000, { ping: 800, incr: 50 });

  it('subtracts the probe’s own INFO read and write from the raw deltas', () => {
    const after = snapshot(1000 + 101, 900 + 101, 5000 + 101, { ping: 800, incr: 50 });
    expect(serverDelta(before, after, 100, 'PING')).toEqual({ reads: 100, writes: 100, execUs: 0, exclusive: true });
  });

  it('a pipelined run: few reads and writes, many commands', () => {
    const after = snapshot(1000 + 4, 900 + 3, 5000 + 10_001, { ping: 800 + 1234, incr: 50 });
    expect(serverDelta(before, after, 10_000, 'PING')).toEqual({ reads: 3, writes: 2, execUs: 1234, exclusive: true });
  });

  it('execUs is the usec delta of the run’s own command only, matched case-insensitively', () => {
    const after = snapshot(1010, 910, 5010, { ping: 900, incr: 75 });
    expect(serverDelta(before, after, 9, 'INCR').execUs).toBe(25);
    expect(serverDelta(before, after, 9, 'incr').execUs).toBe(25);
    expect(serverDelta(before, after, 9, 'PING').execUs).toBe(100);
  });

  it('execUs counts from 0 for a command Redis had not run before', () => {
    const after = snapshot(1010, 910, 5010, { ping: 800, incr: 50, set: 42 });
    expect(serverDelta(before, after, 9, 'SET').execUs).toBe(42);
    expect(serverDelta(before, after, 9, 'GET').execUs).toBe(0);
  });

  it('is not exclusive when Redis processed commands that were not the run’s', () => {
    expect(serverDelta(before, snapshot(1110, 1010, 5110), 100, 'PING').exclusive).toBe(false);
  });

  it('is not exclusive when fewer commands than the run’s were counted', () => {
    expect(serverDelta(before, snapshot(1050, 950, 5050), 100, 'PING').exclusive).toBe(false);
  });

  it('an empty stretch (two INFOs back to back) gives zero and exclusive for 0 commands', () => {
    expect(serverDelta(before, snapshot(1001, 901, 5001, { ping: 800, incr: 50 }), 0, 'PING')).toEqual({ reads: 0, writes: 0, execUs: 0, exclusive: true });
  });

  it('never goes negative (e.g. after CONFIG RESETSTAT)', () => {
    expect(serverDelta(before, snapshot(3, 2, 4, { ping: 1 }), 1, 'PING')).toEqual({ reads: 0, writes: 0, execUs: 0, exclusive: false });
  });
});

describe('snapshotServer', () => {
  const control = (text: string) => ({ info: async () => text }) as unknown as Redis;

  it('reads the three totals and the per-command usec from one INFO all', async () => {
    const snapshot = await snapshotServer(control(INFO_ALL), 'pipescope:abcd:');
    expect(snapshot).toEqual({
      reads: 1211,
      writes: 1206,
      commands: 1207,
      commandUsec: new Map([['ping', 812], ['info', 1450], ['incr', 95]]),
    });
  });

  it('does not take usec_per_call for usec', async () => {
    const text = INFO_ALL.replace('cmdstat_ping:calls=1000,usec=812,', 'cmdstat_ping:calls=1000,usec_per_call=0.81,usec=812,');
    expect((await snapshotServer(control(text), 'pipescope:abcd:')).commandUsec.get('ping')).toBe(812);
  });

  it('names a missing field', async () => {
    const old = INFO_ALL.replace(/total_reads_processed:\d+\r\n/, '');
    await expect(snapshotServer(control(old), 'pipescope:abcd:')).rejects.toThrow(
      'INFO stats has no total_reads_processed (this Redis is too old or not Redis)',
    );
  });

  it('refuses a non-numeric field', async () => {
    const odd = INFO_ALL.replace('total_writes_processed:1206', 'total_writes_processed:lots');
    await expect(snapshotServer(control(odd), 'pipescope:abcd:')).rejects.toThrow('INFO stats has no total_writes_processed');
  });

  it('goes through the command guard', async () => {
    await expect(snapshotServer(control(INFO_ALL), 'other:')).rejects.toBeInstanceOf(RefusedCommandError);
  });
});
