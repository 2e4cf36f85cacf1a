// `npm run record`: records one run into a trace document without a browser, for docs authors and
// scripts. Same runner, probes and TraceBuilder as the live view; prints a short summary.
import { writeFileSync } from 'node:fs';
import { serializeTrace } from '../trace/trace-io.ts';
import { latencySummary } from '../trace/trace-stats.ts';
import { RECORD_USAGE, optionsOrExit, parseRecordOptions } from './cli-options.ts';
import { openRedis } from './redis-choice.ts';
import { executeRun } from './run-executor.ts';

async function main(): Promise<void> {
  const options = optionsOrExit('record', RECORD_USAGE, () => parseRecordOptions(process.argv.slice(2), process.env));
  const redis = await openRedis(options.redisUrl);
  try {
    const doc = await executeRun(redis.session, options.mode, options.spec);
    writeFileSync(options.out, serializeTrace(doc));
    const { p50Us, p99Us } = latencySummary(doc);
    const { client, server } = doc.counts;
    console.log(
      `${doc.run.mode} ${doc.run.n} × ${doc.run.command} on ${redis.description}` +
        (doc.rtt.addedMs || doc.rtt.jitterMs ? `, added delay: ${doc.rtt.addedMs} ms RTT ± ${doc.rtt.jitterMs} ms (proxy)` : '') +
        `\n  measured RTT before t0: min ${doc.rtt.measuredMinUs} µs, median ${doc.rtt.measuredMedianUs} µs (PING ×${doc.rtt.samples})\n` +
        `  total ${(doc.totals.durationUs / 1000).toFixed(2)} ms, ${Math.round(doc.totals.opsPerSec).toLocaleString('en-US')} ops/s, ` +
        `latency p50 ${p50Us} µs p99 ${p99Us} µs\n` +
        `  client socket: ${client.writes} writes, ${client.reads} reads; Redis INFO: ${server.reads} read events, ${server.writes} write events\n` +
        `  trace written to ${options.out}`,
    );
  } finally {
    await redis.close();
  }
}

main().catch((error: Error) => {
  console.error(`record: ${error.message}`);
  process.exit(1);
});
