import type { Redis } from 'ioredis';
import { describe, expect, it } from 'vitest';
import { RefusedCommandError } from './command-guard.ts';
import { parseInfo, serverDelta, snapshotServer, type ServerSnapshot } from './server-counters.ts';

// What `INFO stats` returns from Redis 7.2 (abridged), CRLF line ends included.
const INFO_STATS = [
  '# Stats',
  'total_connections_received:4',
  'total_commands_processed:1207',
  'instantaneous_ops_per_sec:3',
  'total_net_input_bytes:33862',
  'total_net_output_bytes:12504',
  'instantaneous_input_kbps:0.04',
  'rejected_connections:0',
  'expired_keys:0',
  'evicted_keys:0',
  'keyspace_hits:100',
  'keyspace_misses:0',
  'pubsub_channels:0',
  'latest_fork_usec:0',
  'total_reads_processed:1211',
  'total_writes_processed:1206',
  'io_threaded_reads_processed:0',
  'io_threaded_writes_processed:0',
  '',
].join('\r\n');

describe('parseInfo', () => {
  const fields = parseInfo(INFO_STATS);

  it('reads every field of a realistic INFO stats reply', () => {
    expect(fields.get('total_reads_processed')).toBe('1211');
    expect(fields.get('total_writes_processed')).toBe('1206');
    expect(fields.get('total_commands_processed')).toBe('1207');
    expect(fields.get('instantaneous_input_kbps')).toBe('0.04');
    expect(fields.size).toBe(17);
  });

  it('skips the section header and blank lines, and leaves no CR in values', () => {
    expect([...fields.keys()].some((key) => key.startsWith('#') || key === '')).toBe(false);
    expect([...fields.values()].some((value) => value.includes('\r'))).toBe(false);
  });

  it('splits at the first colon only', () => {
    expect(parseInfo('executable:/usr/bin/redis-server\r\nlistener0:name=tcp,bind=::1,port=6379\r\n')).toEqual(
      new Map([['executable', '/usr/bin/redis-server'], ['listener0', 'name=tcp,bind=::1,port=6379']]),
    );
  });

  it('reads several sections', () => {
    const text = '# Server\r\nredis_version:7.2.4\r\n\r\n# Clients\r\nconnected_clients:2\r\n';
    expect(parseInfo(text)).toEqual(new Map([['redis_version', '7.2.4'], ['connected_clients', '2']]));
  });

  it('ignores lines without a field name', () => {
    expect(parseInfo(':nothing\r\nno colon here\r\n').size).toBe(0);
  });
});

describe('serverDelta', () => {
  const before: ServerSnapshot = { reads: 1000, writes: 900, commands: 5000 };

  it('subtracts the probe’s own INFO read and write from the raw deltas', () => {
    const after = { reads: 1000 + 101, writes: 900 + 101, commands: 5000 + 101 };
    expect(serverDelta(before, after, 100)).toEqual({ reads: 100, writes: 100, exclusive: true });
  });

  it('a pipelined run: few reads and writes, many commands', () => {
    const after = { reads: 1000 + 4, writes: 900 + 3, commands: 5000 + 10_001 };
    expect(serverDelta(before, after, 10_000)).toEqual({ reads: 3, writes: 2, exclusive: true });
  });

  it('is not exclusive when Redis processed commands that were not the run’s', () => {
    const after = { reads: 1000 + 110, writes: 900 + 110, commands: 5000 + 110 };
    expect(serverDelta(before, after, 100).exclusive).toBe(false);
  });

  it('is not exclusive when fewer commands than the run’s were counted', () => {
    expect(serverDelta(before, { reads: 1050, writes: 950, commands: 5050 }, 100).exclusive).toBe(false);
  });

  it('an empty stretch (two INFOs back to back) gives zero and exclusive for 0 commands', () => {
    expect(serverDelta(before, { reads: 1001, writes: 901, commands: 5001 }, 0)).toEqual({ reads: 0, writes: 0, exclusive: true });
  });

  it('never goes negative (e.g. after CONFIG RESETSTAT)', () => {
    expect(serverDelta(before, { reads: 3, writes: 2, commands: 4 }, 1)).toEqual({ reads: 0, writes: 0, exclusive: false });
  });
});

describe('snapshotServer', () => {
  const control = (text: string) => ({ info: async () => text }) as unknown as Redis;

  it('reads the three totals from INFO stats', async () => {
    await expect(snapshotServer(control(INFO_STATS), 'pipescope:abcd:')).resolves.toEqual({ reads: 1211, writes: 1206, commands: 1207 });
  });

  it('names a missing field', async () => {
    const old = INFO_STATS.replace(/total_reads_processed:\d+\r\n/, '');
    await expect(snapshotServer(control(old), 'pipescope:abcd:')).rejects.toThrow(
      'INFO stats has no total_reads_processed (this Redis is too old or not Redis)',
    );
  });

  it('refuses a non-numeric field', async () => {
    const odd = INFO_STATS.replace('total_writes_processed:1206', 'total_writes_processed:lots');
    await expect(snapshotServer(control(odd), 'pipescope:abcd:')).rejects.toThrow('INFO stats has no total_writes_processed');
  });

  it('goes through the command guard', async () => {
    await expect(snapshotServer(control(INFO_STATS), 'other:')).rejects.toBeInstanceOf(RefusedCommandError);
  });
});
