// `npm run record`: records one run into a trace document (or, with `sweep`, a depth sweep into a
// sweep document) without a browser, for docs authors and scripts. Same runner, probes and
// TraceBuilder as the live view; prints a short summary.
import { writeFileSync } from 'node:fs';
import { serializeTrace } from '../../trace/trace-io.ts';
import { latencySummary } from '../../trace/trace-stats.ts';
import { serializeSweep } from '../../trace/sweep-io.ts';
import { pointOpsPerSec, pointServerReadsPerCommand, spreadOf, type SweepDocument } from '../../trace/sweep-format.ts';
import { RECORD_USAGE, optionsOrExit, parseRecordOptions, parseSweepOptions } from './cli-options.ts';
import { openRedis } from '../redis/open-redis.ts';
import { executeRun } from '../runs/run-executor.ts';
import { executeSweep } from '../runs/sweep-executor.ts';

async function main(): Promise<void> {
  const argv = process.argv.slice(2);
  if (argv[0] === 'sweep') return sweep(argv.slice(1));
  const options = optionsOrExit('record', RECORD_USAGE, () => parseRecordOptions(process.argv.slice(2), process.env));
  const redis = await openRedis(options.redisUrl);
  try {
    const doc = await executeRun(redis.session, options.mode, options.spec);
    writeFileSync(options.out, serializeTrace(doc));
    const { p50Us, p99Us } = latencySummary(doc);
    const { client, server } = doc.counts;
    const peak = (values: number[]) => (values.length ? formatBytes(Math.max(...values)) : 'no sample');
    const memory = doc.memory
      ? `\n  memory peaks: Redis run connection ${peak(doc.memory.server.samples.map((s) => s.totMem))} (CLIENT LIST tot-mem), ` +
        `used_memory ${peak(doc.memory.server.samples.map((s) => s.usedMemory))}; client heap ${peak(doc.memory.client.samples.map((s) => s.heapUsed))}, ` +
        `RSS ${peak(doc.memory.client.samples.map((s) => s.rss))}`
      : '';
    console.log(
      `${doc.run.mode} ${doc.run.n} × ${doc.run.command}${doc.run.chunk ? ` in pipelines of ${doc.run.chunk}` : ''} on ${redis.description}` +
        (doc.rtt.addedMs || doc.rtt.jitterMs ? `, added delay: ${doc.rtt.addedMs} ms RTT ± ${doc.rtt.jitterMs} ms (proxy)` : '') +
        `\n  measured RTT before t0: min ${doc.rtt.measuredMinUs} µs, median ${doc.rtt.measuredMedianUs} µs (PING ×${doc.rtt.samples})\n` +
        `  total ${(doc.totals.durationUs / 1000).toFixed(2)} ms, ${Math.round(doc.totals.opsPerSec).toLocaleString('en-US')} ops/s, ` +
        `latency p50 ${p50Us} µs p99 ${p99Us} µs\n` +
        `  client socket: ${client.writes} writes, ${client.reads} reads; Redis INFO: ${server.reads} read events, ${server.writes} write events` +
        `${memory}\n` +
        `  trace written to ${options.out}`,
    );
  } finally {
    await redis.close();
  }
}

function formatBytes(bytes: number): string {
  return bytes >= 1024 * 1024 ? `${(bytes / 1024 / 1024).toFixed(1)} MiB` : `${(bytes / 1024).toFixed(1)} KiB`;
}

async function sweep(argv: string[]): Promise<void> {
  const options = optionsOrExit('record sweep', RECORD_USAGE, () => parseSweepOptions(argv, process.env));
  const redis = await openRedis(options.redisUrl);
  try {
    const { spec } = options;
    console.log(`sweep: ${spec.perPoint} × ${spec.command} per point, ${spec.repeats} repeats, depths ${spec.depths.join(', ')}, ${spec.engine} engine, untraced, on ${redis.description}`);
    const live = process.stderr.isTTY; // a progress line that rewrites itself; nothing when piped
    const doc = await executeSweep(redis.session, spec, {
      onProgress: (p) => live && process.stderr.write(`\r  ${p.tool} depth ${p.depth} repeat ${p.repeat} (${p.done}/${p.total})   `),
    });
    if (live) process.stderr.write('\r\x1b[K');
    writeFileSync(options.out, serializeSweep(doc));
    console.log(sweepTable(doc));
    console.log(`  sweep written to ${options.out}`);
  } finally {
    await redis.close();
  }
}

/** Median [min–max] ops/s per depth, the speed-up over depth 1, Redis reads per command, and the reference. */
function sweepTable(doc: SweepDocument): string {
  const int = (x: number) => Math.round(x).toLocaleString('en-US');
  const base = doc.points[0] ? pointOpsPerSec(doc.points[0]).median : 0;
  const lines = ['  depth   ops/s median [min–max] (client socket)   × depth 1   Redis reads/cmd (INFO)' + (doc.reference ? '   redis-benchmark ops/s' : '')];
  for (const point of doc.points) {
    const ops = pointOpsPerSec(point);
    const reads = pointServerReadsPerCommand(point, doc.sweep.perPoint);
    const reference = doc.reference?.points.find((p) => p.depth === point.depth);
    lines.push(`  ${String(point.depth).padStart(5)}   ${`${int(ops.median)} [${int(ops.min)}–${int(ops.max)}]`.padEnd(38)}   ${(base ? ops.median / base : 0).toFixed(1).padStart(7)}   ${reads.median.toFixed(4).padStart(22)}` +
      (reference ? `   ${int(spreadOf(reference.opsPerSec).median).padStart(21)}` : ''));
  }
  if (doc.referenceMissing) lines.push(`  reference: ${doc.referenceMissing}`);
  const raised = doc.reference?.points.filter((p) => p.commands !== undefined && p.commands !== doc.sweep.perPoint) ?? [];
  if (raised.length > 0) {
    lines.push(`  redis-benchmark times whole ms; it ran more commands per run where ${int(doc.sweep.perPoint)} was too fast to time: ` +
      raised.map((p) => `depth ${p.depth} ${int(p.commands!)}`).join(', '));
  }
  return lines.join('\n');
}

main().catch((error: Error) => {
  console.error(`record: ${error.message}`);
  process.exit(1);
});
