// The run form as typed (strings, so a half-typed number is kept) and its validation against the
// shared RunSpecSchema: the backend checks the same schema, so the messages shown inline are the ones
// the backend would give.
import { RunSpecSchema, commandTakesValue, type Engine, type RunSpec } from '../../../trace/run-request.ts';
import type { CommandName } from '../../../trace/trace-format.ts';
import { MODES_OF, hasChunks, type ModeChoice } from './url-hash-params.ts';

export interface RunFormState {
  command: CommandName;
  n: string;
  valueBytes: string;
  mode: ModeChoice;
  /** Commands per pipeline, sent only when the mode has a chunked run. */
  chunk: string;
  /** Round-trip time added by the backend's TCP delay proxy, and its ± jitter, in ms ('0' = direct). */
  rttMs: string;
  jitterMs: string;
  /** The Redis-side probes, each its own choice: MONITOR (cheap) and strace (slows Redis several-fold). Off by default. */
  monitor: boolean;
  strace: boolean;
  /** Skip the warm-up before t0 (a cold connection). */
  cold: boolean;
  /** Runs of each mode, interleaved, as typed (1–20). */
  repeats: string;
  engine: Engine;
}

export type FormErrors = Partial<
  Record<'command' | 'n' | 'valueBytes' | 'chunk' | 'rttMs' | 'jitterMs' | 'repeats' | 'modes' | 'engine' | 'monitor' | 'strace' | 'cold' | 'form', string>
>;

export type FormResult = { ok: true; spec: RunSpec } | { ok: false; errors: FormErrors };

const FIELDS = ['command', 'n', 'valueBytes', 'chunk', 'rttMs', 'jitterMs', 'repeats', 'modes', 'engine', 'monitor', 'strace', 'cold'] as const;

export function modesOf(mode: ModeChoice): RunSpec['modes'] {
  return [...MODES_OF[mode]];
}

/** A typed number: blank or non-numeric text becomes NaN so the schema reports it. */
function numberOf(text: string): number {
  return text.trim() === '' ? Number.NaN : Number(text.trim());
}

export function validateRunForm(form: RunFormState): FormResult {
  const takesValue = commandTakesValue(form.command);
  const parsed = RunSpecSchema.safeParse({
    command: form.command,
    n: numberOf(form.n),
    valueBytes: takesValue ? numberOf(form.valueBytes) : 0,
    ...(hasChunks(form.mode) ? { chunk: numberOf(form.chunk) } : {}),
    rttMs: numberOf(form.rttMs),
    jitterMs: numberOf(form.jitterMs),
    engine: form.engine,
    monitor: form.monitor,
    strace: form.strace,
    cold: form.cold,
    repeats: numberOf(form.repeats),
    modes: modesOf(form.mode),
  });
  if (parsed.success) return { ok: true, spec: parsed.data };
  const errors: FormErrors = {};
  for (const issue of parsed.error.issues) {
    const field = issue.path[0];
    const key = FIELDS.find((f) => f === field) ?? 'form';
    errors[key] ??= issue.message;
  }
  return { ok: false, errors };
}
