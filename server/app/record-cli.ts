// `npm run record`: records one run into a trace document (or, with `sweep`, a depth sweep into a
// sweep document) without a browser, for docs authors and scripts. Same runner, probes and
// TraceBuilder as the live view; prints a short summary.
// `npm run record -- compact IN [OUT]` converts a trace file to the form served to the web (compact, gzipped).
import { writeFileSync } from 'node:fs';
import { latencyStats, percentileNeeds } from '../../trace/derive/latency-stats.ts';
import { neighborVerdictLines } from '../../trace/derive/neighbor-verdicts.ts';
import { medianRepeat, spreadOver } from '../../trace/derive/repeat-stats.ts';
import { memorySampled } from '../../trace/format/run-request.ts';
import { compareRepeats, fastestGroup } from '../../trace/derive/run-pairs.ts';
import { verdictClause } from '../../trace/derive/verdict-words.ts';
import { DecodeLimitError } from '../../trace/format/decode-budget.ts';
import { runPhases, type PhaseName } from '../../trace/derive/run-phases.ts';
import type { TraceDocument } from '../../trace/format/trace-format.ts';
import { wireCommandName } from '../../trace/format/wire-layout.ts';
import { serializeSweep } from '../../trace/format/sweep-io.ts';
import { traceBundle } from '../../trace/format/trace-bundle.ts';
import { encodeCompactTrace } from '../../trace/format/compact-trace.ts';
import { pointOpsPerSec, pointServerReadsPerCommand, spreadOf, type SweepDocument } from '../../trace/format/sweep-format.ts';
import { formSizesText, gzip, isServedName, readDocumentFile, sizesOf, traceForms, writeTraceFile } from './cli/trace-files-node.ts';
import { CliError, RECORD_USAGE, optionsOrExit, parseCompactOptions, parseRecordOptions, parseSweepOptions } from './cli/cli-options.ts';
import { openRedis } from '../redis/open-redis.ts';
import { runRounds, type RoundsStop } from '../runs/run-rounds.ts';
import { executeSweep } from '../runs/sweep-executor.ts';
import { secretRedactor } from './access/secret-redactor.ts';
import { EXPORT_USAGE, parseExportOptions, runExport } from './cli/export-cli.ts';
import { OBSERVE_USAGE, parseObserveOptions, runObserve } from './cli/observe-cli.ts';

/** The Redis URL given, once parsed: an error message must not print its password. */
let redisUrl: string | undefined;

async function main(): Promise<void> {
  const argv = process.argv.slice(2);
  if (argv[0] === 'sweep') return sweep(argv.slice(1));
  if (argv[0] === 'compact') return compact(argv.slice(1));
  if (argv[0] === 'export') return exportFile(argv.slice(1));
  if (argv[0] === 'observe') {
    const options = optionsOrExit('record observe', OBSERVE_USAGE, () => parseObserveOptions(argv.slice(1), process.env));
    redisUrl = options.redisUrl;
    await runObserve(options);
    return;
  }
  const options = optionsOrExit('record', RECORD_USAGE, () => parseRecordOptions(process.argv.slice(2), process.env));
  redisUrl = options.redisUrl;
  const redis = await openRedis(options.redisUrl, options.cluster ? { cluster: options.cluster } : {});
  try {
    const { rounds, stop, docs } = await runRounds(redis.session, { ...options.spec, memory: memorySampled(options.spec) }, () => ({}));
    const groups = options.modes.map((mode) => docs.filter((d) => d.run.mode === mode));
    const single = groups.length === 1;
    for (const repeats of groups) {
      const doc = medianRepeat(repeats)!;
      const out = single ? options.out : withSuffix(options.out, doc.run.mode);
      const bytes = writeTraceFile(out, doc);
      console.log(runReport(doc, repeats, redis.description, out));
      if (isServedName(out)) console.log(`  (the served form: compact, gzipped, ${bytes.toLocaleString('en-US')} B, ${(bytes / doc.run.n).toFixed(2)} B/command)`);
      if (options.everyRepeat) {
        for (const run of repeats) writeTraceFile(withSuffix(options.out, `${run.run.mode}-r${run.run.repeat}`), run);
        console.log(`  every run written to ${withSuffix(options.out, `${doc.run.mode}-rK`)} (K = 0…${repeats.length - 1})`);
      }
    }
    if (!single) console.log(verdictReport(groups, rounds, stop));
  } finally {
    await redis.close();
  }
}

/** "out.json" with "pipeline" → "out-pipeline.json" (before .json, .json.gz or .gz). */
function withSuffix(out: string, suffix: string): string {
  const match = /(\.json\.gz|\.json|\.gz)$/.exec(out);
  return match ? `${out.slice(0, match.index)}-${suffix}${match[1]}` : `${out}-${suffix}`;
}

