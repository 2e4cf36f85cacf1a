// The embed's parameters, read alike from the embed page's URL (`embed/?trace=…&theme=dark`) and from the
// <pipescope-player> element's attributes (`src="a.json b.json" theme="dark"`): one reader over a
// get/getAll accessor. Named as docs authors know them from media players (autoplay, loop, controls, t).
// Tolerant like the page's URL (link-values.ts): junk reads as the default, nothing throws.
//   trace (src)  trace URLs, repeatable and/or whitespace-separated, at most MAX_TRACE_FILES
//   theme        light | dark | auto (default: auto, the system's prefers-color-scheme)
//   panels       comma list of EMBED_PANELS (default: diagram,summary)
//   autoplay loop lazy   booleans, default off;  controls  boolean, default on
//   speed        trace µs per wall µs, one of PLAYBACK_SPEEDS ("0.01" or "1/100"); null = the run's default
//   t            start position, µs since t0; a unit suffix us/µs/ms/s is accepted; null = no playhead
//   origin       the host page's origin (postMessage target and the only sender listened to); null = any
import { readTime, snapSpeed } from './link-values.ts';
import { parseThemeChoice, type ThemeChoice } from './theme-choice.ts';
import { MAX_DISPLAY_US, MAX_TRACE_FILES } from '../../../trace/protocol/page-limits.ts';

export const EMBED_PANELS = ['diagram', 'summary'] as const;
export type EmbedPanel = (typeof EMBED_PANELS)[number];
/** The app's theme choice (state/theme-choice.ts): light, dark, or auto (the system's). */
export type EmbedTheme = ThemeChoice;

export interface EmbedParams {
  traceUrls: string[];
  theme: EmbedTheme;
  /** Shown in this order, each once; never empty. */
  panels: EmbedPanel[];
  autoplay: boolean;
  loop: boolean;
  lazy: boolean;
  controls: boolean;
  /** null: the default for the runs (defaultSpeedFor). */
  speed: number | null;
  /** µs since t0; null: no start position. */
  t: number | null;
  /** An origin such as https://docs.example.com; null: none given (messages go to '*'). */
  origin: string | null;
}

/** What the reader needs: URLSearchParams has it; an element's attributes are adapted by attributeSource. */
export interface ParamSource {
  get(name: string): string | null;
  getAll(name: string): string[];
}

export const DEFAULT_EMBED_PARAMS: EmbedParams = {
  traceUrls: [], theme: 'auto', panels: ['diagram', 'summary'], autoplay: false, loop: false, lazy: false, controls: true, speed: null, t: null, origin: null,
};

/** µs per unit for `t=`'s suffixes. */
const UNIT_US: Readonly<Record<string, number>> = { us: 1, 'µs': 1, 'μs': 1, ms: 1e3, s: 1e6 };

/** Present, "", 1/true/yes/on → true; 0/false/no/off → false; absent or anything else → the default. */
export function readFlag(text: string | null, fallback: boolean): boolean {
  if (text === null) return fallback;
  const value = text.trim().toLowerCase();
  if (value === '' || value === '1' || value === 'true' || value === 'yes' || value === 'on') return true;
  if (value === '0' || value === 'false' || value === 'no' || value === 'off') return false;
  return fallback;
}

/** "1500", "1500us", "1.5 ms", "0.002s" → µs (rounded to ns, ≤ MAX_DISPLAY_US); junk → null. */
export function readStartUs(text: string | null): number | null {
  if (text === null) return null;
  const match = /^\s*([^a-zµμ\s]*)\s*(us|µs|μs|ms|s)?\s*$/i.exec(text);
  if (!match) return null;
  const number = readTime(match[1]!);
  if (number === null) return null;
  const us = Math.round(number * UNIT_US[(match[2] ?? 'us').toLowerCase()]! * 1000) / 1000;
  return us <= MAX_DISPLAY_US ? us : null;
}

export function readTheme(text: string | null): EmbedTheme {
  return parseThemeChoice(text?.trim().toLowerCase()) ?? DEFAULT_EMBED_PARAMS.theme;
}

/** Known panels in the order given, each once; none known → the default. */
export function readPanels(text: string | null): EmbedPanel[] {
  const picked: EmbedPanel[] = [];
  for (const part of (text ?? '').split(',')) {
    const name = part.trim().toLowerCase();
    if ((EMBED_PANELS as readonly string[]).includes(name) && !picked.includes(name as EmbedPanel)) picked.push(name as EmbedPanel);
  }
  return picked.length > 0 ? picked : [...DEFAULT_EMBED_PARAMS.panels];
}

/** An http(s) origin ("https://docs.example.com"; a bare host is taken as https); anything else → null. */
export function readOrigin(text: string | null): string | null {
  const value = text?.trim();
  if (!value) return null;
  try {
    const url = new URL(/^[a-z][a-z0-9+.-]*:\/\//i.test(value) ? value : `https://${value}`);
    const named = /^[a-z0-9.[\]:-]+$/i.test(url.host);
    return (url.protocol === 'https:' || url.protocol === 'http:') && named ? url.origin : null;
  } catch {
    return null;
  }
}

/** The trace URLs of every `key` value, split at whitespace, blanks dropped, at most MAX_TRACE_FILES. */
export function readTraceUrls(values: readonly string[]): string[] {
  return values.flatMap((v) => v.split(/\s+/)).filter((u) => u.length > 0).slice(0, MAX_TRACE_FILES);
}

/** Reads every parameter; `traceKey` is `trace` in a URL and `src` on the element. Never throws. */
export function parseEmbedParams(source: ParamSource, traceKey: 'trace' | 'src' = 'trace'): EmbedParams {
  const get = (name: string): string | null => {
    try {
      return source.get(name);
    } catch {
      return null;
    }
  };
  let traces: string[];
  try {
    traces = source.getAll(traceKey);
  } catch {
    traces = [];
  }
  return {
    traceUrls: readTraceUrls(traces),
    theme: readTheme(get('theme')),
    panels: readPanels(get('panels')),
    autoplay: readFlag(get('autoplay'), false),
    loop: readFlag(get('loop'), false),
    lazy: readFlag(get('lazy'), false),
    controls: readFlag(get('controls'), true),
    speed: snapSpeed(get('speed')),
    t: readStartUs(get('t')),
    origin: readOrigin(get('origin')),
  };
}

/** The embed page's parameters from its query string (`?trace=…`); a string URLSearchParams cannot read reads as empty. */
export function embedParamsFromSearch(search: string): EmbedParams {
  let params: URLSearchParams;
  try {
    params = new URLSearchParams(search);
  } catch {
    params = new URLSearchParams();
  }
  return parseEmbedParams(params, 'trace');
}

/** An element's attributes as a ParamSource (an attribute holds one value: getAll gives it or nothing). */
export function attributeSource(element: Pick<Element, 'getAttribute'>): ParamSource {
  return {
    get: (name) => element.getAttribute(name),
    getAll: (name) => {
      const value = element.getAttribute(name);
      return value === null ? [] : [value];
    },
  };
}
