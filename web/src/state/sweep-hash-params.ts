// Which view the page shows, and the depth sweep's shareable settings, in the URL hash:
// #view=sweep&command=PING&maxDepth=64&perPoint=2000&repeats=2&reference=1 (or &depths=1,2,4,100
// for a list of one's own; &valueBytes for SET/GET, &engine, &rttMs and &y=linear when not the
// defaults). A link reproduces the form. Parsing is tolerant: any missing or bad value falls back to
// its default and nothing ever throws; the single-run view keeps its own keys (url-hash-params.ts).
import { COMMAND_NAMES } from '../../../trace/format/trace-format.ts';
import { ENGINES, MAX_ADDED_RTT_MS, MAX_COMMANDS, MAX_VALUE_BYTES, commandTakesValue } from '../../../trace/format/run-request.ts';
import { MAX_SWEEP_REPEATS } from '../../../trace/format/sweep-format.ts';
import { DEFAULT_SWEEP_FORM, MAX_DEPTH_CHOICES, type SweepFormState } from './sweep-form-state.ts';
import { formatHashParams, parseHashParams } from './url-hash-params.ts';

export const VIEW_CHOICES = ['run', 'sweep', 'gallery', 'history', 'observe'] as const;
export type ViewChoice = (typeof VIEW_CHOICES)[number];

export const Y_SCALE_CHOICES = ['log', 'linear'] as const;
export type YScaleChoice = (typeof Y_SCALE_CHOICES)[number];

export interface SweepHashParams {
  form: SweepFormState;
  /** The throughput panel's y axis. */
  yScale: YScaleChoice;
}

/** A typed depth list is kept as text, within reason: digits and separators, 200 characters. */
const DEPTH_LIST = /^[\d\s,;]{1,200}$/;

function paramsOf(hash: string): URLSearchParams {
  try {
    return new URLSearchParams(hash.replace(/^#/, ''));
  } catch {
    return new URLSearchParams();
  }
}

function oneOf<T extends string | number>(choices: readonly T[], value: string | null, fallback: T): T {
  if (value === null) return fallback;
  const v = value.trim().toLowerCase();
  return choices.find((c) => String(c).toLowerCase() === v) ?? fallback;
}

const NUMBER_BOUNDS = {
  valueBytes: { min: 0, max: MAX_VALUE_BYTES, whole: true },
  perPoint: { min: 1, max: MAX_COMMANDS, whole: true },
  repeats: { min: 1, max: MAX_SWEEP_REPEATS, whole: true },
  rttMs: { min: 0, max: MAX_ADDED_RTT_MS, whole: false },
} as const;
type NumberKey = keyof typeof NUMBER_BOUNDS;

/** A number as the text the form holds, if it reads as one within its bounds; else null. */
function readNumber(key: NumberKey, value: string | null): string | null {
  const { min, max, whole } = NUMBER_BOUNDS[key];
  if (value === null || !(whole ? /^\s*\d+\s*$/ : /^\s*\d+(\.\d+)?\s*$/).test(value)) return null;
  const n = Number(value);
  return Number.isFinite(n) && n >= min && n <= max ? String(n) : null;
}

function flag(value: string | null, fallback: boolean): boolean {
  const v = value?.trim().toLowerCase();
  if (v === '1' || v === 'true' || v === 'yes' || v === 'on') return true;
  if (v === '0' || v === 'false' || v === 'no' || v === 'off') return false;
  return fallback;
}

export function parseViewChoice(hash: string): ViewChoice {
  return oneOf(VIEW_CHOICES, paramsOf(hash).get('view'), 'run');
}

export function parseSweepHashParams(hash: string): SweepHashParams {
  const p = paramsOf(hash);
  const d = DEFAULT_SWEEP_FORM;
  const list = p.get('depths');
  const hasList = list !== null && DEPTH_LIST.test(list) && /\d/.test(list);
  return {
    form: {
      command: oneOf(COMMAND_NAMES, p.get('command'), d.command),
      valueBytes: readNumber('valueBytes', p.get('valueBytes')) ?? d.valueBytes,
      depthsMode: hasList ? 'list' : 'max',
      maxDepth: oneOf(MAX_DEPTH_CHOICES, p.get('maxDepth'), d.maxDepth),
      depthList: hasList ? list.trim() : d.depthList,
      perPoint: readNumber('perPoint', p.get('perPoint')) ?? d.perPoint,
      repeats: readNumber('repeats', p.get('repeats')) ?? d.repeats,
      engine: oneOf(ENGINES, p.get('engine'), d.engine),
      rttMs: readNumber('rttMs', p.get('rttMs')) ?? d.rttMs,
      reference: flag(p.get('reference'), d.reference),
    },
    yScale: oneOf(Y_SCALE_CHOICES, p.get('y'), 'log'),
  };
}

/**
 * The hash for a form as typed: a half-typed number keeps the value `last` had (the last good hash),
 * so the link never holds a value the form cannot read back.
 */
export function formatSweepHashParams({ form, yScale }: SweepHashParams, last: SweepHashParams = parseSweepHashParams('')): string {
  const good = (key: NumberKey) => readNumber(key, form[key]) ?? last.form[key];
  const params = new URLSearchParams({ view: 'sweep', command: form.command });
  if (commandTakesValue(form.command)) params.set('valueBytes', good('valueBytes'));
  if (form.depthsMode === 'list' && DEPTH_LIST.test(form.depthList) && /\d/.test(form.depthList)) {
    params.set('depths', form.depthList.trim());
    // The max-depth choice stays in the form behind the list; the link keeps it when it is not the default.
    if (form.maxDepth !== DEFAULT_SWEEP_FORM.maxDepth) params.set('maxDepth', String(form.maxDepth));
  } else params.set('maxDepth', String(form.maxDepth));
  params.set('perPoint', good('perPoint'));
  params.set('repeats', good('repeats'));
  if (form.engine !== DEFAULT_SWEEP_FORM.engine) params.set('engine', form.engine);
  const rtt = good('rttMs');
  if (Number(rtt) > 0) params.set('rttMs', rtt);
  params.set('reference', form.reference ? '1' : '0');
  if (yScale !== 'log') params.set('y', yScale);
  return `#${params.toString()}`;
}

/** The sweep's part of a hash, canonical (for ViewHashGuard), or null when the hash shows another view. */
export function sweepViewPartOf(hash: string): string | null {
  return parseViewChoice(hash) === 'sweep' ? formatSweepHashParams(parseSweepHashParams(hash)) : null;
}

/** The run form's part of a hash, canonical (for ViewHashGuard), or null when the hash shows another view. */
export function runViewPartOf(hash: string): string | null {
  return parseViewChoice(hash) === 'run' ? formatHashParams(parseHashParams(hash)) : null;
}
