// Server-side tracing against a real redis-server: MONITOR execution times on the client's clock,
// and strace's count of Redis's read()/write() calls on the run's socket.
import { describe, expect, it } from 'vitest';
import { parseTrace, serializeTrace } from '../../trace/format/trace-io.ts';
import type { TraceDocument } from '../../trace/format/trace-format.ts';
import { usePrivateRedisSession } from '../test-support/private-redis-session.ts';
import { executeRun } from './run-executor.ts';
import { straceAvailable } from '../probes/strace-probe.ts';

const local = usePrivateRedisSession();

const syscalls = (doc: TraceDocument, call: string) => doc.serverTrace!.syscalls!.calls.filter((c) => c.call === call);

describe('1000 PINGs, server-traced', () => {
  it('is strace-able here (the suite installs strace)', () => {
    expect(straceAvailable()).toBe(true);
  });

  it('pipelined: Redis reads the whole batch in a few read() calls', async () => {
    const doc = await executeRun(local.session, 'pipeline', { command: 'PING', n: 1000, valueBytes: 0, serverTrace: true });
    const reads = syscalls(doc, 'read').filter((c) => c.result > 0);
    expect(reads.length).toBeLessThanOrEqual(Math.ceil(doc.counts.client.bytesOut / 16384) + 2);
    expect(reads.reduce((sum, c) => sum + c.result, 0)).toBe(doc.counts.client.bytesOut);
    expect(reads[0]!.head.startsWith('*1\\r\\n$4\\r\\nping\\r\\n')).toBe(true); // ioredis's ping() names it in lower case
  });

  it('sequential: at least one read() per command', async () => {
    const doc = await executeRun(local.session, 'sequential', { command: 'PING', n: 1000, valueBytes: 0, serverTrace: true });
    expect(syscalls(doc, 'read').length).toBeGreaterThanOrEqual(1000);
    expect(syscalls(doc, 'write').length + syscalls(doc, 'writev').length).toBeGreaterThanOrEqual(1000);
  });
});

describe.each(['sequential', 'pipeline'] as const)('%s INCRs with MONITOR', (mode) => {
  it('every command has one execution time, in order, between its request and reply', async () => {
    const doc = await executeRun(local.session, mode, { command: 'INCR', n: 200, valueBytes: 0, serverTrace: true });
    const { uncertaintyUs } = doc.serverTrace!.clock;
    expect(uncertaintyUs).toBeGreaterThan(0);
    doc.commands.forEach((c, i) => {
      expect(c.serverUs).toBeGreaterThanOrEqual(c.sentUs - uncertaintyUs - 1);
      expect(c.serverUs).toBeLessThanOrEqual(c.repliedUs + uncertaintyUs + 1);
      if (i > 0) expect(c.serverUs).toBeGreaterThanOrEqual(doc.commands[i - 1]!.serverUs!);
    });
    // MONITOR's feed is traffic too, so the INFO counts are not the run's alone.
    expect(doc.counts.server.exclusive).toBe(false);
    const text = serializeTrace(doc);
    expect(serializeTrace(parseTrace(text))).toBe(text);
  });
});

it('shows the docs\' two orderings: ping-pong vs all requests first', async () => {
  const sequential = await executeRun(local.session, 'sequential', { command: 'INCR', n: 10, valueBytes: 0, serverTrace: true });
  const pipeline = await executeRun(local.session, 'pipeline', { command: 'INCR', n: 10, valueBytes: 0, serverTrace: true });
  // Sequential: Redis runs command i before the client writes command i+1.
  for (let i = 1; i < 10; i++) expect(sequential.commands[i]!.sentUs).toBeGreaterThan(sequential.commands[i - 1]!.serverUs!);
  // Pipeline: every command was written before Redis ran the first.
  expect(Math.max(...pipeline.commands.map((c) => c.sentUs))).toBeLessThanOrEqual(pipeline.commands[0]!.serverUs! + pipeline.serverTrace!.clock.uncertaintyUs);
  expect(syscalls(sequential, 'read').length).toBe(10);
  expect(syscalls(pipeline, 'read').length).toBe(1);
});

it('other clients\' commands during the run are shown for what they are', async () => {
  const { Redis } = await import('ioredis');
  const neighbour = new Redis({ host: local.redis.host, port: local.redis.port });
  await neighbour.ping();
  let stop = false;
  const chatter = (async () => {
    while (!stop) await neighbour.get('someone-elses-key');
  })();
  const doc = await executeRun(local.session, 'sequential', { command: 'PING', n: 300, valueBytes: 0, serverTrace: true });
  stop = true;
  await chatter;
  neighbour.disconnect();
  const others = doc.serverTrace!.others.filter((o) => o.command === 'get someone-elses-key');
  expect(others.length).toBeGreaterThan(0);
  expect(others[0]!.source).toBe(`${neighbour.stream.localAddress}:${neighbour.stream.localPort}`);
});

it('the memory sampler\'s INFO lines are named as Pipescope\'s own, not left as another client\'s', async () => {
  // 20,000 INCRs in one pipeline last long enough for the sampler (every 10 ms) to ask while Redis runs them.
  const doc = await executeRun(local.session, 'pipeline', { command: 'INCR', n: 20_000, valueBytes: 0, monitor: true, memory: true });
  const info = doc.serverTrace!.others.filter((o) => /^info/i.test(o.command));
  expect(info.length).toBeGreaterThan(0);
  for (const line of info) expect(line.source).toMatch(/ \(Pipescope memory sampler\)$/);
});
