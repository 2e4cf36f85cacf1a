// How runs are named on screen, from their RunInfo: the badge, the panel title, the run pickers, the
// headlines and the progress lines all say "1,000,000 × SET (100 B values) in pipelines of 10,000" the
// same way. A chunked run's size comes from the trace (run.chunk) or from the request (spec.chunk).
import { commandTakesValue } from '../../../trace/format/run-request.ts';
import type { RunInfo, RunMode } from '../../../trace/format/trace-format.ts';
import { MODE_BADGES, runTitleText } from '../../../trace/export/export-words.ts';
import { formatCount } from './number-format.ts';

/** A trace's run (operations: the work asked for, v3) or a request (whose n is the operations). */
type Workload = Pick<RunInfo, 'n' | 'command' | 'valueBytes'> & { operations?: number };


/** The mode badge: Sequential, Pipeline, Chunked, MULTI/EXEC, EVAL, EVALSHA, Multi-key, Auto-pipelined. */
export function modeBadge(mode: RunMode): string {
  return MODE_BADGES[mode];
}

/** A run's mode starting a label ("One pipeline", "Chunks of 10,000"), or for an observed connection its badge. */
export function runModeLabel(run: Pick<RunInfo, 'mode' | 'chunk'> & Pick<Partial<RunInfo>, 'observed'>): string {
  return run.observed ? runBadge(run) : modeLabel(run.mode, run.chunk);
}

/** A run's badge: its mode's, or for an observed connection "Observed" and what it did (never two in flight, or pipelined). */
export function runBadge(run: Pick<RunInfo, 'mode'> & Pick<Partial<RunInfo>, 'observed'>): string {
  if (run.observed) return run.mode === 'sequential' ? 'Observed · one at a time' : 'Observed · pipelined';
  return MODE_BADGES[run.mode];
}

/** The mode inside a sentence: "sequential", "one pipeline", "chunks of 10,000" ("chunks" when the size is unknown). */
export function modePhrase(mode: RunMode, chunk?: number): string {
  if (mode === 'sequential') return 'sequential';
  if (mode === 'pipeline') return 'one pipeline';
  if (mode === 'chunked') return chunk === undefined ? 'chunks' : `chunks of ${formatCount(chunk)}`;
  return OTHER_PHRASES[mode];
}

const OTHER_PHRASES: Record<Exclude<RunMode, 'sequential' | 'pipeline' | 'chunked'>, string> = {
  multi: 'one MULTI/EXEC transaction',
  eval: 'one EVAL script',
  evalsha: 'EVALSHA calls in one pipeline',
  multikey: 'one multi-key command',
  auto: 'auto-pipelined by the client',
};

/** The mode starting a label or a button: "Sequential", "One pipeline", "Chunks of 10,000". */
export function modeLabel(mode: RunMode, chunk?: number): string {
  const phrase = modePhrase(mode, chunk);
  return phrase.charAt(0).toUpperCase() + phrase.slice(1);
}

/** "10 × INCR", "1,000,000 × SET (100 B values)": the operations, not the commands on the wire. */
export function workloadTitle(run: Workload & Pick<Partial<RunInfo>, 'observed'>): string {
  if (run.observed) return runTitleText({ ...run, operations: run.operations ?? run.n, mode: 'pipeline' });
  const value = commandTakesValue(run.command) ? ` (${formatCount(run.valueBytes)} B values)` : '';
  return `${formatCount(run.operations ?? run.n)} × ${run.command}${value}`;
}

/**
 * A run's title: its workload, and for a chunked run "in pipelines of C", or "in one pipeline of N"
 * when C ≥ N (10 commands do not make pipelines of 10,000).
 */
export function runTitle(run: Workload & Pick<RunInfo, 'mode' | 'chunk'> & Pick<Partial<RunInfo>, 'observed'>): string {
  return runTitleText({ ...run, operations: run.operations ?? run.n });
}

/**
 * The chunked choice in the run form's mode menu, from N and C as typed (null while not a number):
 * "N commands in pipelines of 1,000", or "Chunks of 10,000: here one pipeline of 10" when C ≥ N.
 */
export function chunkedChoiceLabel(n: number | null, chunk: number | null): string {
  const c = chunk === null ? 'C' : formatCount(chunk);
  if (n !== null && chunk !== null && chunk >= n) return `Chunks of ${c}: here one pipeline of ${formatCount(n)}`;
  return `N commands in pipelines of ${c}`;
}

/** How many pipelines a chunked run writes: ⌈n / chunk⌉ (the last one may be shorter). */
export function pipelineCount(n: number, chunk: number): number {
  return Math.ceil(n / Math.max(1, chunk));
}

/** The note beside the chunk size in the form: "100 pipelines, the last of 7", "C ≥ N: one pipeline". */
export function chunkNote(n: number, chunk: number): string | null {
  if (!(Number.isSafeInteger(n) && n > 0 && Number.isSafeInteger(chunk) && chunk > 0)) return null;
  if (chunk >= n) return `≥ N: one pipeline of ${formatCount(n)}`;
  const count = pipelineCount(n, chunk);
  const last = n - (count - 1) * chunk;
  return `${formatCount(count)} pipelines${last === chunk ? '' : `, the last of ${formatCount(last)}`}`;
}

const WIRE_LINES: Record<RunMode, string> = {
  sequential: 'one command, its reply awaited, then the next',
  pipeline: 'all N commands written at once, then the replies',
  chunked: 'pipelines of C commands, each one’s replies awaited before the next',
  multi: 'MULTI, your commands, EXEC — a transaction',
  eval: 'one EVAL: a Lua script does the work on Redis',
  evalsha: 'EVALSHA calls in one pipeline (script loaded first)',
  multikey: 'one MSET/MGET for all the keys',
  auto: 'no pipeline call: the client library batches same-tick commands',
};

/** What a mode puts on the wire, in one line for the run form: "MULTI, your commands, EXEC — a transaction". */
export function modeWireLine(mode: RunMode): string {
  return WIRE_LINES[mode];
}

/**
 * The empty results' heading for the modes chosen in the form: "Press Run to see sequential and one
 * pipeline side by side", "Press Run to see one MULTI/EXEC transaction" (one mode: nothing beside it).
 */
export function pressRunTitle(modes: readonly RunMode[], chunk?: number): string {
  const phrases = modes.map((m) => modePhrase(m, chunk));
  if (phrases.length === 0) return 'Pick a mode, then press Run';
  if (phrases.length === 1) return `Press Run to see ${phrases[0]}`;
  return `Press Run to see ${phrases.slice(0, -1).join(', ')} and ${phrases[phrases.length - 1]} side by side`;
}
