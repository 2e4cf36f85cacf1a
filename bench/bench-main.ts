// `npm run bench`: Pipescope's speed goals, measured side by side in one run on this machine and
// printed as ratios and figures beside their goals. Timings here are noisy (2 shared cores: client,
// Redis and browser compete), so every figure is a median with its range, and ratios are taken within
// rounds that run their variants back to back. Nothing is asserted: that is the tests' job, on counts.
import { writeFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { optionsOrExit } from '../server/app/cli/cli-options.ts';
import { openRedis } from '../server/redis/open-redis.ts';
import { executeRun } from '../server/runs/run-executor.ts';
import { serializeTrace } from '../trace/format/trace-io.ts';
import type { TraceDocument } from '../trace/format/trace-format.ts';
import { encodeCompactTrace } from '../trace/format/compact-trace.ts';
import { gzip } from '../server/app/cli/trace-files-node.ts';
import { launchBrowser } from '../e2e/browser.ts';
import { startAppProcess } from '../e2e/app-process.ts';
import { BENCH_USAGE, parseBenchOptions, type BenchOptions } from './bench-options.ts';
import { formatFindings, type Finding } from './bench-report.ts';
import { renderBench } from './browser-bench.ts';
import { clientOverheadBench } from './client-overhead-bench.ts';
import { clusterBench } from './cluster-bench.ts';
import { defaultRunsBench } from './default-runs-bench.ts';
import { firstWriteBench } from './first-write-bench.ts';
import { latencyBench } from './latency-bench.ts';
import { observeBench } from './observe-bench.ts';
import { playerSizeBench } from './player-size-bench.ts';
import { referenceBench } from './reference-bench.ts';
import { addedDelayBench, firstRoundTripBench, probeCostBench } from './small-runs-bench.ts';
import { traceSizeBench } from './trace-size-bench.ts';
import { bytesPerCommandBench, liveDelayBench } from './websocket-bench.ts';

const log = (line: string) => console.log(line);

async function main(): Promise<void> {
  const options = optionsOrExit('bench', BENCH_USAGE, () => parseBenchOptions(process.argv.slice(2)));
  const redis = await openRedis(undefined);
  const findings: Finding[] = [];
  try {
    log(`Pipescope bench${options.quick ? ' (--quick: small sizes, figures say little)' : ''}: ${cpus().length} × ${cpus()[0]?.model ?? 'unknown CPU'}, ` +
      `load ${loadavg().map((l) => l.toFixed(2)).join(' ')}; node ${process.version}; ${redis.description}`);
    if (options.parts.includes('player-size')) {
      log('\nthe custom element\'s script, as served');
      findings.push(...playerSizeBench(log));
    }
    findings.push(...(await nodeParts(options, redis.session)));
    // One recorded trace of sizes.render.n pipelined PINGs, for its file sizes and for the render bench.
    const recorded = options.parts.includes('trace-size') || options.parts.includes('browser')
      ? await executeRun(redis.session, 'pipeline', { command: 'PING', n: options.sizes.render.n, valueBytes: 0, memory: true })
      : null;
    if (recorded && options.parts.includes('trace-size')) {
      log('\ntrace file sizes (as written by npm run record; the served form: --out run.json.gz)');
      findings.push(...traceSizeBench(recorded, log));
      // The hard case for the encoding: every command its own write, read, reply and MONITOR line.
      const sequential = await executeRun(redis.session, 'sequential', { command: 'INCR', n: options.sizes.render.n, valueBytes: 0, memory: true, monitor: true });
      findings.push(...traceSizeBench(sequential, log));
    }
    findings.push(...(await appParts(options, redis.session, recorded)));
  } finally {
    await redis.close();
  }
  log(`\n${formatFindings(findings)}`);
  if (options.json) {
    writeFileSync(options.json, `${JSON.stringify({ machine: { cpus: cpus().length, model: cpus()[0]?.model, node: process.version }, findings }, null, 2)}\n`);
    log(`\nfindings written to ${options.json}`);
  }
}

async function nodeParts({ parts, sizes }: BenchOptions, session: Parameters<typeof clientOverheadBench>[0]): Promise<Finding[]> {
  const findings: Finding[] = [];
  if (parts.includes('client')) {
    log('\nioredis engine overhead (side by side, wall clock around each batch)');
    findings.push(...(await clientOverheadBench(session, sizes.overhead, log)));
  }
  if (parts.includes('reference')) {
    log('\nPipescope engines vs redis-benchmark (ops/s, side by side)');
    findings.push(...(await referenceBench(session, sizes.reference, log)));
  }
  if (parts.includes('first-write')) {
    log(`\nfirst command's write − t0, sequential ${sizes.firstWrite.n} × INCR (side by side)`);
    findings.push(...(await firstWriteBench(session, sizes.firstWrite, log)));
  }
  if (parts.includes('added-delay')) {
    log('\nadded delay: round trips through the delay proxy against direct ones (side by side)');
    findings.push(...(await addedDelayBench(session, sizes.smallRuns, log)));
  }
  if (parts.includes('latency')) {
    log('\nsequential PING latency vs redis-benchmark -c 1 -P 1 -t ping (side by side)');
    findings.push(...(await latencyBench(session, sizes.latency, log)));
  }
  if (parts.includes('observe')) {
    log('\nthe observing port: added latency per round trip and throughput, through vs around it (side by side)');
    findings.push(...(await observeBench(session, sizes.observe, log)));
  }
  if (parts.includes('cluster')) {
    log('\nthe private Redis Cluster: start-up, the raw engine split by node vs redis-benchmark --cluster, one node\'s work vs the single Redis');
    findings.push(...(await clusterBench(session, sizes.cluster, log)));
  }
  return findings;
}

/** Parts that drive the built app over its WebSocket alone. */
const APP_PARTS: readonly string[] = ['default-runs', 'first-round-trip', 'probe-cost'];

/** Parts that drive the built app: in Chromium (browser, websocket) or over its WebSocket alone (default-runs). */
async function appParts({ parts, sizes }: BenchOptions, session: Parameters<typeof clientOverheadBench>[0], recorded: TraceDocument | null): Promise<Finding[]> {
  const needsBrowser = parts.includes('browser') || parts.includes('websocket');
  if (!needsBrowser && !parts.some((part) => APP_PARTS.includes(part))) return [];
  const findings: Finding[] = [];
  // The small-runs parts send a request per round, more than a page may per minute by default.
  const [app, browser] = await Promise.all([startAppProcess(['--max-runs-per-minute', '100000']), needsBrowser ? launchBrowser() : undefined]);
  try {
    log(`\napp at ${app.url}${browser ? `; browser: Chromium ${browser.version()} (headless)` : ''}`);
    if (browser && parts.includes('browser') && recorded) {
      const trace = { text: serializeTrace(recorded), served: gzip(encodeCompactTrace(recorded)), n: sizes.render.n };
      findings.push(...(await renderBench(browser, app.url, trace, sizes.render, log)));
    }
    if (browser && parts.includes('websocket')) {
      const { n, sequentialN, repeats, delayRuns } = sizes.websocket;
      log('\nWebSocket live feed');
      findings.push(
        ...(await bytesPerCommandBench(app.url, [
          { command: 'PING', n, mode: 'pipeline' },
          { command: 'INCR', n, mode: 'pipeline' },
          { command: 'PING', n: sequentialN, mode: 'sequential' },
        ], repeats, log)),
      );
      findings.push(...(await liveDelayBench(browser, app.url, n, delayRuns, log)));
    }
    if (parts.includes('first-round-trip')) {
      log(`\nthe default form's first round trip against the rest, ${sizes.smallRuns.requests} requests over the app's WebSocket`);
      findings.push(...(await firstRoundTripBench(app.url, sizes.smallRuns, log)));
    }
    if (parts.includes('probe-cost')) {
      log('\nthe probes\' cost on the default form (side by side)');
      findings.push(...(await probeCostBench(app.url, session, sizes.smallRuns, log)));
    }
    if (parts.includes('default-runs')) {
      log(`\nthe default form, ${sizes.defaultRuns.requests} requests over the app's WebSocket`);
      findings.push(...(await defaultRunsBench(app.url, sizes.defaultRuns, log)));
    }
  } finally {
    await browser?.close();
    await app.stop();
  }
  return findings;
}

main().catch((error: Error) => {
  console.error(`bench: ${error.message}`);
  process.exit(1);
});
