// The depth-sweep form as typed (strings, so a half-typed number is kept) and its validation against
// the shared SweepSpecSchema: the backend checks the same schema, so the messages shown inline are the
// ones it would give. Depths are either the powers of two up to a chosen maximum or a typed list.
// The URL carries the form and the chart's y axis (url/sweep-link.ts), built on these types.
import { DEFAULT_SWEEP_REPEATS, SweepSpecSchema, powersOfTwoUpTo, type SweepSpec } from '../../../trace/format/sweep-format.ts';
import { commandTakesValue, type Engine } from '../../../trace/format/run-request.ts';
import type { CommandName } from '../../../trace/format/trace-format.ts';

/** The maxima offered for "1, 2, 4, … up to max". */
export const MAX_DEPTH_CHOICES = [16, 32, 64, 128, 256, 512, 1024, 2048, 4096] as const;

export type DepthsMode = 'max' | 'list';

/** The throughput chart's y axis. */
export const Y_SCALE_CHOICES = ['log', 'linear'] as const;
export type YScaleChoice = (typeof Y_SCALE_CHOICES)[number];

export interface SweepFormState {
  command: CommandName;
  valueBytes: string;
  /** 'max': 1, 2, 4, … up to maxDepth; 'list': the depths typed in depthList. */
  depthsMode: DepthsMode;
  maxDepth: number;
  depthList: string;
  /** Commands sent at each depth, per repeat. */
  perPoint: string;
  repeats: string;
  engine: Engine;
  /** Round-trip time added by the backend's TCP delay proxy, ms ('0' = direct). */
  rttMs: string;
  /** Also run redis-benchmark -c 1 -P depth at each depth. */
  reference: boolean;
}

export const DEFAULT_SWEEP_FORM: SweepFormState = {
  command: 'PING', valueBytes: '16', depthsMode: 'max', maxDepth: 1024, depthList: '1,2,4,8,100,1000',
  perPoint: '10000', repeats: String(DEFAULT_SWEEP_REPEATS), engine: 'ioredis', rttMs: '0', reference: true,
};

export type SweepFormField = 'command' | 'valueBytes' | 'depths' | 'perPoint' | 'repeats' | 'engine' | 'rttMs' | 'form';
export type SweepFormErrors = Partial<Record<SweepFormField, string>>;
export type SweepFormResult = { ok: true; spec: SweepSpec } | { ok: false; errors: SweepFormErrors };

const FIELDS: readonly SweepFormField[] = ['command', 'valueBytes', 'depths', 'perPoint', 'repeats', 'engine', 'rttMs'];

/** A typed number: blank or non-numeric text becomes NaN so the schema reports it. */
function numberOf(text: string): number {
  return text.trim() === '' ? Number.NaN : Number(text.trim());
}

/**
 * "1, 2, 4 8;100" → [1, 2, 4, 8, 100]. Order and repeats are left for the schema to judge, so its
 * message is the one shown; only a token that is not a whole number is refused here.
 */
export function parseDepthList(text: string): { depths: number[] } | { error: string } {
  const tokens = text.split(/[\s,;]+/).filter((t) => t.length > 0);
  const bad = tokens.find((t) => !/^\d+$/.test(t));
  if (bad !== undefined) return { error: `“${bad.slice(0, 20)}” is not a whole number; separate depths with commas` };
  return { depths: tokens.map(Number) };
}

export function depthsOf(form: SweepFormState): { depths: number[] } | { error: string } {
  return form.depthsMode === 'max' ? { depths: powersOfTwoUpTo(form.maxDepth) } : parseDepthList(form.depthList);
}

export function validateSweepForm(form: SweepFormState): SweepFormResult {
  const depths = depthsOf(form);
  const parsed = SweepSpecSchema.safeParse({
    command: form.command,
    valueBytes: commandTakesValue(form.command) ? numberOf(form.valueBytes) : 0,
    depths: 'depths' in depths ? depths.depths : [],
    perPoint: numberOf(form.perPoint),
    repeats: numberOf(form.repeats),
    engine: form.engine,
    rttMs: numberOf(form.rttMs),
    jitterMs: 0,
    reference: form.reference,
  });
  if (parsed.success && 'depths' in depths) return { ok: true, spec: parsed.data };
  const errors: SweepFormErrors = {};
  if ('error' in depths) errors.depths = depths.error;
  for (const issue of parsed.success ? [] : parsed.error.issues) {
    const field = issue.path[0];
    const key = FIELDS.find((f) => f === field) ?? 'form';
    errors[key] ??= issue.message;
  }
  return { ok: false, errors };
}
