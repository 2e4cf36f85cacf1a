// The shareable part of the app state, kept in the URL hash (#command=INCR&n=10&mode=both&scale=shared,
// plus &chunk=10000 when the mode has chunks, and &monitor=1, &strace=1, &cold=1, &repeats=K, &engine=raw
// when they are not the defaults) so a presenter can send a link that opens the same form. Links made
// before MONITOR and strace were apart say &serverTrace=1, which still means both. Parsing is tolerant:
// any missing or bad value falls back to its default and nothing ever throws.
import { COMMAND_NAMES, type CommandName, type RunMode } from '../../../trace/trace-format.ts';
import { DEFAULT_REPEATS, ENGINES, MAX_ADDED_RTT_MS, MAX_COMMANDS, MAX_JITTER_MS, MAX_REPEATS, MAX_VALUE_BYTES, type Engine } from '../../../trace/run-request.ts';

/** One mode, or a comparison: 'both' (sequential vs one pipeline, the original choice), 'pipeline-vs-chunked', 'all'. */
export const MODE_CHOICES = ['sequential', 'pipeline', 'chunked', 'both', 'pipeline-vs-chunked', 'all'] as const;
export type ModeChoice = (typeof MODE_CHOICES)[number];

/** The runs a choice asks for, in the order they run and are shown. */
export const MODES_OF: Record<ModeChoice, readonly RunMode[]> = {
  sequential: ['sequential'],
  pipeline: ['pipeline'],
  chunked: ['chunked'],
  both: ['sequential', 'pipeline'],
  'pipeline-vs-chunked': ['pipeline', 'chunked'],
  all: ['sequential', 'pipeline', 'chunked'],
};

/** Whether a choice includes a chunked run, which needs a chunk size. */
export const hasChunks = (mode: ModeChoice): boolean => MODES_OF[mode].includes('chunked');
export const SCALE_CHOICES = ['shared', 'own'] as const;
export type ScaleChoice = (typeof SCALE_CHOICES)[number];

export interface HashParams {
  command: CommandName;
  n: number;
  valueBytes: number;
  mode: ModeChoice;
  /** Chunked runs: commands per pipeline. */
  chunk: number;
  scale: ScaleChoice;
  /** Added round-trip time and jitter through the delay proxy, ms. */
  rttMs: number;
  jitterMs: number;
  /** The Redis-side probes: MONITOR (execution order and times) and strace (read()/write() calls). */
  monitor: boolean;
  strace: boolean;
  /** Skip the warm-up: the first command pays the connection's first-call costs. */
  cold: boolean;
  /** Runs of each mode, interleaved (runs of a second or more run once). */
  repeats: number;
  engine: Engine;
}

export const DEFAULT_HASH_PARAMS: HashParams = {
  command: 'INCR', n: 10, valueBytes: 16, mode: 'both', chunk: 10_000, scale: 'shared', rttMs: 0, jitterMs: 0, monitor: false, strace: false, cold: false,
  repeats: DEFAULT_REPEATS, engine: 'ioredis',
};

function oneOf<T extends string>(choices: readonly T[], value: string | null, fallback: T): T {
  if (value === null) return fallback;
  const match = choices.find((c) => c.toLowerCase() === value.trim().toLowerCase());
  return match ?? fallback;
}

/** 1/0, true/false, yes/no, on/off in any case; anything else is the fallback. */
function flag(value: string | null, fallback: boolean): boolean {
  const v = value?.trim().toLowerCase();
  if (v === '1' || v === 'true' || v === 'yes' || v === 'on') return true;
  if (v === '0' || v === 'false' || v === 'no' || v === 'off') return false;
  return fallback;
}

function decimal(value: string | null, max: number, fallback: number): number {
  if (value === null || !/^\s*\d+(\.\d+)?\s*$/.test(value)) return fallback;
  const n = Number(value);
  return Number.isFinite(n) && n >= 0 && n <= max ? n : fallback;
}

function wholeNumber(value: string | null, min: number, max: number, fallback: number): number {
  if (value === null || !/^\s*\d+\s*$/.test(value)) return fallback;
  const n = Number(value);
  return Number.isSafeInteger(n) && n >= min && n <= max ? n : fallback;
}

export function parseHashParams(hash: string): HashParams {
  let params: URLSearchParams;
  try {
    params = new URLSearchParams(hash.replace(/^#/, ''));
  } catch {
    return { ...DEFAULT_HASH_PARAMS };
  }
  const d = DEFAULT_HASH_PARAMS;
  return {
    command: oneOf(COMMAND_NAMES, params.get('command'), d.command),
    n: wholeNumber(params.get('n'), 1, MAX_COMMANDS, d.n),
    valueBytes: wholeNumber(params.get('valueBytes'), 0, MAX_VALUE_BYTES, d.valueBytes),
    mode: oneOf(MODE_CHOICES, params.get('mode'), d.mode),
    chunk: wholeNumber(params.get('chunk'), 1, MAX_COMMANDS, d.chunk),
    scale: oneOf(SCALE_CHOICES, params.get('scale'), d.scale),
    rttMs: decimal(params.get('rttMs'), MAX_ADDED_RTT_MS, d.rttMs),
    jitterMs: decimal(params.get('jitterMs'), MAX_JITTER_MS, d.jitterMs),
    // serverTrace=1 (older links) means both probes; monitor= and strace= say each on its own.
    monitor: flag(params.get('monitor'), flag(params.get('serverTrace'), d.monitor)),
    strace: flag(params.get('strace'), flag(params.get('serverTrace'), d.strace)),
    cold: flag(params.get('cold'), d.cold),
    repeats: wholeNumber(params.get('repeats'), 1, MAX_REPEATS, d.repeats),
    engine: oneOf(ENGINES, params.get('engine'), d.engine),
  };
}

export function formatHashParams(p: HashParams): string {
  const params = new URLSearchParams({ command: p.command, n: String(p.n), valueBytes: String(p.valueBytes), mode: p.mode });
  // The chunk size only when it matters or was changed, delay only when there is some: the usual link stays short.
  if (hasChunks(p.mode) || p.chunk !== DEFAULT_HASH_PARAMS.chunk) params.set('chunk', String(p.chunk));
  params.set('scale', p.scale);
  if (p.rttMs > 0) params.set('rttMs', String(p.rttMs));
  if (p.jitterMs > 0) params.set('jitterMs', String(p.jitterMs));
  if (p.monitor) params.set('monitor', '1');
  if (p.strace) params.set('strace', '1');
  if (p.cold) params.set('cold', '1');
  if (p.repeats !== DEFAULT_HASH_PARAMS.repeats) params.set('repeats', String(p.repeats));
  if (p.engine !== DEFAULT_HASH_PARAMS.engine) params.set('engine', p.engine);
  return `#${params.toString()}`;
}
