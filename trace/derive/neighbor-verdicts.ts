// What a trace says about other clients (their commands run inside a pipeline, a held connection,
// neighbours slowed), as pure functions of the document: the CLI summary and the browser's neighbour
// view both read them here. Each verdict names its source: interleaving comes from MONITOR
// (serverTrace.others), latencies from the neighbour client's own timings, the held connection from the
// two PINGs' reply times. All times are µs since the run's t0.
import { statsOfSorted, type LatencyStats } from './latency-stats.ts';
import type { TraceDocument } from '../format/trace-format.ts';
import { workCommandCount } from '../format/wire-layout.ts';

export interface NeighborInside {
  /** Neighbour commands Redis ran strictly between the run's first and last execution (its window). */
  inside: number;
  /** Neighbour commands MONITOR saw during the run at all (serverTrace.others keeps only t0…the end). */
  seen: number;
  /** The window on the run's clock: between these two executions of the run's own commands. */
  fromUs: number;
  toUs: number;
  /** MONITOR; for EVAL, the window's length is INFO commandstats'. */
  source: 'MONITOR';
}

/**
 * "N of the neighbour's commands ran inside your pipeline": MONITOR lines whose source is the
 * neighbour's address, strictly between the first and the last execution of the run's work. For
 * MULTI/EXEC the window is the queued commands' executions (wire positions 1 … work − 2, run at EXEC);
 * for EVAL it is from the EVAL's line to that plus Redis's time executing it (counts.server.execUs).
 * null when there was no neighbour or no MONITOR (or its times are missing).
 */
export function neighborInsideRun(doc: TraceDocument): NeighborInside | null {
  const { neighbor, serverTrace, run } = doc;
  if (!neighbor || !serverTrace || !run.probes.monitor) return null;
  const work = workCommandCount(run.mode, run.command, run.operations);
  const serverUs = (index: number) => doc.commands[index]?.serverUs;
  let from: number | undefined;
  let to: number | undefined;
  if (run.mode === 'multi') {
    from = serverUs(1);
    to = serverUs(work - 2);
  } else if (run.mode === 'eval') {
    // MONITOR prints the EVAL before its script runs; the script's own redis.call lines are the run's
    // (not in others), so its end is the EVAL's line plus Redis's time in EVAL (INFO commandstats).
    from = serverUs(0);
    to = from === undefined ? undefined : from + doc.counts.server.execUs;
  } else {
    from = serverUs(0);
    to = serverUs(work - 1);
  }
  if (from === undefined || to === undefined) return null;
  const lines = serverTrace.others.filter((line) => line.source === neighbor.address);
  const inside = lines.filter((line) => line.atUs > from && line.atUs < to).length;
  return { inside, seen: lines.length, fromUs: from, toUs: to, source: 'MONITOR' };
}

export interface NeighborLatencyPoint {
  /** When the command was sent, and its latency (repliedUs − sentUs). */
  atUs: number;
  latencyUs: number;
}

export interface NeighborLatencyBucket {
  fromUs: number;
  toUs: number;
  count: number;
  avgUs: number;
  maxUs: number;
}

export interface NeighborLatency {
  /** Commands replied by t0 (the baseline), and those in flight at any moment of the run [0, durationUs]. */
  before: LatencyStats;
  during: LatencyStats;
  /** Commands sent after the run's last reply (it is stopped right after: few or none). */
  after: number;
  /** Errors the neighbour got (a reply error or a lost connection). */
  errors: number;
}

/** Each command of the neighbour as a point in time; [] without a neighbour. */
export function neighborPoints(doc: TraceDocument): NeighborLatencyPoint[] {
  return (doc.neighbor?.commands ?? []).map((c) => ({ atUs: c.sentUs, latencyUs: c.repliedUs - c.sentUs }));
}

/** The neighbour's latency before the run and during it (redis-benchmark's figures); null without a neighbour. */
export function neighborLatency(doc: TraceDocument): NeighborLatency | null {
  if (!doc.neighbor) return null;
  const end = doc.totals.durationUs;
  const before: number[] = [];
  const during: number[] = [];
  let after = 0;
  let errors = 0;
  for (const c of doc.neighbor.commands) {
    if (c.error !== undefined) errors++;
    const latency = c.repliedUs - c.sentUs;
    if (c.repliedUs <= 0) before.push(latency);
    else if (c.sentUs <= end) during.push(latency);
    else after++;
  }
  const stats = (values: number[]) => statsOfSorted(Float64Array.from(values).sort());
  return { before: stats(before), during: stats(during), after, errors };
}

