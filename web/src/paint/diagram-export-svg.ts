// The diagrams on screen as one standalone SVG file, for slides and docs: what the page shows, with
// every colour and font resolved from the theme's CSS variables (computed styles written as SVG
// presentation attributes — no stylesheet, no class the host page could restyle, nothing fetched), a
// <title> and <desc> naming the runs and where their figures come from, and each run's heading.
// Several runs on screen (a compare) make one file with every panel, laid out two per row as on screen,
// so the comparison stays one picture. In canvas mode (dense runs) the bands are the canvas's pixels,
// repainted at the ratio asked for (DiagramController.snapshot) and embedded as a PNG data URL: the
// same pixels as the screen, in a file of predictable size, rather than a second painter of thousands
// of SVG rects. Interaction-only marks (hit areas, the hover focus, the selection ring) are left out.
import type { TraceDocument } from '../../../trace/format/trace-format.ts';
import { incompleteUntil } from '../format/incomplete-text.ts';
import { formatUs } from '../format/number-format.ts';
import { modeBadge, runTitle } from '../format/run-label.ts';
import type { DiagramSnapshot } from './diagram-controller.ts';

const SVG_NS = 'http://www.w3.org/2000/svg';

export interface ExportPanel {
  doc: TraceDocument;
  snapshot: DiagramSnapshot;
}

/** CSS px around and between panels, and the height of the file's title block and of each panel's heading. */
const MARGIN = 16;
const GAP = 16;
const TITLE_BLOCK = 52;
const PANEL_HEAD = 22;
const PER_ROW = 2;

/** Inherited properties written where they differ from the parent's; the rest where they differ from their initial value. */
const INHERITED = [
  'fill', 'fill-opacity', 'stroke', 'stroke-width', 'stroke-opacity', 'stroke-dasharray', 'stroke-linecap', 'stroke-linejoin',
  'font-family', 'font-size', 'font-weight', 'font-style', 'text-anchor', 'paint-order', 'visibility',
] as const;
const NOT_INHERITED: Readonly<Record<string, string>> = { opacity: '1' };

/** Marks that only serve the pointer and the keyboard: not part of the picture. */
const INTERACTIVE = '.hit, .mark-hit, g.focus > *, g.selection > *';

/** The file's size in CSS px for these panels. */
export function exportSize(panels: readonly ExportPanel[]): { width: number; height: number } {
  const cols = Math.min(PER_ROW, Math.max(1, panels.length));
  const rows = Math.ceil(panels.length / cols);
  const cellWidth = Math.max(0, ...panels.map((p) => p.snapshot.width));
  const cellHeight = Math.max(0, ...panels.map((p) => p.snapshot.height)) + PANEL_HEAD;
  return { width: MARGIN * 2 + cols * cellWidth + (cols - 1) * GAP, height: TITLE_BLOCK + rows * cellHeight + (rows - 1) * GAP + MARGIN };
}

/** "Pipeline · 10 × INCR · 3.7 ms": the run's mode, workload and total time (t0 → last reply, client socket), as its panel heads it. */
export function panelHeading(doc: TraceDocument): string {
  return `${modeBadge(doc.run.mode)} · ${runTitle(doc.run)} · ${formatUs(doc.totals.durationUs)}${doc.incomplete ? ` ${incompleteUntil(doc)}` : ''}`;
}

/** Where the figures come from: one sentence per run, for the file's <desc> and its subtitle. */
export function provenanceText(doc: TraceDocument): string {
  const delay = doc.rtt.addedMs > 0 || doc.rtt.jitterMs > 0 ? `, added delay ${doc.rtt.addedMs} ms RTT ± ${doc.rtt.jitterMs} ms (proxy)` : '';
  const cluster = doc.cluster;
  const masters = cluster?.topology.nodes.filter((n) => n.role === 'master').length ?? 0;
  const against = cluster
    ? `a Redis Cluster of ${masters} master${masters === 1 ? '' : 's'} (Redis ${doc.redis.version}; slots from ${cluster.topology.source === 'cluster-shards' ? 'CLUSTER SHARDS' : 'CLUSTER SLOTS'} before the run)`
    : `Redis ${doc.redis.version}`;
  return `Run ${doc.run.id}, started ${doc.run.startedAt}: ${doc.recorder.client} on ${doc.recorder.runtime} against ${against}${delay}; ` +
    `times since t0 measured at the client socket${doc.serverTrace ? ', Redis side from MONITOR/strace on the client\'s clock' : ''}; recorded by ${doc.recorder.tool} ${doc.recorder.version}.`;
}

