// The shareable part of the app state, kept in the URL hash (#command=INCR&n=10&mode=both&scale=shared)
// so a presenter can send a link that opens the same form. Parsing is tolerant: any missing or bad
// value falls back to its default and nothing ever throws.
import { COMMAND_NAMES, type CommandName } from '../../../trace/trace-format.ts';
import { MAX_ADDED_RTT_MS, MAX_COMMANDS, MAX_JITTER_MS, MAX_VALUE_BYTES } from '../../../trace/run-request.ts';

export const MODE_CHOICES = ['sequential', 'pipeline', 'both'] as const;
export type ModeChoice = (typeof MODE_CHOICES)[number];
export const SCALE_CHOICES = ['shared', 'own'] as const;
export type ScaleChoice = (typeof SCALE_CHOICES)[number];

export interface HashParams {
  command: CommandName;
  n: number;
  valueBytes: number;
  mode: ModeChoice;
  scale: ScaleChoice;
  /** Added round-trip time and jitter through the delay proxy, ms. */
  rttMs: number;
  jitterMs: number;
}

export const DEFAULT_HASH_PARAMS: HashParams = { command: 'INCR', n: 10, valueBytes: 16, mode: 'both', scale: 'shared', rttMs: 0, jitterMs: 0 };

function oneOf<T extends string>(choices: readonly T[], value: string | null, fallback: T): T {
  if (value === null) return fallback;
  const match = choices.find((c) => c.toLowerCase() === value.trim().toLowerCase());
  return match ?? fallback;
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
    scale: oneOf(SCALE_CHOICES, params.get('scale'), d.scale),
    rttMs: decimal(params.get('rttMs'), MAX_ADDED_RTT_MS, d.rttMs),
    jitterMs: decimal(params.get('jitterMs'), MAX_JITTER_MS, d.jitterMs),
  };
}

export function formatHashParams(p: HashParams): string {
  const params = new URLSearchParams({
    command: p.command,
    n: String(p.n),
    valueBytes: String(p.valueBytes),
    mode: p.mode,
    scale: p.scale,
  });
  // Delay only when there is some, so the usual link stays short.
  if (p.rttMs > 0) params.set('rttMs', String(p.rttMs));
  if (p.jitterMs > 0) params.set('jitterMs', String(p.jitterMs));
  return `#${params.toString()}`;
}
