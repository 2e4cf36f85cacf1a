// The gallery's sentences: why a live ratio differs from a published one (which side moved it: the
// sequential commands, that is the round trip, or the pipelined ones, that is the client and machine),
// the added RTT at which the model puts the live ratio on the published one or why none does, and what
// the netcat example's raw socket saw. Every number comes from the live traces or the published data
// (model/pipelining-gap.ts); only the wording lives here. Pure, unit-tested.
import { MAX_ADDED_RTT_MS } from '../../../trace/format/run-request.ts';
import type { TraceDocument } from '../../../trace/format/trace-format.ts';
import { commandCosts, effectiveRttUs, perCommandComparison, ratioAtRtt, type GapEstimate, type LivePair, type RttMatch } from '../model/pipelining-gap.ts';
import type { PublishedBenchmark } from '../model/published-benchmarks.ts';
import { formatBytes, formatCount, formatUs, plural } from './number-format.ts';

/** "75×", "4.7×", "1.2×": whole above 10, one decimal below. */
export function factorText(ratio: number): string {
  if (!Number.isFinite(ratio)) return '—';
  // 9.96 rounds to 10 with one decimal: print it whole, as every ratio from 10 up.
  return `${ratio >= 9.95 ? formatCount(Math.round(ratio)) : ratio.toFixed(1)}×`;
}

/**
 * The added RTT to ask the delay proxy for, ms, from the model's µs: rounded to 0.01 ms (10 µs, finer
 * than the proxy keeps) and at least 0.01 ms, at most the proxy's maximum.
 */
export function addedRttMs(addedUs: number): number {
  return Math.min(MAX_ADDED_RTT_MS, Math.max(0.01, Math.round(addedUs / 10) / 100));
}

/** "0.32 ms", "1,000 ms": an added RTT as the button and the delay proxy's label say it. */
export function rttMsText(ms: number): string {
  return `${ms >= 100 ? formatCount(ms) : Number(ms.toPrecision(3))} ms`;
}

/** The verdict in a few words, for the sentence that gives its range. */
function matchPhrase(m: RttMatch): string {
  switch (m.kind) {
    case 'match':
      return m.addedCapped ? `more than the proxy's ${formatCount(MAX_ADDED_RTT_MS)} ms` : `${rttMsText(addedRttMs(m.addedUs))} of added RTT`;
    case 'below-loopback':
      return 'a round trip shorter than loopback’s';
    case 'pipelined-costlier':
      return 'no RTT at all';
    case 'beyond-n':
      return 'no RTT at all';
  }
}

/**
 * Where the model puts our ratio on the published one, from the medians; with the range the ends of the
 * ratio's 95 % interval give when they agree on the kind of answer, and as "noise could flip it" when they do not.
 */
export function gapText(b: PublishedBenchmark, pair: LivePair, est: GapEstimate): string {
  const ratio = b.figures?.ratioText ?? '—';
  const { sequentialUs: s, pipelinedUs: p } = est.costs;
  const sequential = s > 0 ? `${formatUs(s)} sequentially` : 'nothing measurable sequentially';
  const rtt =
    est.rttCapped ?
      `at most ${formatUs(est.rttUs)}: the ${formatUs(pair.rttUs)} probed before the run read longer than a sequential command took`
    : `${formatUs(pair.rttUs)} measured on this connection`;
  const costs = `Besides the round trip (${rtt}), each command cost ${sequential} and ${formatUs(p)} pipelined here.`;
  if (est.noiseCouldFlip) {
    return (
      `${costs} Noise could flip the answer: the medians call for ${matchPhrase(est.match)} to reach ${ratio}, ` +
      `the ends of the ratio’s 95 % interval for ${matchPhrase(est.low)} to ${matchPhrase(est.high)}.`
    );
  }
  const m = est.match;
  switch (m.kind) {
    case 'match': {
      if (m.addedCapped) {
        return (
          `${costs} Our ratio would reach ${ratio} only with more than the delay proxy’s ${formatCount(MAX_ADDED_RTT_MS)} ms of added RTT; ` +
          `at ${formatCount(MAX_ADDED_RTT_MS)} ms the model gives ${factorText(m.ratioAtCap ?? NaN)}.`
        );
      }
      const range = est.low.kind === 'match' && est.high.kind === 'match' ? addedRange(est.low.addedUs, est.high.addedUs) : '';
      return (
        `${costs} With a round trip of ${formatUs(m.roundTripUs)} the model puts our ratio at ${ratio}: ` +
        `${rttMsText(addedRttMs(m.addedUs))}${range} more than this connection’s own.`
      );
    }
    case 'below-loopback':
      return (
        `${costs} The model reaches ${ratio} at a round trip of ${formatUs(m.roundTripUs)}, shorter than the loopback one measured here: ` +
        `our ratio is past theirs already, and added delay only raises it.`
      );
    case 'pipelined-costlier':
      return (
        `${costs} No added RTT brings our ratio to ${ratio}: with no round trip at all it would still be ${factorText(m.zeroRttRatio)}. ` +
        `The published client spent more per pipelined command, against a sequential one, than this one: its ratio is lower than ours at any RTT.`
      );
    case 'beyond-n':
      return `${costs} No RTT reaches ${ratio}: ${formatCount(pair.n)} commands in one pipeline can be at most ${formatCount(pair.n)} times faster than one at a time.`;
  }
}

