// The depth sweep's keys in the URL, written after view=sweep (page-link.ts):
// command=PING&maxDepth=64&perPoint=2000&repeats=2&reference=1 (or &depths=1,2,4,100 for a list of one's
// own; &valueBytes for SET/GET, &engine, &rttMs and &y=linear when not the defaults). A link reproduces the
// form. Parsing is tolerant (link-fields.ts): any missing or bad value falls back to its default. The form
// and its choices are state/sweep-form-state.ts's; this is how a link spells them.
import { z } from 'zod';
import { COMMAND_NAMES } from '../../../trace/format/trace-format.ts';
import { ENGINES, MAX_ADDED_RTT_MS, MAX_COMMANDS, MAX_VALUE_BYTES, commandTakesValue } from '../../../trace/format/run-request.ts';
import { MAX_SWEEP_REPEATS } from '../../../trace/format/sweep-format.ts';
import { DEFAULT_SWEEP_FORM, MAX_DEPTH_CHOICES, Y_SCALE_CHOICES, type SweepFormState, type YScaleChoice } from '../state/sweep-form-state.ts';
import { choice, decimal, fieldsOf, flag, wholeNumber } from './link-fields.ts';

export interface SweepLink {
  /** The form, its numbers as the text the form holds (each one the link could read back). */
  form: SweepFormState;
  /** The throughput panel's y axis. */
  yScale: YScaleChoice;
}

export const DEFAULT_SWEEP_LINK: SweepLink = { form: DEFAULT_SWEEP_FORM, yScale: 'log' };

const d = DEFAULT_SWEEP_FORM;

/** A typed depth list is kept as text, within reason: digits and separators, 200 characters, a digit among them. */
const DEPTH_LIST = /^[\d\s,;]{1,200}$/;
const isDepthList = (text: string) => DEPTH_LIST.test(text) && /\d/.test(text);

/** The form's numbers, read as numbers within bounds and kept as their plain text ("0100" → "100"). */
const NUMBERS = {
  valueBytes: wholeNumber(0, MAX_VALUE_BYTES).transform(String),
  perPoint: wholeNumber(1, MAX_COMMANDS).transform(String),
  repeats: wholeNumber(1, MAX_SWEEP_REPEATS).transform(String),
  rttMs: decimal(MAX_ADDED_RTT_MS).transform(String),
};
type NumberKey = keyof typeof NUMBERS;

const SWEEP_FIELDS = {
  command: choice(COMMAND_NAMES).catch(d.command),
  valueBytes: NUMBERS.valueBytes.catch(d.valueBytes),
  depths: z.string().refine(isDepthList).transform((text) => text.trim()).optional().catch(undefined),
  maxDepth: choice<number>(MAX_DEPTH_CHOICES).catch(d.maxDepth),
  perPoint: NUMBERS.perPoint.catch(d.perPoint),
  repeats: NUMBERS.repeats.catch(d.repeats),
  engine: choice(ENGINES).catch(d.engine),
  rttMs: NUMBERS.rttMs.catch(d.rttMs),
  reference: flag.catch(d.reference),
  y: choice(Y_SCALE_CHOICES).catch('log'),
};

/** The keys the sweep reads from a link. */
export const SWEEP_KEYS: readonly string[] = Object.keys(SWEEP_FIELDS);

export const SweepLinkSchema = z.object(SWEEP_FIELDS).transform(({ depths, y, ...rest }): SweepLink => ({
  form: { ...rest, depthsMode: depths === undefined ? 'max' : 'list', depthList: depths ?? d.depthList },
  yScale: y,
}));

/** The sweep's settings from a link's fields (fieldsOf); never throws. */
export function parseSweepLink(fields: Readonly<Record<string, string>>): SweepLink {
  return SweepLinkSchema.parse(fields);
}

/**
 * The sweep's keys in the order a link writes them, for a form as typed: a half-typed number keeps the
 * value `last` had (the last good link), so the link never holds a value the form cannot read back.
 */
export function sweepLinkEntries({ form, yScale }: SweepLink, last: SweepLink = DEFAULT_SWEEP_LINK): [string, string][] {
  const good = (key: NumberKey) => {
    const read = NUMBERS[key].safeParse(form[key]);
    return read.success ? read.data : last.form[key];
  };
  const entries: [string, string][] = [['command', form.command]];
  const add = (key: string, value: string) => entries.push([key, value]);
  if (commandTakesValue(form.command)) add('valueBytes', good('valueBytes'));
  if (form.depthsMode === 'list' && isDepthList(form.depthList)) {
    add('depths', form.depthList.trim());
    // The max-depth choice stays in the form behind the list; the link keeps it when it is not the default.
    if (form.maxDepth !== d.maxDepth) add('maxDepth', String(form.maxDepth));
  } else add('maxDepth', String(form.maxDepth));
  add('perPoint', good('perPoint'));
  add('repeats', good('repeats'));
  if (form.engine !== d.engine) add('engine', form.engine);
  const rtt = good('rttMs');
  if (Number(rtt) > 0) add('rttMs', rtt);
  add('reference', form.reference ? '1' : '0');
  if (yScale !== 'log') add('y', yScale);
  return entries;
}

/** The link a form as typed gives: its entries read back (sweepLinkEntries keeps the last good numbers). */
export function sweepLinkOf(typed: SweepLink, last: SweepLink): SweepLink {
  return parseSweepLink(fieldsOf(new URLSearchParams(sweepLinkEntries(typed, last)), SWEEP_KEYS));
}
