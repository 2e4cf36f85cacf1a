// `npm run bench` end to end at small sizes: every part measures something real and reports it with
// its goal (a private redis-server, redis-benchmark, the built app, Debian's Chromium). Timings are
// not judged here; the few counts that do not depend on the machine's speed are.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { executeRun } from '../server/runs/run-executor.ts';
import { usePrivateRedisSession } from '../server/test-support/private-redis-session.ts';
import { gzipSync } from 'node:zlib';
import { encodeCompactTrace } from '../trace/format/compact-trace.ts';
import { serializeTrace } from '../trace/format/trace-io.ts';
import { startAppProcess, type AppProcess } from '../e2e/app-process.ts';
import { launchBrowser } from '../e2e/browser.ts';
import type { Finding } from './bench-report.ts';
import { renderBench } from './browser-bench.ts';
import { clientOverheadBench } from './client-overhead-bench.ts';
import { clusterBench } from './cluster-bench.ts';
import { DEFAULT_FORM_SPEC, defaultRunsBench } from './default-runs-bench.ts';
import { firstWriteBench } from './first-write-bench.ts';
import { latencyBench } from './latency-bench.ts';
import { LiveClient } from './live-client.ts';
import { referenceBench } from './reference-bench.ts';
import { bytesPerCommandBench, liveDelayBench } from './websocket-bench.ts';

const local = usePrivateRedisSession();
const lines: string[] = [];
const log = (line: string) => lines.push(line);

function expectMeasured(findings: Finding[], names: RegExp[]): void {
  expect(findings.map((f) => f.name)).toEqual(names.map((n) => expect.stringMatching(n)));
  for (const { spread } of findings) {
    expect(Number.isFinite(spread.median)).toBe(true);
    expect(spread.median).toBeGreaterThan(0);
    expect(spread.min).toBeLessThanOrEqual(spread.median);
    expect(spread.median).toBeLessThanOrEqual(spread.max);
  }
}

it('client overhead: bare ioredis, the engine untraced and probed, as time ratios', async () => {
  const findings = await clientOverheadBench(local.session, { n: 500, rounds: 2 }, log);
  expectMeasured(findings, [/^ioredis engine untraced ÷ bare ioredis$/, /^ioredis engine \+ socket probe ÷ bare ioredis$/]);
  expect(findings.map((f) => f.goal)).toEqual([{ bound: 'at most', value: 1.05 }, { bound: 'at most', value: 1.3 }]);
});

it('reference: both engines against redis-benchmark on the same Redis, which it leaves empty', async () => {
  const findings = await referenceBench(local.session, { rawN: 5000, sequentialN: 300, rounds: 1 }, log);
  expectMeasured(findings, [/^raw engine at depth 1000 ÷ redis-benchmark -P 1000 -c 1$/, /^sequential ioredis engine ÷ redis-benchmark -P 1 -c 1$/]);
  expect(lines.join('\n')).toMatch(/redis-benchmark \S+ -c 1 -P 1000 -n [\d,]+ PING: [\d,]+ ops\/s/);
  expect(await local.session.control.dbsize()).toBe(0);
});

it("first write − t0: sequential INCR as the app runs it and without memory sampling, on each engine", async () => {
  const findings = await firstWriteBench(local.session, { n: 10, rounds: 1 }, log);
  expectMeasured(findings, [
    /^first command's write − t0, sequential INCR, ioredis engine$/,
    /^first command's write − t0, sequential INCR, ioredis engine, no memory sampling$/,
    /^first command's write − t0, sequential INCR, raw engine$/,
    /^first command's write − t0, sequential INCR, raw engine, no memory sampling$/,
    /^first command's write − t0, sequential INCR, node-redis engine$/,
    /^first command's write − t0, sequential INCR, node-redis engine, no memory sampling$/,
  ]);
  // node-redis: information only (it writes at the next setImmediate, not in the call).
  expect(findings.map((f) => f.goal)).toEqual([{ bound: 'at most', value: 50 }, null, { bound: 'at most', value: 20 }, null, null, null]);
  expect(await local.session.control.dbsize()).toBe(0);
});

it('latency: sequential PING p50 of each engine against redis-benchmark -t ping avg, same rounds', async () => {
  const findings = await latencyBench(local.session, { n: 300, rounds: 1 }, log);
  expectMeasured(findings, [
    /^sequential PING latency p50, raw engine ÷ redis-benchmark -c 1 -P 1 avg$/,
    /^sequential PING latency p50, ioredis engine ÷ redis-benchmark -c 1 -P 1 avg$/,
    /^sequential PING latency p50, node-redis engine ÷ redis-benchmark -c 1 -P 1 avg$/,
  ]);
  expect(findings.map((f) => f.goal)).toEqual([{ bound: 'at most', value: 1.5 }, null, null]);
  expect(lines.join('\n')).toMatch(/redis-benchmark \S+ -c 1 -P 1 -n 300 PING_INLINE: avg \d+ µs/);
  expect(lines.join('\n')).toMatch(/redis-benchmark \S+ -c 1 -P 1 -n 300 PING_MBULK: avg \d+ µs/);
  expect(await local.session.control.dbsize()).toBe(0);
});