/** " [0.25–0.41 ms]", or "" when both ends round alike. */
function addedRange(lowUs: number, highUs: number): string {
  const lo = rttMsText(addedRttMs(lowUs));
  const hi = rttMsText(addedRttMs(highUs));
  return lo === hi ? '' : ` [${lo.replace(' ms', '')}–${hi}]`;
}

/** Why the sequential commands differ, in a clause: the network (the round trip) or the machine. */
function sequentialCause(b: PublishedBenchmark): string {
  if (b.networkKind === 'network') return `the round trip over ${b.network.replace(/ \(.*\)$/, '')}, against loopback here`;
  if (b.networkKind === 'loopback') {
    return 'both ran on loopback, so it is the machine: each command waits while the kernel switches between client and Redis';
  }
  return `${b.shortName} does not state its network; here it is loopback`;
}

/** Why the pipelined commands differ, in a clause: the client and machine, with our client's own share when known. */
function pipelinedCause(b: PublishedBenchmark, pair: LivePair, firstWriteUs: number | null): string {
  const there = `${b.client} there (machine: ${b.machine})`;
  const ours = `${clientHere(b)} here`;
  const before =
    firstWriteUs === null ? ''
    : `; ${formatUs(firstWriteUs)} of our pipeline’s ${formatUs(pair.pipelineUs.median)} passed in the client before its first byte left`;
  return `the client and machine: ${there}, ${ours}${before}`;
}

/** "37% of it the 40.5 µs round trip", or "no more than the 53.5 µs round trip measured before the run". */
function rttShareText(rttUs: number, perCommandUs: number): string {
  if (rttUs >= perCommandUs) return `no more than the ${formatUs(rttUs)} round trip measured before the run`;
  return `${Math.round((100 * rttUs) / perCommandUs)}% of it the ${formatUs(rttUs)} round trip`;
}

/** "3.2× less here" / "1.5× more here": a published time per command set against ours (published ÷ live). */
const lessOrMore = (factor: number) => (factor >= 1 ? `${factorText(factor)} less here` : `${factorText(1 / factor)} more here`);

/** Ratios closer than this (as a factor) read as "close". */
const CLOSE = 1.1;

/**
 * Why the live ratio differs from the published one, from the live medians: per command, each mode's
 * time there and here. liveRatio ÷ publishedRatio = pipelinedFactor ÷ sequentialFactor, so the side whose
 * factor is further from 1 moved the ratio more. firstWriteUs: the median pipeline run's first write (µs
 * after t0), the time our client spent before sending anything.
 */
export function whyDiffersText(b: PublishedBenchmark, pair: LivePair, firstWriteUs: number | null = null): string {
  const liveSeq = pair.sequentialUs.median / pair.n;
  const livePipe = pair.pipelineUs.median / pair.n;
  const liveRatio = pair.sequentialUs.median / pair.pipelineUs.median;
  const rttShare = rttShareText(pair.rttUs, liveSeq);
  const f = b.figures;
  if (!f || f.sequentialMs === null || f.pipelineMs === null) {
    return (
      `${capitalise(b.shortName)} gives only its ratio, so its times cannot be set beside ours. Here a sequential ${b.spec.command} took ` +
      `${formatUs(liveSeq)} (${rttShare}) and a pipelined one ${formatUs(livePipe)}, ${factorText(liveRatio)} apart. ` +
      `${networkThere(b)}: every sequential command pays that round trip, one pipeline pays it once.`
    );
  }
  const c = perCommandComparison({ sequentialMs: f.sequentialMs, pipelineMs: f.pipelineMs }, pair.n, {
    sequentialUs: pair.sequentialUs.median,
    pipelineUs: pair.pipelineUs.median,
  });
  const perCommand =
    `Per command, ${b.shortName} measured ${formatUs(c.publishedSequentialUs)} sequentially and ${formatUs(c.publishedPipelinedUs)} pipelined; ` +
    `here ${formatUs(c.liveSequentialUs)} (${rttShare}; ${lessOrMore(c.sequentialFactor)}) and ${formatUs(c.livePipelinedUs)} (${lessOrMore(c.pipelinedFactor)}).`;
  const change = c.pipelinedFactor / c.sequentialFactor;
  if (change < CLOSE && change > 1 / CLOSE) return `${perCommand} Both sides differ about alike, so the ratios come out close.`;
  const direction = change > 1 ? 'higher' : 'lower';
  const sequentialMoved = Math.abs(Math.log(c.sequentialFactor)) > Math.abs(Math.log(c.pipelinedFactor));
  const cause = sequentialMoved ? `sequential side — ${sequentialCause(b)}` : `pipelined side — ${pipelinedCause(b, pair, firstWriteUs)}`;
  return `${perCommand} Our ratio is ${direction} mostly because of the ${cause}.`;
}