/** The SVG text of the panels (an XML declaration, then one <svg>). `theme`: the element whose CSS variables give the colours (<html>). */
export function standaloneDiagramSvg(panels: readonly ExportPanel[], theme: Element = document.documentElement): string {
  const doc = theme.ownerDocument;
  const vars = getComputedStyle(theme);
  const colour = (name: string, fallback: string) => vars.getPropertyValue(name).trim() || fallback;
  const sans = vars.fontFamily || 'sans-serif';
  const { width, height } = exportSize(panels);
  const root = doc.createElementNS(SVG_NS, 'svg');
  set(root, { width, height, viewBox: `0 0 ${width} ${height}`, role: 'img', 'aria-labelledby': 'pipescope-title pipescope-desc' });
  const heading = panels.map((p) => panelHeading(p.doc)).join(' vs ');
  append(root, 'title', { id: 'pipescope-title' }).textContent = `Pipescope sequence diagram: ${heading}`;
  append(root, 'desc', { id: 'pipescope-desc' }).textContent = panels.map((p) => provenanceText(p.doc)).join(' ');
  append(root, 'rect', { width, height, fill: colour('--paper', '#ffffff') });
  const text = (x: number, y: number, content: string, attrs: Record<string, string | number>) => {
    append(root, 'text', { x, y, 'font-family': sans, ...attrs }).textContent = content;
  };
  text(MARGIN, 24, panels.length > 1 ? `Pipescope: ${panels.length} runs compared` : 'Pipescope', { fill: colour('--ink', '#000'), 'font-size': 15, 'font-weight': 650 });
  const first = panels[0]?.doc;
  if (first) {
    const source = `Times since t0 at the client socket · Redis ${first.redis.version} · ${first.recorder.client} on ${first.recorder.runtime} · recorded ${first.run.startedAt}`;
    text(MARGIN, 42, source, { fill: colour('--muted', '#555'), 'font-size': 11.5 });
  }
  const cols = Math.min(PER_ROW, Math.max(1, panels.length));
  const cellWidth = Math.max(0, ...panels.map((p) => p.snapshot.width));
  const cellHeight = Math.max(0, ...panels.map((p) => p.snapshot.height)) + PANEL_HEAD;
  panels.forEach((panel, i) => {
    const x = MARGIN + (i % cols) * (cellWidth + GAP);
    const y = TITLE_BLOCK + Math.floor(i / cols) * (cellHeight + GAP);
    text(x, y + 14, panelHeading(panel.doc), { fill: colour('--ink', '#000'), 'font-size': 13, 'font-weight': 600 });
    root.append(panelSvg(panel, `p${i + 1}`, x, y + PANEL_HEAD));
  });
  return `<?xml version="1.0" encoding="UTF-8"?>\n${new XMLSerializer().serializeToString(root)}\n`;
}

/** One diagram: a nested <svg> at (x, y) holding the canvas's pixels (canvas mode) under a styled copy of the painted SVG. */
function panelSvg({ snapshot }: ExportPanel, idPrefix: string, x: number, y: number): SVGSVGElement {
  const { svg, width, height } = snapshot;
  const doc = svg.ownerDocument;
  const out = doc.createElementNS(SVG_NS, 'svg');
  set(out, { x, y, width, height, viewBox: `0 0 ${width} ${height}`, overflow: 'hidden' });
  if (snapshot.canvasPng) {
    const image = append(out, 'image', { x: 0, y: 0, width, height, preserveAspectRatio: 'none', href: snapshot.canvasPng });
    if (snapshot.canvasShownPx !== null) {
      append(append(append(out, 'defs', {}), 'clipPath', { id: `${idPrefix}-bands` }), 'rect', { x: 0, y: 0, width, height: Math.max(0, snapshot.canvasShownPx) });
      image.setAttribute('clip-path', `url(#${idPrefix}-bands)`);
    }
  }
  const copy = svg.cloneNode(true) as SVGSVGElement;
  inlineStyles(svg, copy, null);
  for (const mark of Array.from(copy.querySelectorAll(INTERACTIVE))) mark.remove();
  renameIds(copy, idPrefix);
  const g = append(out, 'g', {});
  for (const attr of INHERITED) {
    const value = copy.getAttribute(attr);
    if (value !== null) g.setAttribute(attr, value);
  }
  g.append(...Array.from(copy.childNodes));
  return out;
}

/**
 * Writes each element's computed style as presentation attributes on its copy (walked in step with
 * the original) and drops classes, data- attributes and what only the live diagram needs; elements
 * not displayed are removed.
 */
function inlineStyles(original: Element, copy: Element, parent: CSSStyleDeclaration | null): void {
  const style = getComputedStyle(original);
  for (const attr of INHERITED) {
    const value = style.getPropertyValue(attr);
    if (value && (parent === null || parent.getPropertyValue(attr) !== value)) copy.setAttribute(attr, value);
  }
  for (const [attr, initial] of Object.entries(NOT_INHERITED)) {
    const value = style.getPropertyValue(attr);
    if (value && value !== initial) copy.setAttribute(attr, value);
  }
  for (const name of copy.getAttributeNames()) {
    if (name === 'class' || name === 'style' || name === 'tabindex' || name === 'role' || name.startsWith('data-') || name.startsWith('aria-') || name === 'pointer-events') copy.removeAttribute(name);
  }
  const originals = Array.from(original.children);
  const copies = Array.from(copy.children);
  originals.forEach((child, i) => {
    const twin = copies[i]!;
    if (getComputedStyle(child).display === 'none') twin.remove();
    else inlineStyles(child, twin, style);
  });
}

/** Gives the copy's ids a prefix of its own (two panels must not share a marker id) and follows every url(#…) and href to them. */
function renameIds(root: Element, prefix: string): void {
  const renamed = new Map<string, string>();
  for (const el of Array.from(root.querySelectorAll('[id]'))) {
    const next = `${prefix}-${el.id.replace(/^diagram\d+-/, '')}`;
    renamed.set(el.id, next);
    el.id = next;
  }
  for (const el of [root, ...Array.from(root.querySelectorAll('*'))]) {
    for (const name of el.getAttributeNames()) {
      const value = el.getAttribute(name)!;
      if (!value.includes('#')) continue;
      const next = value.replace(/url\(#([^)]+)\)/g, (m, id: string) => (renamed.has(id) ? `url(#${renamed.get(id)})` : m));
      if (next !== value) el.setAttribute(name, next);
    }
  }
}

function append(parent: Element, name: string, attrs: Record<string, string | number>): SVGElement {
  const el = parent.ownerDocument.createElementNS(SVG_NS, name);
  set(el, attrs);
  parent.append(el);
  return el;
}

function set(el: Element, attrs: Record<string, string | number>): void {
  for (const [k, v] of Object.entries(attrs)) el.setAttribute(k, String(v));
}
