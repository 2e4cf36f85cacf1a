// Real clients through the observing port, against a real private redis-server with a password:
// redis-cli one command at a time and --pipe, redis-benchmark -P 16 -c 1, redis-py's pipeline() with
// and without its transaction and one command at a time, redis-rb's pipelined, ioredis. For each, the
// commands recorded equal what Redis counted (INFO commandstats delta), every reply is paired with its
// command, the round trips match the client's pattern, and the password appears nowhere.
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { roundTripsWaited } from '../../trace/derive/round-trips.ts';
import type { TraceDocument } from '../../trace/format/trace-format.ts';
import { verifyTrace } from '../../trace/format/trace-io.ts';
import { startPrivateRedis, type PrivateRedis } from '../redis/private-redis-server.ts';
import { targetFromUrl } from '../redis/redis-target.ts';
import { ObservingPort } from './observing-port.ts';
import { PYTHON, RUBY, runObserveClient } from './observe-clients.ts';

const run = promisify(execFile);
const PASSWORD = 'Obs3rve$ecret@pw';

let redis: PrivateRedis;
let admin: Redis;
let port: ObservingPort;
let url: string;

beforeAll(async () => {
  redis = await startPrivateRedis();
  admin = new Redis({ host: redis.host, port: redis.port });
  await admin.config('SET', 'requirepass', PASSWORD);
  await admin.auth(PASSWORD);
  const target = targetFromUrl(`redis://${redis.host}:${redis.port}`, true);
  port = await ObservingPort.open(() => target, () => ({ version: '7', embedded: true, address: target.address }), {
    port: 0, recorder: { tool: 'pipescope', version: 'test', runtime: process.version },
  });
  url = `redis://:${encodeURIComponent(PASSWORD)}@127.0.0.1:${port.port}`;
});

afterAll(async () => {
  await port?.close();
  admin?.disconnect();
  await redis?.stop();
});

/** Calls per command from INFO commandstats. */
async function commandCalls(): Promise<Map<string, number>> {
  const text = await admin.info('commandstats');
  const calls = new Map<string, number>();
  for (const match of text.matchAll(/^cmdstat_([^:]+):calls=(\d+)/gm)) calls.set(match[1]!, Number(match[2]));
  return calls;
}

/** Runs `body` (the client), then stops the session; returns its traces and what Redis counted meanwhile (our INFO excluded). */
async function observe(body: () => Promise<unknown>): Promise<{ traces: TraceDocument[]; executed: number; executedByName: Map<string, number> }> {
  port.restart();
  const before = await commandCalls();
  await body();
  // Let the last chunks and closes land.
  await new Promise((resolve) => setTimeout(resolve, 300));
  await port.readKernelNow();
  const after = await commandCalls();
  const { traces } = port.restart();
  const executedByName = new Map<string, number>();
  let executed = 0;
  for (const [name, calls] of after) {
    const delta = calls - (before.get(name) ?? 0) - (name === 'info' ? 1 : 0);
    if (delta > 0) executedByName.set(name, delta);
    executed += Math.max(0, delta);
  }
  for (const doc of traces) {
    expect(JSON.stringify(doc)).not.toContain(PASSWORD);
    expect(JSON.stringify(doc)).not.toContain(encodeURIComponent(PASSWORD));
    // Every document is valid as a file would be.
    verifyTrace(JSON.parse(JSON.stringify(doc)));
  }
  return { traces, executed, executedByName };
}

const names = (doc: TraceDocument) => doc.run.observed!.commands.map((c) => c.split(' ')[0]);
/**
 * Commands recorded, less those Redis refused as unknown (CLIENT SETINFO before Redis 7.2): INFO
 * commandstats counts neither them nor their calls.
 */
const recorded = (traces: readonly TraceDocument[]) =>
  traces.reduce((sum, d) => sum + d.run.n - d.commands.filter((c) => 'error' in c && /^ERR unknown (sub)?command/.test(c.error)).length, 0);