/**
 * Several modes: each against the fastest one, as the web words it (trace/derive/verdict-words.ts),
 * with how many rounds ran and why they stopped.
 */
function verdictReport(groups: readonly TraceDocument[][], rounds: number, stop: RoundsStop): string {
  const fastest = fastestGroup(groups);
  const name = (g: readonly TraceDocument[]) => g[0]!.run.mode + (g[0]!.run.chunk ? ` (chunks of ${g[0]!.run.chunk})` : '');
  const lines = [`verdict (client socket, t0 → last reply; median of the per-round ratios, sign-test 95 % interval; docs/verdicts.md):`];
  groups.forEach((g, i) => {
    if (i === fastest) return;
    lines.push(`  ${name(g)} vs ${name(groups[fastest]!)}: ${verdictClause(compareRepeats(g, groups[fastest]!), name(g), name(groups[fastest]!))}`);
  });
  lines.push(`  ${rounds.toLocaleString('en-US')} round${rounds === 1 ? '' : 's'}, the order alternating; stopped: ${STOP_WORDS[stop]}`);
  return lines.join('\n');
}

const STOP_WORDS: Record<RoundsStop, string> = {
  certain: 'certain at a checkpoint (every 95 % interval against the fastest excluded 1)',
  limit: 'the limit of rounds, not certain',
  planned: 'the rounds asked for',
  slow: 'a run took a second or more, so the request is not repeated',
};

/** What the CLI prints for a recorded run: figures with their sources, median [min–max] over repeats. */
function runReport(doc: TraceDocument, repeats: readonly TraceDocument[], where: string, out: string): string {
  const ms = (us: number) => `${(us / 1000).toFixed(2)} ms`;
  const spread = (figure: (d: TraceDocument) => number, show: (x: number) => string) => {
    const s = spreadOver(repeats, figure);
    return repeats.length > 1 ? `${show(s.median)} [${show(s.min)}–${show(s.max)}]` : show(s.median);
  };
  const int = (x: number) => Math.round(x).toLocaleString('en-US');
  const stats = latencyStats(doc);
  const pct = (p: 50 | 95 | 99, us: number) => (stats.count >= percentileNeeds(p) ? `p${p} ${int(us)}` : `p${p} n/a (n < ${percentileNeeds(p)})`);
  const { client, server } = doc.counts;
  const peak = (values: number[]) => (values.length ? formatBytes(Math.max(...values)) : 'no sample');
  const lines = [
    `${doc.run.mode} ${doc.run.operations} × ${doc.run.command}${doc.run.chunk ? ` in pipelines of ${doc.run.chunk}` : ''}` +
      `${doc.run.chunkPauseMs ? `, ${doc.run.chunkPauseMs} ms pause between them` : ''} on ${where}` +
      (doc.rtt.addedMs || doc.rtt.jitterMs ? `, added delay: ${doc.rtt.addedMs} ms RTT ± ${doc.rtt.jitterMs} ms (proxy)` : ''),
    `  ${doc.run.warmup ? `warm connection: ${doc.run.warmup.commands} warm-up commands before t0 (${ms(doc.run.warmup.durationUs)})` : 'cold connection: no warm-up'}; ` +
      `RTT before t0: min ${doc.rtt.measuredMinUs} µs, median ${doc.rtt.measuredMedianUs} µs (PING ×${doc.rtt.samples})`,
    `  total ${spread((d) => d.totals.durationUs, ms)}, ${spread((d) => d.totals.opsPerSec, int)} ops/s` +
      (repeats.length > 1 ? ` (median [min–max] of ${repeats.length} repeats; the trace is the median one)` : ''),
    `  latency µs (client socket): avg ${int(stats.avgUs)} min ${int(stats.minUs)} ${pct(50, stats.p50Us)} ${pct(95, stats.p95Us)} ${pct(99, stats.p99Us)} max ${int(stats.maxUs)}`,
    `  where the time went: ${runPhases(doc).map((p) => `${PHASE_LABELS[p.name]} ${ms(p.us)}`).join(', ')} (= ${ms(doc.totals.doneUs)} until the call returned)`,
    `  client socket: ${count(client.writes, 'write')}, ${count(client.reads, 'read')}; Redis INFO: ${count(server.reads, 'read event')}, ${count(server.writes, 'write event')}`,
  ];
  lines.splice(1, 0, ...modeLines(doc));
  if (doc.kernelTcp) {
    lines.push('unavailable' in doc.kernelTcp
      ? `  kernel (ss): ${doc.kernelTcp.unavailable}`
      : `  kernel (ss): ${doc.kernelTcp.segmentsOut} segments out (${doc.kernelTcp.dataSegmentsOut} with data), ${doc.kernelTcp.segmentsIn} in, ${doc.kernelTcp.retransmits} retransmits`);
  }
  if (doc.memory) {
    lines.push(`  memory peaks: Redis run connection ${peak(doc.memory.server.samples.map((s) => s.totMem))} (CLIENT LIST tot-mem), ` +
      `used_memory ${peak(doc.memory.server.samples.map((s) => s.usedMemory))}; client heap ${peak(doc.memory.client.samples.map((s) => s.heapUsed))}, ` +
      `RSS ${peak(doc.memory.client.samples.map((s) => s.rss))}`);
  }
  for (const verdict of neighborVerdictLines(doc)) lines.push(`  ${verdict}`);
  lines.push(`  trace written to ${out}`);
  return lines.join('\n');
}

