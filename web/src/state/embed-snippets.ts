// "Copy embed code": the two snippets a docs author pastes to show the runs on screen in their own page —
// an <iframe> of the embed page (`<app base>embed/?trace=…`, with a few lines of script that size it from
// the embed's `height` messages, postMessage protocol v1) and the <pipescope-player> custom element
// (`pipescope-player.js`). The parameter names are the embed's (trace, theme, t, speed; the element takes
// `src` for trace). Runs opened by ?trace= links have URLs, made absolute here; runs measured live or
// opened from a file have none, so the snippet names their export file (traceFileName) as a relative
// URL, and says that the file must be exported and put beside the page. Pure: the view supplies the page.
import type { TraceDocument } from '../../../trace/format/trace-format.ts';
import { runGroups } from '../model/run-groups.ts';
import { modeLabel, runTitle } from '../format/run-label.ts';
import type { TraceSource } from '../live/store-types.ts';
import { formatUsField } from './link-values.ts';
import type { ThemeChoice } from './theme-choice.ts';
import { MAX_TRACE_FILES } from '../../../trace/protocol/page-limits.ts';
import { traceFileName, traceUrlsFromSearch } from './trace-files.ts';

/** The iframe's height before its first `height` message, CSS px: one diagram and its summary. */
export const INITIAL_EMBED_HEIGHT = 480;
/** …and for each further run shown (two panels per row when wide, one per row when narrow). */
const HEIGHT_PER_MORE_RUN = 240;

export interface EmbedPage {
  /** The page's URL (location.href): the app's base folder and its ?trace= links come from it. */
  href: string;
  traces: readonly TraceDocument[];
  /** Where the traces came from: only 'url' traces have URLs (the page's ?trace= links). */
  source: TraceSource | null;
  theme: ThemeChoice;
  /** The playhead, µs since t0 (the page URL's t=); null: none. */
  t: number | null;
  /** Trace µs per wall µs when the page's URL sets speed=; null: the embed's default for the run. */
  speed: number | null;
}

export interface EmbedSnippets {
  /** The iframe and the script that sizes it. */
  iframe: string;
  /** The script tag of pipescope-player.js and the element. */
  element: string;
  /** Export file names the snippets refer to by relative URL (runs without a URL); empty when all have one. */
  toExport: string[];
  /** The embed page's URL, for the note on where an exported file goes. */
  embedPage: string;
}

/** The snippets for what the page shows; null when it shows no run. */
export function embedSnippets(page: EmbedPage): EmbedSnippets | null {
  if (page.traces.length === 0) return null;
  const base = new URL('./', page.href);
  const embedPage = new URL('embed/', base).href;
  const fromLinks = page.source === 'url' ? traceUrlsFromSearch(new URL(page.href).search).map((u) => absoluteUrl(u, page.href)) : [];
  // One file per run panel: the repeat it shows by default (the median), as Export saves it.
  const toExport = fromLinks.length > 0 ? [] : [...new Set(runGroups(page.traces).map((g) => traceFileName(g.median)))].slice(0, MAX_TRACE_FILES);
  const urls = fromLinks.length > 0 ? fromLinks : toExport;
  const runs = runGroups(page.traces).length;
  const title = `Pipescope: ${embedTitle(page.traces)}`;
  const shared: [string, string][] = [
    ['theme', page.theme],
    ...(page.t !== null ? [['t', formatUsField(page.t)] as [string, string]] : []),
    ...(page.speed !== null ? [['speed', String(page.speed)] as [string, string]] : []),
  ];
  const query = [...urls.map((u) => ['trace', u] as [string, string]), ...shared].map(([k, v]) => `${k}=${queryValue(v)}`).join('&');
  const height = INITIAL_EMBED_HEIGHT + HEIGHT_PER_MORE_RUN * Math.max(0, runs - 1);
  const iframe = [
    `<iframe src="${attr(`${embedPage}?${query}`)}" title="${attr(title)}" width="100%" height="${height}" style="border:0" loading="lazy" allow="fullscreen"></iframe>`,
    hostScript(base.origin),
  ].join('\n');
  const attributes = ([['src', urls.join(' ')], ...shared] as [string, string][]).map(([k, v]) => ` ${k}="${attr(v)}"`).join('');
  const element = [
    `<script src="${attr(new URL('pipescope-player.js', base).href)}"></script>`,
    `<pipescope-player${attributes}></pipescope-player>`,
  ].join('\n');
  return { iframe, element, toExport, embedPage };
}

/** "Sequential vs one pipeline · 10 × INCR", or each run's mode and title when the workloads differ. */
export function embedTitle(traces: readonly TraceDocument[]): string {
  const runs = runGroups(traces).map((g) => g.median.run);
  const titles = [...new Set(runs.map((r) => runTitle(r)))];
  const modes = [...new Set(runs.map((r) => modeLabel(r.mode, r.chunk)))];
  if (titles.length === 1) return `${modes.map((m, i) => (i === 0 ? m : m.toLowerCase())).join(' vs ')} · ${titles[0]}`;
  return runs.map((r) => `${modeLabel(r.mode, r.chunk)} · ${runTitle(r)}`).join(' vs ');
}

/**
 * The host page's few lines: each `height` message (protocol v1) from an embed of this origin sizes the
 * iframe it came from. Any number of embeds on one page share it.
 */
function hostScript(origin: string): string {
  return [
    '<script>',
    'addEventListener("message", function (event) {',
    '  var m = event.data;',
    `  if (event.origin !== ${JSON.stringify(origin).replace(/</g, '\\u003c')} || !m || m.source !== "pipescope" || m.version !== 1 || m.type !== "height") return;`,
    '  document.querySelectorAll("iframe").forEach(function (frame) {',
    '    if (frame.contentWindow === event.source) frame.style.height = Math.ceil(m.height) + "px";',
    '  });',
    '});',
    '</script>',
  ].join('\n');
}

/** A ?trace= link as the page read it, made absolute (the embed page and the host page are elsewhere). */
function absoluteUrl(url: string, href: string): string {
  try {
    return new URL(url, href).href;
  } catch {
    return url;
  }
}

/** A query value, percent-encoded, but leaving the characters a URL in a query may carry as they are (/ : @ ,). */
export function queryValue(value: string): string {
  return encodeURIComponent(value).replace(/%2F/gi, '/').replace(/%3A/gi, ':').replace(/%40/g, '@').replace(/%2C/gi, ',');
}

/** Text for a double-quoted HTML attribute. */
export function attr(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/'/g, '&#39;');
}
