// Truthful small runs: does Pipescope's own looking move what it shows on the default run (10 × INCR,
// sequential and one pipeline)? Three parts, each side by side in rounds:
//   first-round-trip  the default form through the app's WebSocket: the first round trip of each
//                     sequential run ÷ the median of its other round trips (goal ≤ 1.5);
//   probe-cost        the default form with the probes a default request turns on ÷ the same with
//                     every optional probe off, per mode, through the app (goal ≤ 1.05); beside it,
//                     each probe's own cost on that form (memory, MONITOR, strace, ss) in-process, and
//                     the socket probe's on a bare connection (it is always on: it is the measurement);
//   added-delay       sequential PINGs through the delay proxy at 0.5, 1 and 5 ms against direct ones:
//                     the added round trip measured per round trip ÷ the one asked (goal within ±5 %).
// Ratios are per round (variant ÷ baseline, same round) and reported as their median with the exact
// 95 % interval of a median (order statistics), beside min–max.
import type { Redis } from 'ioredis';
import type { Socket } from 'node:net';
import type { RunMode, TraceDocument } from '../trace/format/trace-format.ts';
import type { RunSpec } from '../trace/format/run-request.ts';
import { connect } from '../server/redis/redis-target.ts';
import { openConnection } from '../server/redis/connect-failure.ts';
import type { RedisSession } from '../server/redis/redis-session.ts';
import { executeRun, type RunParameters } from '../server/runs/run-executor.ts';
import { SocketProbe } from '../server/probes/socket-probe.ts';
import { RunClock } from '../server/support/monotonic-clock.ts';
import type { Finding } from './bench-report.ts';
import { DEFAULT_FORM_SPEC } from './default-runs-bench.ts';
import { LiveClient } from './live-client.ts';
import { roundRatios, sideBySide, spreadOf, type Variant } from './side-by-side.ts';

export interface SmallRunsOptions {
  /** Requests (first-round-trip), rounds (probe-cost, added-delay). */
  requests: number;
  rounds: number;
}

const MODES: RunMode[] = ['sequential', 'pipeline'];

/** Round trip of command i of a sequential run: its reply's read − its write (µs). */
const roundTrip = (doc: TraceDocument, i: number) => doc.commands[i]!.repliedUs - doc.commands[i]!.sentUs;

/** First round trip ÷ the median of the others, of one sequential run. */
export function firstOverSteady(doc: TraceDocument): { firstUs: number; steadyUs: number; ratio: number } {
  const rest = doc.commands.slice(1).map((_, i) => roundTrip(doc, i + 1));
  const steadyUs = spreadOf(rest).median;
  const firstUs = roundTrip(doc, 0);
  return { firstUs, steadyUs, ratio: firstUs / steadyUs };
}

/**
 * The exact distribution-free 95 % interval of a median: the order statistics [x(d), x(k+1−d)], d the
 * largest with P(Bin(k, ½) < d) ≤ 2.5 %. Null below 6 values (no such interval exists).
 */
export function medianInterval(values: readonly number[]): { lo: number; hi: number } | null {
  const sorted = [...values].sort((a, b) => a - b);
  const k = sorted.length;
  let below = 0; // P(Bin(k, ½) < d)
  let d = 0;
  let choose = 1; // C(k, d)
  for (;;) {
    const next = below + choose / 2 ** k;
    if (next > 0.025) break;
    below = next;
    d++;
    choose = (choose * (k - d + 1)) / d;
  }
  return d === 0 ? null : { lo: sorted[d - 1]!, hi: sorted[k - d]! };
}

const intervalText = (values: readonly number[], digits = 2) => {
  const ci = medianInterval(values);
  return ci ? `95 % ${ci.lo.toFixed(digits)}–${ci.hi.toFixed(digits)}` : 'too few for a 95 % interval';
};

export async function firstRoundTripBench(appUrl: string, { requests }: SmallRunsOptions, log: (line: string) => void): Promise<Finding[]> {
  const client = await LiveClient.connect(appUrl);
  const runs: ReturnType<typeof firstOverSteady>[] = [];
  try {
    for (let request = 0; request < requests; request++) {
      for (const doc of await client.run(DEFAULT_FORM_SPEC)) if (doc.run.mode === 'sequential' && !isMemoryRepeat(doc)) runs.push(firstOverSteady(doc));
    }
  } finally {
    client.close();
  }
  const ratios = runs.map((r) => r.ratio);
  const spread = spreadOf(ratios);
  const first = spreadOf(runs.map((r) => r.firstUs));
  const steady = spreadOf(runs.map((r) => r.steadyUs));
  log(`  first round trip ${first.median.toFixed(0)} µs [${first.min.toFixed(0)}–${first.max.toFixed(0)}], the rest ${steady.median.toFixed(0)} µs ` +
    `[${steady.min.toFixed(0)}–${steady.max.toFixed(0)}]; first ÷ steady ${spread.median.toFixed(2)} (${intervalText(ratios)}), ${runs.length} sequential runs`);
  const what = `${requests} default-form requests (${DEFAULT_FORM_SPEC.n} × ${DEFAULT_FORM_SPEC.command}) over the app's WebSocket, every timed sequential run`;
  return [
    { name: 'default form: first round trip ÷ steady round trip, sequential', unit: 'ratio', spread, goal: { bound: 'at most', value: 1.5 },
      how: `${what}; commands[0] repliedUs − sentUs ÷ the median of the others` },
    { name: 'default form: first round trip, sequential', unit: 'us', spread: first, goal: null, how: what },
    { name: 'default form: steady round trip, sequential', unit: 'us', spread: steady, goal: null, how: `${what}; median of commands[1…] per run` },
  ];
}