/** v3: operations against wire commands, the planted error and where it landed, the keys read back. */
function modeLines(doc: TraceDocument): string[] {
  const { run } = doc;
  const lines: string[] = [];
  if (run.n !== run.operations || !['sequential', 'pipeline', 'chunked'].includes(run.mode)) {
    const names = [...new Set(Array.from({ length: Math.min(run.n, 3) }, (_, i) => wireCommandName(run, i)).concat(wireCommandName(run, run.n - 1)))];
    lines.push(`  ${count(run.operations, 'operation')} as ${count(run.n, 'wire command')} (${names.join(', ')}); ops/s counts operations`);
  }
  if (run.injectedError) {
    const errors = doc.commands.filter((c) => 'error' in c).length;
    lines.push(`  planted ${run.injectedError.kind} error at operation ${run.injectedError.operation}: ${errors} error repl${errors === 1 ? 'y' : 'ies'} on the wire` +
      (run.mode === 'multi' && run.injectedError.kind === 'runtime' ? ' (a runtime error inside MULTI is an element of EXEC\'s array)' : '') +
      (doc.commands.length ? `; last reply: ${String(replyText(doc.commands.at(-1)!))}` : ''));
  }
  if (doc.keysAfter) {
    const shown = doc.keysAfter.keys.slice(0, KEYS_SHOWN).map(({ key, value }) => `${key.replace(/^pipescope:[^:]+:/, '')}=${value ?? '(none)'}`);
    const more = doc.keysAfter.keys.length - shown.length;
    lines.push(`  keys after the run (GET on Pipescope's connection, before deletion): ${shown.join(' ')}` +
      (more > 0 || doc.keysAfter.truncated ? ` … ${more > 0 ? `${more} more` : ''}${doc.keysAfter.truncated ? ' (truncated)' : ''}` : ''));
  }
  lines.push(...clusterLines(doc));
  return lines;
}

/** A cluster run: the redirects met, by kind, and a resharding run's move with its checked answers. */
function clusterLines(doc: TraceDocument): string[] {
  const cluster = doc.cluster;
  if (!cluster) return [];
  const lines: string[] = [];
  if (cluster.redirects.length) {
    const kinds = new Map<string, number>();
    for (const redirect of cluster.redirects) kinds.set(redirect.kind, (kinds.get(redirect.kind) ?? 0) + 1);
    lines.push(`  redirects (cluster.redirects): ${[...kinds].map(([kind, n]) => `${n.toLocaleString('en-US')} ${kind}`).join(', ')}; ` +
      `${count(doc.run.redirectCommands?.resent ?? 0, 'command')} sent again, ${count(doc.run.redirectCommands?.asking.length ?? 0, 'ASKING')} before them`);
  }
  const move = cluster.reshard;
  if (move) {
    const at = (us: number | undefined) => (us === undefined ? 'not reached' : `${(us / 1000).toFixed(2)} ms`);
    lines.push(`  reshard: slot ${move.slot} (${count(move.keys, 'key')}) began ${at(move.startedUs)}, keys moved ${at(move.keysMovedUs)}, ` +
      `every master told ${at(move.doneUs)} after t0; ${move.checked.toLocaleString('en-US')} answers checked, ${move.wrong.toLocaleString('en-US')} wrong` +
      (move.error ? `; stopped: ${move.error}` : ''));
  }
  return lines;
}

const KEYS_SHOWN = 12;

function replyText(command: TraceDocument['commands'][number]): string {
  return 'error' in command ? `(error) ${command.error}` : String(command.reply);
}

