// The shareable part of the app state, kept in the URL hash (#command=INCR&n=10&mode=both&scale=shared,
// plus &chunk=10000 when the mode has chunks, and &monitor=1, &strace=1, &cold=1, &repeats=K, &engine=raw
// when they are not the defaults) so a presenter can send a link that opens the same form. Links made
// before MONITOR and strace were apart say &serverTrace=1, which still means both. Parsing is tolerant:
// any missing or bad value falls back to its default and nothing ever throws.
// Issue 12's fields: mode=custom&modes=multi,eval (the modes picked one by one), chunkPauseMs, errorAt
// and errorKind (a planted error; no errorAt: none), neighborRate, neighborCommand, heldConnection.
import { COMMAND_NAMES, NEIGHBOR_COMMANDS, RUN_MODES, type CommandName, type RunMode } from '../../../trace/format/trace-format.ts';
import {
  DEFAULT_REPEATS, ENGINES, MAX_ADDED_RTT_MS, MAX_CHUNK_PAUSE_MS, MAX_COMMANDS, MAX_JITTER_MS, MAX_NEIGHBOR_RATE, MAX_REPEATS, MAX_VALUE_BYTES,
  type Engine,
} from '../../../trace/format/run-request.ts';

/**
 * One mode, or a comparison: 'both' (sequential vs one pipeline, the original choice), 'pipeline-vs-chunked',
 * 'all', or 'custom': the modes ticked one by one (HashParams.modes).
 */
export const MODE_CHOICES = [
  'sequential', 'pipeline', 'chunked', 'multi', 'eval', 'evalsha', 'multikey', 'auto', 'both', 'pipeline-vs-chunked', 'all', 'custom',
] as const;
export type ModeChoice = (typeof MODE_CHOICES)[number];

/** The runs a choice asks for, in the order they run and are shown ('custom': none here, see chosenModes). */
export const MODES_OF: Record<ModeChoice, readonly RunMode[]> = {
  sequential: ['sequential'],
  pipeline: ['pipeline'],
  chunked: ['chunked'],
  multi: ['multi'],
  eval: ['eval'],
  evalsha: ['evalsha'],
  multikey: ['multikey'],
  auto: ['auto'],
  both: ['sequential', 'pipeline'],
  'pipeline-vs-chunked': ['pipeline', 'chunked'],
  all: ['sequential', 'pipeline', 'chunked'],
  custom: [],
};

/** The modes a choice runs: the fixed list, or for 'custom' the ticked ones in RUN_MODES order. */
export function chosenModes(mode: ModeChoice, custom: readonly RunMode[]): RunMode[] {
  return mode === 'custom' ? RUN_MODES.filter((m) => custom.includes(m)) : [...MODES_OF[mode]];
}

/** Whether a choice includes a chunked run, which needs a chunk size. */
export const hasChunks = (mode: ModeChoice, custom: readonly RunMode[] = []): boolean => chosenModes(mode, custom).includes('chunked');
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
  /** mode=custom: the modes ticked, in RUN_MODES order, each once. */
  modes: RunMode[];
  /** Chunked runs: ms between one pipeline's replies and the next pipeline. */
  chunkPauseMs: number;
  /** A planted failing INCR at this operation (from 0), or null for none; and its kind. */
  errorAt: number | null;
  errorKind: 'runtime' | 'queueing';
  /** A neighbour client's rate per second (0: none) and command; the held-connection probe. */
  neighborRate: number;
  neighborCommand: (typeof NEIGHBOR_COMMANDS)[number];
  heldConnection: boolean;
}

export const DEFAULT_HASH_PARAMS: HashParams = {
  command: 'INCR', n: 10, valueBytes: 16, mode: 'both', chunk: 10_000, scale: 'shared', rttMs: 0, jitterMs: 0, monitor: false, strace: false, cold: false,
  repeats: DEFAULT_REPEATS, engine: 'ioredis', modes: ['sequential', 'pipeline'], chunkPauseMs: 0, errorAt: null, errorKind: 'runtime', neighborRate: 0,
  neighborCommand: 'INCR', heldConnection: false,
};

/** A comma list of modes: unknown names and repeats dropped, RUN_MODES order; nothing left: the fallback. */
function modeList(value: string | null, fallback: RunMode[]): RunMode[] {
  if (value === null) return [...fallback];
  const named = new Set(value.split(',').map((m) => m.trim().toLowerCase()));
  const modes = RUN_MODES.filter((m) => named.has(m));
  return modes.length > 0 ? modes : [...fallback];
}

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

function wholeNumberOrNull(value: string | null, max: number): number | null {
  const n = wholeNumber(value, 0, max, -1);
  return n < 0 ? null : n;
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
    modes: modeList(params.get('modes'), d.modes),
    chunkPauseMs: decimal(params.get('chunkPauseMs'), MAX_CHUNK_PAUSE_MS, d.chunkPauseMs),
    errorAt: params.get('errorAt') === null ? d.errorAt : wholeNumberOrNull(params.get('errorAt'), MAX_COMMANDS - 1),
    errorKind: oneOf(['runtime', 'queueing'] as const, params.get('errorKind'), d.errorKind),
    neighborRate: decimal(params.get('neighborRate'), MAX_NEIGHBOR_RATE, d.neighborRate),
    neighborCommand: oneOf(NEIGHBOR_COMMANDS, params.get('neighborCommand'), d.neighborCommand),
    heldConnection: flag(params.get('heldConnection'), d.heldConnection),
  };
}

export function formatHashParams(p: HashParams): string {
  const params = new URLSearchParams({ command: p.command, n: String(p.n), valueBytes: String(p.valueBytes), mode: p.mode });
  // The chunk size only when it matters or was changed, delay only when there is some: the usual link stays short.
  if (p.mode === 'custom') params.set('modes', p.modes.join(','));
  if (hasChunks(p.mode, p.modes) || p.chunk !== DEFAULT_HASH_PARAMS.chunk) params.set('chunk', String(p.chunk));
  params.set('scale', p.scale);
  if (p.rttMs > 0) params.set('rttMs', String(p.rttMs));
  if (p.jitterMs > 0) params.set('jitterMs', String(p.jitterMs));
  if (p.monitor) params.set('monitor', '1');
  if (p.strace) params.set('strace', '1');
  if (p.cold) params.set('cold', '1');
  if (p.repeats !== DEFAULT_HASH_PARAMS.repeats) params.set('repeats', String(p.repeats));
  if (p.engine !== DEFAULT_HASH_PARAMS.engine) params.set('engine', p.engine);
  if (p.chunkPauseMs > 0) params.set('chunkPauseMs', String(p.chunkPauseMs));
  if (p.errorAt !== null) {
    params.set('errorAt', String(p.errorAt));
    params.set('errorKind', p.errorKind);
  }
  if (p.neighborRate > 0) {
    params.set('neighborRate', String(p.neighborRate));
    params.set('neighborCommand', p.neighborCommand);
  }
  if (p.heldConnection) params.set('heldConnection', '1');
  return `#${params.toString()}`;
}