/** "Its client reached Redis over a network across a city, whose round trip it does not state". */
function networkThere(b: PublishedBenchmark): string {
  const network = b.network.replace(/ \(.*\)$/, '');
  if (b.networkKind === 'network') return `Its client reached Redis over ${network}, whose round trip it does not state`;
  if (b.networkKind === 'loopback') return 'Its client reached Redis over loopback, as here';
  return 'It does not state its network; here it is loopback';
}

function clientHere(b: PublishedBenchmark): string {
  return b.spec.engine === 'raw' ? 'a plain socket' : b.spec.engine === 'node-redis' ? 'node-redis' : 'ioredis on Node';
}

const capitalise = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);

/**
 * What the netcat example's run saw at the client socket (and, when strace could attach, Redis's
 * read() calls): "1 write() of 18 B carried PING\r\nPING\r\nPING\r\n; 3 replies came back in 1 read:
 * +PONG\r\n+PONG\r\n+PONG\r\n (client socket). Redis read the commands with 1 read() (strace)."
 */
export function netcatText(doc: TraceDocument): string {
  const writes = doc.writes;
  const reads = doc.reads;
  const sent = writes.map((w) => w.head ?? '').join('');
  const received = reads.map((r) => r.head ?? '').join('');
  const bytesOut = writes.reduce((sum, w) => sum + w.bytes, 0);
  const replies = doc.commands.length;
  const client =
    `${plural(writes.length, 'write()', 'write() calls')} of ${formatBytes(bytesOut)} carried ${sent || 'the commands'}; ` +
    `${plural(replies, 'reply', 'replies')} came back in ${plural(reads.length, 'read')}${received ? `: ${received}` : ''} (client socket).`;
  const calls = doc.serverTrace?.syscalls?.calls.filter((c) => c.call === 'read' && c.result > 0);
  if (!calls || calls.length === 0) return client;
  return `${client} Redis read the ${plural(doc.run.n, 'command')} with ${plural(calls.length, 'read()', 'read() calls')} (strace).`;
}

/**
 * What the model, fitted on the run without delay, says of the rerun through the delay proxy: the ratio
 * at the round trip asked for (this connection's own plus the added RTT), then what it expected of each
 * mode against what the rerun measured, so a surprise shows where it came from (a busy machine moves the
 * pipeline's time far more than the proxy's delay does). The RTT probed through the proxy before t0 is
 * not used: its first round trips pay the proxy's start and read longer than the run's own.
 */
export function delayedPredictionText(direct: LivePair, delayed: LivePair, addedMs: number, publishedRatioText: string): string {
  const rttUs = effectiveRttUs(direct);
  const costs = commandCosts(direct.n, direct.sequentialUs.median, direct.pipelineUs.median, rttUs);
  const askedUs = rttUs + addedMs * 1000;
  const expectedSeqUs = askedUs + costs.sequentialUs;
  const expectedPipeUs = askedUs + direct.n * costs.pipelinedUs;
  const measuredSeqUs = delayed.sequentialUs.median / delayed.n;
  const extraUs = measuredSeqUs - expectedSeqUs;
  const slower =
    extraUs > 0.2 * expectedSeqUs ?
      ` Each sequential round trip took ${formatUs(extraUs)} more than the delay asked for: the proxy’s own relay, or a busier machine than during the run without delay.`
    : '';
  return (
    `The model, fitted on the run without delay, predicted ${factorText(ratioAtRtt(direct.n, costs, askedUs))} at this round trip ` +
    `(${formatUs(askedUs)}: the connection’s ${formatUs(rttUs)} plus ${rttMsText(addedMs)} added); published: ${publishedRatioText}. ` +
    `Expected against measured: ${formatUs(expectedSeqUs)} against ${formatUs(measuredSeqUs)} per sequential command, ` +
    `${formatUs(expectedPipeUs)} against ${formatUs(delayed.pipelineUs.median)} for the pipeline.${slower}`
  );
}