/** A run that sampled memory on purpose, apart from the timed ones (its time includes the sampler). */
const isMemoryRepeat = (doc: TraceDocument) => doc.run.memoryRepeat === true;

/** What a request with every optional probe off sends: the default form, nothing measured beside the socket. */
const NO_PROBES: RunSpec = { ...DEFAULT_FORM_SPEC, memory: false, kernelTcp: false };

export async function probeCostBench(appUrl: string, session: RedisSession, { rounds }: SmallRunsOptions, log: (line: string) => void): Promise<Finding[]> {
  const findings: Finding[] = [];
  findings.push(...(await defaultProbesBench(appUrl, rounds, log)));
  findings.push(...(await eachProbeBench(session, rounds, log)));
  findings.push(...(await socketProbeBench(session, rounds * 2, log)));
  return findings;
}

/** The default request's probes, through the app: with ÷ without, per mode, one repeat per request. */
async function defaultProbesBench(appUrl: string, rounds: number, log: (line: string) => void): Promise<Finding[]> {
  const client = await LiveClient.connect(appUrl);
  const durations: Record<string, Partial<Record<RunMode, number[]>>> = { with: {}, without: {} };
  try {
    const variants: Variant[] = (['with', 'without'] as const).map((name) => ({
      name,
      measure: async () => {
        const docs = await client.run({ ...(name === 'with' ? DEFAULT_FORM_SPEC : NO_PROBES), repeats: 1 });
        for (const doc of docs) if (!isMemoryRepeat(doc)) (durations[name]![doc.run.mode] ??= []).push(doc.totals.durationUs);
        return docs.length;
      },
    }));
    await sideBySide(variants, rounds);
  } finally {
    client.close();
  }
  const findings: Finding[] = [];
  for (const mode of MODES) {
    const withProbes = (durations['with']![mode] ?? []).slice(-rounds);
    const without = (durations['without']![mode] ?? []).slice(-rounds);
    const perRound = withProbes.map((value, i) => value / without[i]!);
    const ratio = roundRatios(withProbes, without);
    log(`  default probes, ${mode}: with ${spreadOf(withProbes).median.toFixed(0)} µs, without ${spreadOf(without).median.toFixed(0)} µs → ` +
      `${ratio.median.toFixed(3)}× (${intervalText(perRound, 3)}; min–max ${ratio.min.toFixed(2)}–${ratio.max.toFixed(2)})`);
    findings.push({
      name: `default form: time with the default probes ÷ without, ${mode}`, unit: 'ratio', spread: ratio, goal: { bound: 'at most', value: 1.05 },
      how: `${rounds} rounds over the app's WebSocket: the default form, repeats 1, as sent, against memory and kernelTcp off; totals.durationUs, per-round ratio`,
    });
  }
  return findings;
}

interface ProbeSetting {
  name: string;
  parameters: Partial<RunParameters>;
}

const PROBE_SETTINGS: ProbeSetting[] = [
  { name: 'none', parameters: {} },
  { name: 'memory', parameters: { memory: true } },
  { name: 'MONITOR', parameters: { monitor: true } },
  { name: 'strace', parameters: { strace: true } },
  { name: 'ss', parameters: { kernelTcp: true } },
];

/** Each optional probe alone on the default form, in-process, ÷ none, per mode. */
async function eachProbeBench(session: RedisSession, rounds: number, log: (line: string) => void): Promise<Finding[]> {
  const times: Record<string, number[]> = {};
  const variants: Variant[] = PROBE_SETTINGS.flatMap((setting) => MODES.map((mode) => ({
    name: `${setting.name}/${mode}`,
    measure: async () => {
      const doc = await executeRun(session, mode, { command: 'INCR', n: 10, valueBytes: 0, memory: false, kernelTcp: false, ...setting.parameters });
      (times[`${setting.name}/${mode}`] ??= []).push(doc.totals.durationUs);
      return doc.totals.durationUs;
    },
  })));
  const samples = await sideBySide(variants, rounds);
  const findings: Finding[] = [];
  for (const setting of PROBE_SETTINGS.slice(1)) {
    for (const mode of MODES) {
      const on = samples[`${setting.name}/${mode}`]!;
      const off = samples[`none/${mode}`]!;
      const ratio = roundRatios(on, off);
      const perRound = on.map((value, i) => value / off[i]!);
      log(`  ${setting.name.padEnd(8)} ${mode.padEnd(10)} ${spreadOf(on).median.toFixed(0).padStart(6)} µs against ${spreadOf(off).median.toFixed(0)} µs → ${ratio.median.toFixed(2)}× (${intervalText(perRound)})`);
      findings.push({
        name: `probe cost on the default form: ${setting.name}, ${mode} (÷ no optional probe)`, unit: 'ratio', spread: ratio, goal: null,
        how: `executeRun(${mode}, 10 × INCR) with only ${setting.name} on ÷ with none, ${rounds} rounds side by side; totals.durationUs`,
      });
    }
  }
  return findings;
}