/** The CLI's words for each phase of a run's time. */
const PHASE_LABELS: Record<PhaseName, string> = {
  beforeFirstWrite: 'client before the first write',
  awaiting: 'bytes out, replies awaited',
  redisExec: 'Redis executing (INFO commandstats)',
  clientBetween: 'client between a reply and its next write',
  afterLastRead: 'client after the last read',
};

function formatBytes(bytes: number): string {
  return bytes >= 1024 * 1024 ? `${(bytes / 1024 / 1024).toFixed(1)} MiB` : `${(bytes / 1024).toFixed(1)} KiB`;
}

/** `record export FILE --format F [--out OUT]`: no Redis; the text on stdout (or in OUT, then a line saying so on stderr). */
function exportFile(argv: string[]): void {
  const options = optionsOrExit('record export', EXPORT_USAGE, () => parseExportOptions(argv));
  let result: ReturnType<typeof runExport>;
  try {
    result = runExport(options);
  } catch (error) {
    // A format that does not fit the file (a sweep as Mermaid) is a usage error; an unreadable or invalid file is
    // not; a file refused for what it would cost to read (decode-budget.ts) exits 2 with its one line.
    const usage = error instanceof CliError;
    console.error(`record export: ${(error as Error).message}${usage ? `\n${EXPORT_USAGE}` : ''}`);
    process.exit(usage || error instanceof DecodeLimitError ? 2 : 1);
  }
  if (result.written) console.error(`${options.format} written to ${result.written}`);
  else process.stdout.write(result.text);
}

async function sweep(argv: string[]): Promise<void> {
  const options = optionsOrExit('record sweep', RECORD_USAGE, () => parseSweepOptions(argv, process.env));
  redisUrl = options.redisUrl;
  const redis = await openRedis(options.redisUrl, options.cluster ? { cluster: options.cluster } : {});
  try {
    const { spec } = options;
    console.log(`sweep: ${spec.perPoint} × ${spec.command} per point, ${spec.repeats} repeats, depths ${spec.depths.join(', ')}, ${spec.engine} engine, untraced, on ${redis.description}`);
    const live = process.stderr.isTTY; // a progress line that rewrites itself; nothing when piped
    const doc = await executeSweep(redis.session, spec, {
      onProgress: (p) => live && process.stderr.write(`\r  ${p.tool} depth ${p.depth} repeat ${p.repeat} (${p.done}/${p.total})   `),
    });
    if (live) process.stderr.write('\r\x1b[K');
    // A sweep has no compact form: a .gz name gets its plain JSON gzipped.
    writeFileSync(options.out, isServedName(options.out) ? gzip(serializeSweep(doc)) : serializeSweep(doc));
    console.log(sweepTable(doc));
    console.log(`  sweep written to ${options.out}`);
  } finally {
    await redis.close();
  }
}

/** `compact IN [OUT]`: any trace file in the served form (or, for OUT.json, compact but not gzipped). */
async function compact(argv: string[]): Promise<void> {
  const { input, out } = optionsOrExit('record compact', RECORD_USAGE, () => parseCompactOptions(argv));
  const { document, bytes } = readDocumentFile(input);
  if (document.kind === 'sweep') throw new Error(`${input} is a depth sweep; only traces have a compact form (gzip it as it is: gzip -9k ${input})`);
  if (document.kind === 'traces') {
    // A compare saved as one file: its compact form is the bundle's, in the same order.
    const compactText = encodeCompactTrace(traceBundle(document.docs));
    const written = isServedName(out) ? gzip(compactText) : Buffer.from(compactText, 'utf8');
    writeFileSync(out, written);
    console.log(`compact: ${input} (${bytes.toLocaleString('en-US')} B, ${document.docs.length} runs) → ${out} (${written.length.toLocaleString('en-US')} B)`);
    return;
  }
  const doc = document.doc;
  // Each form encoded once: the one written and the sizes printed come from the same bytes.
  const forms = traceForms(doc);
  const form = isServedName(out) ? 'compactGzip' : 'compact';
  writeFileSync(out, forms[form]);
  console.log(`compact: ${input} (${bytes.toLocaleString('en-US')} B, ${doc.run.mode} ${doc.run.n.toLocaleString('en-US')} × ${doc.run.command}) → ${out} (${forms[form].length.toLocaleString('en-US')} B)`);
  console.log(formSizesText(sizesOf(forms), doc.run.n, form));
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
  console.error(`record: ${secretRedactor(redisUrl)(error.message)}`);
  process.exit(error instanceof DecodeLimitError ? 2 : 1);
});

/** "1 write", "1,000 writes". */
function count(n: number, one: string): string {
  return `${n.toLocaleString('en-US')} ${n === 1 ? one : `${one}s`}`;
}