it('cluster: start-up, the split raw engine against redis-benchmark --cluster, one node against the single Redis, which it leaves empty', async () => {
  const before = lines.length;
  const findings = await clusterBench(local.session, { starts: 1, runsPerRound: 2, rounds: 1, oneNodeN: 200, oneNodeRounds: 1 }, log);
  expectMeasured(findings, [
    /^private cluster \(3 masters\): start to ready$/,
    /^raw engine split by node ÷ redis-benchmark --cluster -c 1 -P 16$/,
    /^one node's work: cluster master ÷ single Redis \(time\)$/,
  ]);
  expect(findings.map((f) => f.goal)).toEqual([{ bound: 'at most', value: 3000 }, { bound: 'at least', value: 0.5 }, null]);
  expect(lines.slice(before).join('\n')).toMatch(/redis-benchmark \S+ --cluster -c 1 -P 16 -t set -n [\d,]+: [\d,]+ ops\/s/);
  expect(await local.session.control.dbsize()).toBe(0); // the one-node keys went from the single Redis too
});

describe('in the browser', () => {
  let app: AppProcess;
  let browser: Browser;
  beforeAll(async () => {
    [app, browser] = await Promise.all([startAppProcess(), launchBrowser()]);
  });
  afterAll(async () => {
    await browser?.close();
    await app?.stop();
  });

  it('renders a recorded trace and times the frames of a scripted pan/zoom', async () => {
    const doc = await executeRun(local.session, 'pipeline', { command: 'PING', n: 3000, valueBytes: 0, memory: true });
    const served = gzipSync(encodeCompactTrace(doc), { level: 9 });
    const findings = await renderBench(browser, app.url, { text: serializeTrace(doc), served, n: 3000 }, { loads: 1, steps: 3 }, log);
    expectMeasured(findings, [
      /^first complete render, recorded 3,000-command trace$/,
      /^frame time, scripted pan\/zoom of that trace$/,
      /^first complete render, the same trace as served \(\.json\.gz\)$/,
    ]);
    // Every wheel and drag step is an input followed by its own frame: 3 in, 3 drags (+ press and release), 3 out.
    expect(findings[1]!.how).toMatch(/^(9|1[0-2]) frames over 1 pages/);
  });

  it('counts the live feed in bytes per command on the wire: a pipeline costs a few bytes a command', async () => {
    const findings = await bytesPerCommandBench(app.url, [{ command: 'PING', n: 5000, mode: 'pipeline' }, { command: 'PING', n: 200, mode: 'sequential' }], 1, log);
    expectMeasured(findings, [/one pipeline of 5,000 PING$/, /sequential 200 PING$/]);
    // "PONG", in the outcomes array is 7 bytes; the run's few writes, reads and messages add little.
    expect(findings[0]!.spread.median).toBeGreaterThanOrEqual(7);
    expect(findings[0]!.spread.median).toBeLessThan(12);
    // Sequentially each command is its own write and read triple too.
    expect(findings[1]!.spread.median).toBeGreaterThan(findings[0]!.spread.median);
  });

  it("rebuilds a default form request's runs from the app's WebSocket, as the page does", async () => {
    const client = await LiveClient.connect(app.url);
    try {
      const docs = await client.run(DEFAULT_FORM_SPEC);
      // Until certain: rounds of both modes, the order alternating, up to a checkpoint (10, 15, 20, 30 or 40 rounds).
      const rounds = docs.length / 2;
      expect([10, 15, 20, 30, 40]).toContain(rounds);
      expect(client.lastDone.rounds).toBe(rounds);
      expect(docs.map((d) => `${d.run.mode} ${d.run.repeat}`)).toEqual(
        Array.from({ length: rounds }, (_, r) => (r % 2 === 0 ? [`sequential ${r}`, `pipeline ${r}`] : [`pipeline ${r}`, `sequential ${r}`])).flat(),
      );
      for (const doc of docs) {
        expect(doc.commands).toHaveLength(10);
        expect(doc.run.warmup).not.toBeNull();
        expect(doc.run.round?.plan).toBe('until-certain');
        expect(doc.run.probes).toEqual({ monitor: false, strace: false, memory: false, kernelTcp: true, heldConnection: false }); // memory: off for small runs unless asked
      }
    } finally {
      client.close();
    }
  });

  it('judges the default form over several requests: how often the interval names the pipeline, and its ratio', async () => {
    const findings = await defaultRunsBench(app.url, { requests: 2 }, log);
    expect(findings.map((f) => [f.name, f.unit, f.goal])).toEqual([
      ["default form: 'pipeline faster' with a 95 % interval excluding 1, of 2 requests", 'count', { bound: 'at least', value: 2 }],
      ['default form: sequential ÷ pipeline, median of the per-round ratios, over requests', 'ratio', { bound: 'at least', value: 2.5 }],
      ['default form: rounds per request (until certain)', 'count', null],
      ['default form: requests the rule before (min–max ranges apart, 5 rounds) would have concluded, of 2', 'count', null],
    ]);
    expect([0, 1, 2]).toContain(findings[0]!.spread.median);
    expect(findings[1]!.spread.min).toBeGreaterThan(0);
    expect(findings[2]!.spread.min).toBeGreaterThanOrEqual(10);
  });

  it('times a live run from its end to its trace drawn in the page', async () => {
    const findings = await liveDelayBench(browser, app.url, 2000, 1, log);
    expectMeasured(findings, [/^run end → complete trace drawn in the browser, 2,000 commands$/]);
  });
});
