// What Pipescope's ioredis engine costs over plain ioredis: the same pipelined batch of PINGs three
// ways, each on its own connection to the same Redis, side by side. Bare ioredis is what a user
// writes (pipeline(), ping() × n, exec()); "engine, untraced" is Pipescope's driver with nothing
// attached; "engine + socket probe" is the driver with the probe on its socket and the events folded
// into a TraceBuilder every flush interval, as a recorded run does. Times are wall clock around the
// batch: from building the pipeline to the last reply handed back.
import type { Redis } from 'ioredis';
import { TraceBuilder, type TraceHeader } from '../trace/format/trace-builder.ts';
import { recorderInfo } from '../server/support/recorder-info.ts';
import { connect } from '../server/redis/redis-target.ts';
import { openDriver } from '../server/drivers/open-driver.ts';
import type { RunDriver } from '../server/drivers/run-driver.ts';
import { FLUSH_INTERVAL_MS, newRunId } from '../server/runs/run-executor.ts';
import type { RedisSession } from '../server/redis/redis-session.ts';
import { SocketProbe } from '../server/probes/socket-probe.ts';
import { RunClock, microsSince } from '../server/support/monotonic-clock.ts';
import { workloadFor } from '../server/protocol/run-workload.ts';
import type { Finding } from './bench-report.ts';
import { roundRatios, sideBySide, spreadOf } from './side-by-side.ts';

export interface ClientOverheadOptions {
  n: number;
  rounds: number;
}

const ms = (since: bigint) => microsSince(since) / 1000;

export async function clientOverheadBench(session: RedisSession, { n, rounds }: ClientOverheadOptions, log: (line: string) => void): Promise<Finding[]> {
  const workload = workloadFor('PING', '', 0);
  const bare: Redis = connect(session.target, 'pipescope-bench-bare');
  await bare.connect();
  const engine = await openDriver('ioredis', session.target, 'pipescope-bench-engine');
  const probed = await openDriver('ioredis', session.target, 'pipescope-bench-probed');
  try {
    const samples = await sideBySide(
      [
        {
          name: 'bare',
          measure: async () => {
            const started = process.hrtime.bigint();
            const pipeline = bare.pipeline();
            for (let i = 0; i < n; i++) pipeline.ping();
            await pipeline.exec();
            return ms(started);
          },
        },
        {
          name: 'untraced',
          measure: async () => {
            const started = process.hrtime.bigint();
            await engine.pipeline(workload, n, n, () => {}, () => false);
            return ms(started);
          },
        },
        { name: 'probed', measure: () => probedBatch(session, probed, n) },
      ],
      rounds,
      3,
    );
    for (const name of ['bare', 'untraced', 'probed']) {
      const { median, min, max } = spreadOf(samples[name]!);
      log(`  ${name.padEnd(9)} ${median.toFixed(2)} ms [${min.toFixed(2)}–${max.toFixed(2)}] for ${n.toLocaleString('en-US')} PINGs pipelined`);
    }
    const how = `${n.toLocaleString('en-US')} PINGs in one pipeline, ${rounds} rounds side by side on three connections; per-round time ratio`;
    return [
      { name: 'ioredis engine untraced ÷ bare ioredis', unit: 'ratio', spread: roundRatios(samples['untraced']!, samples['bare']!), goal: { bound: 'at most', value: 1.05 }, how },
      { name: 'ioredis engine + socket probe ÷ bare ioredis', unit: 'ratio', spread: roundRatios(samples['probed']!, samples['bare']!), goal: { bound: 'at most', value: 1.3 }, how: `${how}; the probe's events folded into a TraceBuilder as a run does` },
    ];
  } finally {
    bare.disconnect();
    engine.disconnect();
    probed.disconnect();
  }
}

/** One batch as a recorded run measures it: probe on the socket, a flush into the builder every interval. */
async function probedBatch(session: RedisSession, driver: RunDriver, n: number): Promise<number> {
  const header: TraceHeader = {
    run: {
      id: newRunId(), mode: 'pipeline', command: 'PING', n, operations: n, valueBytes: 0, startedAt: new Date().toISOString(), keyPattern: '',
      warmup: null, injectedError: null, repeat: 0, probes: { monitor: false, strace: false, memory: false, kernelTcp: false, heldConnection: false },
    },
    redis: session.info,
    rtt: { addedMs: 0, jitterMs: 0, measuredMinUs: 0, measuredMedianUs: 0, samples: 0 },
    recorder: recorderInfo(driver.client),
  };
  const builder = new TraceBuilder(header);
  const clock = new RunClock();
  const probe = new SocketProbe(driver.socket, clock);
  const started = clock.start();
  const flusher = setInterval(() => builder.addBatch(probe.take()), FLUSH_INTERVAL_MS);
  try {
    await driver.pipeline(workloadFor('PING', '', 0), n, n, (outcome) => probe.recordOutcome(outcome), () => false);
  } finally {
    clearInterval(flusher);
    probe.detach();
  }
  builder.addBatch(probe.take());
  const elapsed = ms(started);
  if (builder.progress.replied !== n) throw new Error(`The probe saw ${builder.progress.replied} of ${n} replies`);
  return elapsed;
}
