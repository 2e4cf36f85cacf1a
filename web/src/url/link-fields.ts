// The readers of a link's fields: zod schemas from a key's text (undefined: the key is absent) to its
// value, each tolerant — an absent, empty or bad value reads as the field's fallback (.catch), never an
// error — so a link typed by hand, cut short or made by an older version still opens, and parsing never
// throws. run-link.ts, sweep-link.ts and display-link.ts build their object schemas from these;
// fieldsOf gives them a hash's keys, unknown keys left out.
import { z } from 'zod';

/** A hash ('#a=1&b=2', '' or '#') as search params; one URLSearchParams cannot read is empty. */
export function hashParams(hash: string): URLSearchParams {
  try {
    return new URLSearchParams(hash.replace(/^#/, ''));
  } catch {
    return new URLSearchParams();
  }
}

/** The first value of each of `keys` the params hold (as URLSearchParams.get reads it); other keys left out. */
export function fieldsOf(params: URLSearchParams, keys: readonly string[]): Record<string, string> {
  const fields: Record<string, string> = {};
  for (const key of keys) {
    const value = params.get(key);
    if (value !== null) fields[key] = value;
  }
  return fields;
}

/** Entries in the order a link writes them, as '#…' ('' when none). */
export function hashOf(entries: Iterable<readonly [string, string]>): string {
  const text = new URLSearchParams([...entries].map(([k, v]) => [k, v])).toString();
  return text ? `#${text}` : '';
}

const refuse = (ctx: z.RefinementCtx, message: string): never => {
  ctx.addIssue({ code: 'custom', message });
  return z.NEVER;
};

const ON = ['1', 'true', 'yes', 'on'];
const OFF = ['0', 'false', 'no', 'off'];

/** 1/0, true/false, yes/no, on/off in any case, spaces around. */
export const flag = z.string().transform((text, ctx) => {
  const t = text.trim().toLowerCase();
  return ON.includes(t) ? true : OFF.includes(t) ? false : refuse(ctx, 'not a switch');
});

/** One of `choices`, in any letter case, spaces around (a number choice as its digits). */
export const choice = <const T extends string | number>(choices: readonly T[]) =>
  z.string().transform((text, ctx): T => {
    const t = text.trim().toLowerCase();
    return choices.find((c) => String(c).toLowerCase() === t) ?? refuse(ctx, 'not a choice');
  });

/** A whole number in [min, max], written as digits alone (no sign, point or exponent), spaces around. */
export const wholeNumber = (min: number, max: number) =>
  z.string().regex(/^\s*\d+\s*$/).transform(Number).pipe(z.number().int().min(min).max(max));

/** A decimal in [0, max], written as digits with an optional fraction (no sign or exponent), spaces around. */
export const decimal = (max: number) =>
  z.string().regex(/^\s*\d+(\.\d+)?\s*$/).transform(Number).pipe(z.number().min(0).max(max));