const paired = (doc: TraceDocument) => doc.incomplete === null && doc.commands.length === doc.run.n;

describe('through the observing port, real clients', () => {
  it('redis-cli, one command at a time: one round trip each, AUTH redacted', async () => {
    const { traces, executed } = await observe(async () => {
      for (const args of [['SET', 'pipescope:observe:cli', 'hello'], ['GET', 'pipescope:observe:cli'], ['DEL', 'pipescope:observe:cli']]) {
        await run('redis-cli', ['-p', String(port.port), ...args], { env: { ...process.env, REDISCLI_AUTH: PASSWORD } });
      }
    });
    expect(recorded(traces)).toBe(executed);
    const withSet = traces.find((d) => names(d).includes('SET'))!;
    expect(paired(withSet)).toBe(true);
    expect(withSet.run.observed!.commands[0]).toBe('AUTH (redacted)');
    expect(roundTripsWaited(withSet)).toBe(withSet.run.n);
    expect(withSet.run.mode).toBe('sequential');
  });

  it('redis-cli --pipe: the mass insertion in few chunks, far fewer round trips than commands', async () => {
    const lines = ['AUTH ' + PASSWORD, ...Array.from({ length: 2000 }, (_, i) => `SET pipescope:observe:pipe:${i} v${i}`), 'DEL ' + Array.from({ length: 2000 }, (_, i) => `pipescope:observe:pipe:${i}`).join(' ')];
    const { traces, executed } = await observe(async () => {
      const child = execFile('redis-cli', ['-p', String(port.port), '--pipe']);
      child.stdin!.end(lines.join('\r\n') + '\r\n');
      await new Promise((resolve, reject) => child.on('exit', (code) => (code === 0 ? resolve(code) : reject(new Error(`redis-cli --pipe exited ${code}`)))));
    });
    expect(recorded(traces)).toBe(executed);
    const doc = traces.find((d) => d.run.n > 2000)!;
    expect(paired(doc)).toBe(true);
    expect(doc.run.observed!.commands[0]).toBe('AUTH (redacted)');
    expect(doc.run.mode).toBe('pipeline');
    expect(doc.counts.client.writes).toBeLessThan(doc.run.n / 10);
    expect(roundTripsWaited(doc)).toBeLessThan(10);
  });

  it('redis-benchmark -P 16 -c 1: sixteen commands per round trip', async () => {
    const { traces, executed } = await observe(() =>
      run('redis-benchmark', ['-p', String(port.port), '-a', PASSWORD, '-c', '1', '-P', '16', '-n', '1600', '-t', 'set', '-q']));
    expect(recorded(traces)).toBe(executed);
    const doc = traces.find((d) => names(d).filter((n) => n === 'SET').length === 1600)!;
    expect(paired(doc)).toBe(true);
    const sets = names(doc).filter((n) => n === 'SET').length;
    // 100 pipelines of 16, one round trip each (redis-benchmark writes its AUTH with the first one).
    expect(sets).toBe(1600);
    expect(roundTripsWaited(doc)).toBe(1600 / 16);
    expect(doc.writes.slice(-99).every((w) => w.commands === 16)).toBe(true);
    await admin.del('key:__rand_int__');
  });

  it("redis-py: pipeline() is MULTI … EXEC in one write, pipeline(transaction=False) none, the loop one round trip each", async () => {
    const key = 'pipescope:observe:py';
    const result: Record<string, TraceDocument> = {};
    for (const mode of ['transaction', 'plain', 'sequential'] as const) {
      const { traces, executed, executedByName } = await observe(() => runObserveClient(PYTHON, 'redis-py-pipeline.py', url, [mode, '10', key]));
      expect(recorded(traces)).toBe(executed);
      expect(traces).toHaveLength(1);
      const doc = traces[0]!;
      expect(paired(doc)).toBe(true);
      // redis-py's incr() sends INCRBY key 1.
      expect(executedByName.get('incrby')).toBe(10);
      // The kernel's figures for the client's socket, read before it closed: its data went in few segments.
      const kernel = doc.kernelTcp!;
      expect('unavailable' in kernel ? kernel.unavailable : kernel.dataSegmentsIn).toBeGreaterThan(0);
      result[mode] = doc;
    }
    const tx = names(result['transaction']!);
    expect(tx.slice(-12)).toEqual(['MULTI', ...Array(10).fill('INCRBY'), 'EXEC']);
    const txDoc = result['transaction']!;
    // The pipeline's 12 commands went in one write, and took one round trip (after AUTH's).
    expect(txDoc.writes.at(-1)!.commands).toBe(12);
    expect(roundTripsWaited(txDoc)).toBe(2);
    expect(names(result['plain']!)).not.toContain('MULTI');
    expect(result['plain']!.writes.at(-1)!.commands).toBe(10);
    expect(roundTripsWaited(result['plain']!)).toBe(2);
    expect(roundTripsWaited(result['sequential']!)).toBe(11);
    expect(result['sequential']!.run.mode).toBe('sequential');
    await admin.del(key);
  });

  it('redis-rb pipelined: 1,000 PINGs in a few round trips (in many writes), against 1,000 without', async () => {
    const { traces, executed } = await observe(() => runObserveClient(RUBY, 'redis-rb-ping.rb', url, ['both', '1000']));
    expect(recorded(traces)).toBe(executed);
    expect(traces).toHaveLength(2);
    const [without, withPipeline] = traces;
    for (const doc of traces) expect(paired(doc!)).toBe(true);
    expect(roundTripsWaited(without!)).toBe(without!.run.n);
    // redis-rb 4.8 writes the commands of `pipelined` in a varying number of chunks (here 14 to 1,000), then
    // reads: a stretch with nothing in flight only where Redis answered before the next chunk arrived.
    expect(roundTripsWaited(withPipeline!)).toBeLessThan(roundTripsWaited(without!) / 5);
  });

  it('an added RTT applies to observed connections: redis-py one INCR at a time at 20 ms, each ≥ 20 ms at the proxy', async () => {
    port.setDelay(20, 0);
    try {
      const { traces } = await observe(() => runObserveClient(PYTHON, 'redis-py-pipeline.py', url, ['sequential', '5', 'pipescope:observe:rtt']));
      const doc = traces[0]!;
      expect(doc.rtt.addedMs).toBe(20);
      expect(paired(doc)).toBe(true);
      for (const c of doc.commands) {
        expect(c.repliedUs - c.sentUs).toBeGreaterThanOrEqual(20_000);
        expect(c.toServerUs! - c.sentUs).toBeGreaterThanOrEqual(10_000);
      }
      expect(roundTripsWaited(doc)).toBe(6); // AUTH, then five INCRs
    } finally {
      port.setDelay(0, 0);
      await admin.del('pipescope:observe:rtt');
    }
  });

  it('ioredis: a pipeline of 100 in one write; its library named when it says it', async () => {
    const { traces, executed } = await observe(async () => {
      const client = new Redis({ host: '127.0.0.1', port: port.port, password: PASSWORD, lazyConnect: true });
      await client.connect();
      const pipeline = client.pipeline();
      for (let i = 0; i < 100; i++) pipeline.incr('pipescope:observe:ioredis');
      await pipeline.exec();
      await client.del('pipescope:observe:ioredis');
      client.disconnect();
    });
    expect(recorded(traces)).toBe(executed);
    const doc = traces[0]!;
    expect(paired(doc)).toBe(true);
    expect(doc.writes.some((w) => w.commands === 100)).toBe(true);
    // ioredis 6 says who it is (CLIENT SETINFO), even to a Redis that does not know the command yet.
    expect(doc.run.observed!.libName).toBe('ioredis');
    expect(doc.run.observed!.libVersion).toBe('6.0.0');
    expect(doc.run.observed!.commands[0]).toMatch(/^HELLO 3 AUTH default \(redacted\)$/);
    expect(doc.run.observed!.protocol).toBe(3);
  });
});
