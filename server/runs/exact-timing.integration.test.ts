// What makes a run's numbers exact, on a real redis-server: t0 is the instant the run calls its client
// (nothing of Pipescope's own set-up comes after it), the connection is warmed up unless asked cold
// (and the warm-up's keys are gone after), the phases add up to the run's time, MONITOR and strace
// are separate choices, and the kernel's TCP figures count segments, not commands.
import { describe, expect, it } from 'vitest';
import { runPhases } from '../../trace/derive/run-phases.ts';
import { MAX_WARMUP_COMMANDS } from '../../trace/format/run-request.ts';
import { straceAvailable } from '../probes/strace-probe.ts';
import { usePrivateRedisSession } from '../test-support/private-redis-session.ts';
import { executeRun } from './run-executor.ts';

const local = usePrivateRedisSession();

const allKeys = () => local.session.control.call('KEYS', 'pipescope:*') as Promise<string[]>; // the test may; Pipescope never does

describe('t0', () => {
  it('comes after every set-up step: start message, key set-up, warm-up, memory baseline', async () => {
    let startAt = 0n;
    let t0 = 0n;
    const doc = await executeRun(local.session, 'sequential', { command: 'GET', n: 50, valueBytes: 64, memory: true, monitor: true }, {
      onStart: () => (startAt = process.hrtime.bigint()),
      onEnd: (_id, end) => (t0 = end.t0Ns),
    });
    expect(startAt).toBeGreaterThan(0n);
    expect(startAt).toBeLessThan(t0);
    // The baseline memory samples, Redis's and the client's, were taken before t0.
    expect(doc.memory!.server.samples[0]!.atUs).toBeLessThan(0);
    expect(doc.memory!.client.samples[0]!.atUs).toBeLessThan(0);
    // MONITOR saw no set-up command from any connection after t0: not GET's value being SET, not the
    // warm-up's GETs (the run connection's lines after t0 are exactly its 50 GETs).
    expect(doc.serverTrace!.others.filter((o) => !/^(info|INFO|client|CLIENT)/.test(o.command))).toEqual([]);
    expect(doc.commands.every((c) => c.serverUs !== undefined)).toBe(true);
    // The first command's write follows t0 closely (the client's own time; no Pipescope set-up in it).
    expect(doc.writes[0]!.atUs).toBeLessThan(doc.writes[1]!.atUs);
  });

  it('the phases add up to the time until the client call returned', async () => {
    for (const mode of ['sequential', 'pipeline'] as const) {
      const doc = await executeRun(local.session, mode, { command: 'INCR', n: 200, valueBytes: 0 });
      const phases = runPhases(doc);
      expect(phases.reduce((sum, p) => sum + p.us, 0)).toBeCloseTo(doc.totals.doneUs, 6);
      expect(phases.every((p) => p.us >= 0)).toBe(true);
      expect(doc.totals.doneUs).toBeGreaterThanOrEqual(doc.totals.durationUs);
    }
  });
});

describe('warm-up', () => {
  it('runs min(n, 1,000) commands of the same kind before t0, recorded, its keys deleted after', async () => {
    const doc = await executeRun(local.session, 'pipeline', { command: 'SET', n: 1500, valueBytes: 16 });
    expect(doc.run.warmup).toMatchObject({ commands: MAX_WARMUP_COMMANDS });
    expect(doc.run.warmup!.durationUs).toBeGreaterThan(0);
    const small = await executeRun(local.session, 'sequential', { command: 'SET', n: 7, valueBytes: 16 });
    expect(small.run.warmup).toMatchObject({ commands: 7 });
    expect(await allKeys()).toEqual([]);
    // The run's own counter starts from nothing: the warm-up's INCRs went to keys of their own.
    const incr = await executeRun(local.session, 'sequential', { command: 'INCR', n: 3, valueBytes: 0 });
    expect(incr.commands.map((c) => ('reply' in c ? c.reply : c.error))).toEqual([1, 2, 3]);
  });

  it('--cold has none', async () => {
    const doc = await executeRun(local.session, 'sequential', { command: 'PING', n: 20, valueBytes: 0, cold: true });
    expect(doc.run.warmup).toBeNull();
  });

  it('fits a slow link: at 100 ms RTT a sequential warm-up is one or two round trips, not 1,000', async () => {
    const doc = await executeRun(local.session, 'sequential', { command: 'PING', n: 50, valueBytes: 0, rttMs: 100 });
    expect(doc.run.warmup!.commands).toBeLessThanOrEqual(2);
  });
});

describe('Redis-side probes', () => {
  it('MONITOR alone: execution times, no syscalls, and the run says which probes were on', async () => {
    const doc = await executeRun(local.session, 'pipeline', { command: 'PING', n: 10, valueBytes: 0, monitor: true });
    expect(doc.run.probes).toMatchObject({ monitor: true, strace: false });
    expect(doc.serverTrace!.syscalls).toBeNull();
    expect(doc.commands.every((c) => c.serverUs !== undefined)).toBe(true);
  });

  it.skipIf(!straceAvailable())('strace alone: syscalls, no execution times', async () => {
    const doc = await executeRun(local.session, 'pipeline', { command: 'PING', n: 10, valueBytes: 0, strace: true });
    expect(doc.run.probes).toMatchObject({ monitor: false, strace: true });
    expect(doc.serverTrace!.syscalls!.calls.some((c) => c.call === 'read' && c.result > 0)).toBe(true);
    expect(doc.commands.every((c) => c.serverUs === undefined)).toBe(true);
    expect(doc.serverTrace!.others).toEqual([]);
  });
});

describe('kernel TCP figures (ss)', () => {
  it('a 10,000-PING pipeline crosses in far fewer TCP segments than commands', async () => {
    const doc = await executeRun(local.session, 'pipeline', { command: 'PING', n: 10_000, valueBytes: 0, kernelTcp: true });
    const tcp = doc.kernelTcp!;
    if ('unavailable' in tcp) throw new Error(`ss: ${tcp.unavailable}`);
    expect(tcp.source).toBe('kernel (ss)');
    expect(tcp.dataSegmentsOut).toBeGreaterThan(0);
    expect(tcp.dataSegmentsOut).toBeLessThan(doc.run.n / 100);
    expect(tcp.bytesAcked).toBe(doc.counts.client.bytesOut);
    expect(tcp.bytesReceived).toBe(doc.counts.client.bytesIn);
    // Loopback loses nothing, but a CPU starved for a few ms (2 shared cores under load) lets the tail-loss
    // probe fire and resend a segment: a real event the figure reports, so the test bounds it, not zero.
    expect(Number.isInteger(tcp.retransmits)).toBe(true);
    expect(tcp.retransmits).toBeGreaterThanOrEqual(0);
    expect(tcp.retransmits).toBeLessThanOrEqual(tcp.dataSegmentsOut);
  });

  it('sequential: at least one data segment each way per command', async () => {
    const doc = await executeRun(local.session, 'sequential', { command: 'PING', n: 100, valueBytes: 0, kernelTcp: true });
    const tcp = doc.kernelTcp!;
    if ('unavailable' in tcp) throw new Error(`ss: ${tcp.unavailable}`);
    expect(tcp.dataSegmentsOut).toBeGreaterThanOrEqual(100);
    expect(tcp.dataSegmentsIn).toBeGreaterThanOrEqual(100);
  });
});