/**
 * The neighbour's latency over time in `buckets` equal spans of send time, from its first command to
 * its last (empty spans kept, count 0): what the chart draws when there are more points than pixels.
 */
export function neighborLatencyBuckets(doc: TraceDocument, buckets: number): NeighborLatencyBucket[] {
  const points = neighborPoints(doc);
  if (points.length === 0 || buckets < 1) return [];
  const first = points[0]!.atUs;
  const last = points[points.length - 1]!.atUs;
  const width = Math.max(1, (last - first) / buckets);
  const out: NeighborLatencyBucket[] = Array.from({ length: buckets }, (_, k) => ({ fromUs: first + k * width, toUs: first + (k + 1) * width, count: 0, avgUs: 0, maxUs: 0 }));
  for (const point of points) {
    const bucket = out[Math.min(buckets - 1, Math.floor((point.atUs - first) / width))]!;
    bucket.avgUs += point.latencyUs; // a sum until the end
    bucket.count++;
    bucket.maxUs = Math.max(bucket.maxUs, point.latencyUs);
  }
  for (const bucket of out) bucket.avgUs = bucket.count ? bucket.avgUs / bucket.count : 0;
  return out;
}

export interface HeldConnectionVerdict {
  /** µs from issuing the two PINGs to each one's reply. */
  sameWaitUs: number;
  otherWaitUs: number;
}

/** The held-connection comparison; null when the run did not ask for it. */
export function heldConnectionVerdict(doc: TraceDocument): HeldConnectionVerdict | null {
  const held = doc.heldConnection;
  if (!held) return null;
  return { sameWaitUs: held.sameConnectionRepliedUs - held.issuedUs, otherWaitUs: held.otherConnectionRepliedUs - held.issuedUs };
}

/** µs as the summaries print them: "850 µs", "41.2 ms", "1.25 s". */
export function formatWait(us: number): string {
  if (us < 1000) return `${Math.round(us)} µs`;
  if (us < 1_000_000) return `${(us / 1000).toFixed(1)} ms`;
  return `${(us / 1e6).toFixed(2)} s`;
}

/** The verdicts as sentences, each with its source: the CLI prints them, the browser shows them. */
export function neighborVerdictLines(doc: TraceDocument): string[] {
  const lines: string[] = [];
  const neighbor = doc.neighbor;
  if (neighbor) {
    const inside = neighborInsideRun(doc);
    const what = doc.run.mode === 'multi' ? 'your transaction' : doc.run.mode === 'eval' ? 'your script' : doc.run.mode === 'sequential' ? 'your run' : 'your pipeline';
    lines.push(inside
      ? `${inside.inside.toLocaleString('en-US')} of the neighbour's commands ran inside ${what} (MONITOR: between its first and last execution, ${formatWait(inside.toUs - inside.fromUs)})`
      : 'whether the neighbour ran inside the run needs MONITOR (turn it on)');
    const latency = neighborLatency(doc)!;
    const p99 = (s: LatencyStats) => (s.count >= 100 ? `p99 ${formatWait(s.p99Us)}` : `max ${formatWait(s.maxUs)} (n < 100 for p99)`);
    lines.push(`neighbour (${neighbor.command} at ${neighbor.ratePerSec.toLocaleString('en-US')}/s, its own connection ${neighbor.address}): ` +
      `during the run ${latency.during.count} commands, avg ${formatWait(latency.during.avgUs)}, p50 ${formatWait(latency.during.p50Us)}, ${p99(latency.during)}, max ${formatWait(latency.during.maxUs)}; ` +
      `before it ${latency.before.count}, avg ${formatWait(latency.before.avgUs)}, ${p99(latency.before)}` +
      (latency.errors ? `; ${latency.errors} errors` : '') + ' (neighbour client timings)');
  }
  const held = heldConnectionVerdict(doc);
  if (held) {
    lines.push(`a PING on the same connection waited ${formatWait(held.sameWaitUs)} behind the run; on a second connection ${formatWait(held.otherWaitUs)} (PING reply times)`);
  }
  return lines;
}