/**
 * The socket probe (always on) on a bare ioredis connection: 10 sequential INCRs warmed right up to the
 * timed call, with the probe attached before the warm-up or not at all; time of the call, ÷ none.
 */
async function socketProbeBench(session: RedisSession, rounds: number, log: (line: string) => void): Promise<Finding[]> {
  const connection: Redis = connect(session.target, 'pipescope-bench-socket-probe');
  await openConnection(connection, session.target);
  try {
    const incr10 = async () => {
      for (let i = 0; i < 10; i++) await connection.incr('pipescope:bench:socket-probe');
    };
    const timed = async (withProbe: boolean) => {
      const clock = new RunClock();
      const probe = withProbe ? new SocketProbe(connection.stream as Socket, clock) : undefined;
      await incr10();
      probe?.take();
      const started = clock.start();
      await incr10();
      const us = Number(process.hrtime.bigint() - started) / 1000;
      probe?.detach();
      return us;
    };
    const samples = await sideBySide([
      { name: 'probe', measure: () => timed(true) },
      { name: 'none', measure: () => timed(false) },
    ], rounds);
    const ratio = roundRatios(samples['probe']!, samples['none']!);
    const perRound = samples['probe']!.map((value, i) => value / samples['none']![i]!);
    log(`  socket probe, bare connection, 10 sequential INCRs: ${spreadOf(samples['probe']!).median.toFixed(0)} µs against ${spreadOf(samples['none']!).median.toFixed(0)} µs → ` +
      `${ratio.median.toFixed(3)}× (${intervalText(perRound, 3)})`);
    return [{
      name: 'probe cost: the socket probe (always on), bare connection, 10 sequential INCRs', unit: 'ratio', spread: ratio, goal: null,
      how: `ioredis connection, warmed with 10 INCRs right up to the call, probe attached before the warm-up ÷ none, ${rounds} rounds`,
    }];
  } finally {
    await connection.del('pipescope:bench:socket-probe');
    connection.disconnect();
  }
}

const ADDED_MS = [0.5, 1, 5];
const DELAY_PINGS = 21;

/** Median steady round trip of a sequential run (commands 1…): what each command waited. */
const steadyRoundTrip = (doc: TraceDocument) => spreadOf(doc.commands.slice(1).map((_, i) => roundTrip(doc, i + 1))).median;

export async function addedDelayBench(session: RedisSession, { rounds }: SmallRunsOptions, log: (line: string) => void): Promise<Finding[]> {
  const run = (rttMs: number) => executeRun(session, 'sequential', { command: 'PING', n: DELAY_PINGS, valueBytes: 0, rttMs, memory: false, kernelTcp: false });
  const variants: Variant[] = [0, ...ADDED_MS].map((rttMs) => ({ name: String(rttMs), measure: async () => steadyRoundTrip(await run(rttMs)) }));
  const samples = await sideBySide(variants, rounds);
  const findings: Finding[] = [];
  for (const asked of ADDED_MS) {
    const added = samples[String(asked)]!.map((value, i) => value - samples['0']![i]!);
    const ratios = added.map((us) => us / (asked * 1000));
    const spread = spreadOf(ratios);
    const deviation = spreadOf(ratios.map((r) => Math.abs(r - 1)));
    log(`  added ${asked} ms: measured +${spreadOf(added).median.toFixed(0)} µs per round trip [${spreadOf(added).min.toFixed(0)}–${spreadOf(added).max.toFixed(0)}] ` +
      `(÷ asked ${spread.median.toFixed(3)}, ${intervalText(ratios, 3)}); direct ${spreadOf(samples['0']!).median.toFixed(0)} µs`);
    findings.push({
      name: `added RTT ${asked} ms: measured per round trip ÷ asked`, unit: 'ratio', spread, goal: null,
      how: `sequential ${DELAY_PINGS} × PING through the delay proxy: median round trip of commands 1… − the direct run's of the same round, ÷ ${asked} ms; ${rounds} rounds`,
    });
    findings.push({
      name: `added RTT ${asked} ms: |measured ÷ asked − 1|`, unit: 'ratio', spread: deviation, goal: { bound: 'at most', value: 0.05 },
      how: 'the same rounds: how far each round\'s measured added round trip was from the one asked, as a fraction of it',
    });
  }
  return findings;
}
