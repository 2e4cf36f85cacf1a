// Paints a diagram's SVG layer from draw lists: time axis, lifelines, and — in SVG mode — one element
// per request and per reply (data-testid=request-arrow / reply-arrow, in index order), bundle badges,
// the client lane's write/read marks and, for server-traced runs, the Redis side: executions on the
// lifeline (data-testid=server-exec), strace syscalls (server-syscall) and other clients' commands.
// Marks that have a wire-view row carry data-wire (see model/wire-rows.ts) and are clickable.
// Only loops over what layout produced; computes no positions.
import { select, type Selection } from 'd3';
import type { DensityLabel } from '../layout/density-layout.ts';
import type { DiagramGeometry } from '../layout/diagram-geometry.ts';
import type { FocusMarks, FocusRing } from '../layout/focus-layout.ts';
import type { LaneHeads } from '../layout/lane-heads-layout.ts';
import type { ArrowItem, BundleItem, LaneMark, SequenceLayout } from '../layout/sequence-layout.ts';
import { nestedErrorsText } from '../format/command-details.ts';
import type { ExecutionMark, OtherMark, ServerLaneLayout, SyscallMark } from '../layout/server-lane-layout.ts';
import type { AxisTick } from '../layout/time-scale-layout.ts';

type G = Selection<SVGGElement, unknown, null, undefined>;

export interface SvgLayers {
  svg: Selection<SVGSVGElement, unknown, null, undefined>;
  clipRect: Selection<SVGRectElement, unknown, null, undefined>;
  grid: G;
  axis: G;
  lifelines: G;
  heads: G;
  replies: G;
  requests: G;
  bundles: G;
  marks: G;
  serverBands: G;
  server: G;
  selection: G;
  focus: G;
  ids: { clip: string; requestHead: string; replyHead: string; errorHead: string };
}

const SVG_NS = 'http://www.w3.org/2000/svg';

export function createSvgLayers(svgElement: SVGSVGElement, idPrefix: string): SvgLayers {
  const svg = select(svgElement);
  const ids = { clip: `${idPrefix}-clip`, requestHead: `${idPrefix}-req`, replyHead: `${idPrefix}-rep`, errorHead: `${idPrefix}-err` };
  const defs = svg.append('defs');
  const clipRect = defs.append('clipPath').attr('id', ids.clip).append('rect');
  for (const [id, cls] of [[ids.requestHead, 'request'], [ids.replyHead, 'reply'], [ids.errorHead, 'error']] as const) {
    defs
      .append('marker')
      .attr('id', id)
      .attr('viewBox', '0 0 10 10')
      .attr('refX', 9)
      .attr('refY', 5)
      .attr('markerWidth', 7)
      .attr('markerHeight', 7)
      .attr('orient', 'auto-start-reverse')
      .append('path')
      .attr('d', 'M0,0 L10,5 L0,10 z')
      .attr('class', `arrowhead ${cls}`);
  }
  const grid = svg.append('g').attr('class', 'grid');
  const axis = svg.append('g').attr('class', 'axis');
  const lifelines = svg.append('g').attr('class', 'lifelines');
  const heads = svg.append('g').attr('class', 'heads');
  const plot = svg.append('g').attr('class', 'plot').attr('clip-path', `url(#${ids.clip})`);
  const serverBands = plot.append('g').attr('class', 'server-bands');
  const bundles = plot.append('g').attr('class', 'bundles');
  // Replies first, requests on top: where a reply and the next request nearly coincide, the pointer finds the request.
  const replies = plot.append('g').attr('class', 'replies');
  const requests = plot.append('g').attr('class', 'requests');
  const marks = plot.append('g').attr('class', 'marks');
  const server = plot.append('g').attr('class', 'server-lane');
  const selection = plot.append('g').attr('class', 'selection').attr('pointer-events', 'none');
  const focus = plot.append('g').attr('class', 'focus').attr('pointer-events', 'none');
  return { svg, clipRect, grid, axis, lifelines, heads, replies, requests, bundles, marks, serverBands, server, selection, focus, ids };
}

export function paintFrame(layers: SvgLayers, g: DiagramGeometry, ticks: AxisTick[], heads: LaneHeads): void {
  layers.svg.attr('width', g.width).attr('height', g.height).attr('viewBox', `0 0 ${g.width} ${g.height}`);
  layers.clipRect.attr('x', 0).attr('y', g.plotTop - 8).attr('width', g.width).attr('height', g.plotBottom - g.plotTop + 16);
  layers.grid
    .selectAll('line')
    .data(ticks)
    .join('line')
    .attr('x1', g.axisX)
    .attr('x2', g.serverX)
    .attr('y1', (d) => d.y)
    .attr('y2', (d) => d.y);
  layers.axis
    .selectAll('text')
    .data(ticks)
    .join('text')
    .attr('x', g.axisX - 6)
    .attr('y', (d) => d.y)
    .attr('dy', '0.32em')
    .text((d) => d.label);
  layers.lifelines
    .selectAll('line')
    .data([
      { x: g.clientX, cls: 'lifeline client' },
      { x: g.serverX, cls: 'lifeline server' },
    ])
    .join('line')
    .attr('class', (d) => d.cls)
    .attr('x1', (d) => d.x)
    .attr('x2', (d) => d.x)
    .attr('y1', g.plotTop - 10)
    .attr('y2', g.plotBottom + 10);
  // Client head and lane note end at the client lifeline (the lane lies to its left); Redis's end at
  // its lifeline; the density note starts just right of the client lifeline.
  const hasServerLane = g.width - g.serverX > 40;
  const serverHeadX = hasServerLane ? g.width - 6 : g.serverX + 8;
  const headData = [
    { x: g.clientX + 4, anchor: 'end', y: 14, cls: 'lane-head', text: heads.client },
    { x: g.clientX + 4, anchor: 'end', y: 28, cls: 'lane-note', text: heads.clientNote },
    // With a Redis lane the head and notes end at the panel's right edge, over the lane.
    { x: serverHeadX, anchor: 'end', y: 14, cls: 'lane-head', text: heads.server },
    { x: serverHeadX, anchor: 'end', y: 28, cls: 'lane-note server-note', text: heads.serverNote },
    ...(heads.serverLaneNote ? [{ x: serverHeadX, anchor: 'end', y: 41, cls: 'lane-note server-note', text: heads.serverLaneNote }] : []),
    ...(heads.densityNote ? [{ x: g.clientX + 8, anchor: 'start', y: 41, cls: 'lane-note density-note', text: heads.densityNote }] : []),
  ];
  layers.heads
    .selectAll<SVGTextElement, (typeof headData)[number]>('text')
    .data(headData)
    .join('text')
    .attr('class', (d) => d.cls)
    .attr('x', (d) => Math.max(4, d.x))
    .attr('y', (d) => d.y)
    .attr('text-anchor', (d) => d.anchor)
    .text((d) => d.text)
    .each(function (this: SVGTextElement, d) {
      // A narrow panel (a compare in a docs column) puts the client lifeline so near the left edge that a
      // head ending there would be cut off: it then starts at the edge instead. Measured only when it may
      // overflow (the widest lane leaves room), and only where SVG text can be measured (not in jsdom).
      if (d.anchor !== 'end' || d.x >= NARROW_HEAD_X || typeof this.getComputedTextLength !== 'function') return;
      if (d.x - this.getComputedTextLength() >= HEAD_EDGE_PX) return;
      this.setAttribute('text-anchor', 'start');
      this.setAttribute('x', String(HEAD_EDGE_PX));
    });
  fitHeadLines(layers.heads.selectAll<SVGTextElement, unknown>('text').nodes());
}

/** Room kept between two heads on one line, px. */
const HEAD_GAP_PX = 8;
/** A head with less room than this is left out rather than cut to a few letters, px. */
const MIN_CUT_HEAD_PX = 40;

/**
 * A narrow diagram (a phone's width) may not hold a line's client text and Redis text side by side ("lane:
 * socket writes & reads" beside "◆ executions from MONITOR, clock ±17 µs"). Redis's keeps its whole text
 * (where its times come from); the one left of it starts at the panel's edge and ends in "…" where the gap
 * before Redis's begins, its whole text kept as its tooltip, or is left out where only a few letters would
 * fit. Measured, so only where SVG text can be (not in jsdom).
 */
function fitHeadLines(texts: SVGTextElement[]): void {
  if (texts.length === 0 || typeof texts[0]!.getComputedTextLength !== 'function') return;
  const extent = (t: SVGTextElement) => {
    const x = Number(t.getAttribute('x'));
    const width = t.getComputedTextLength();
    return t.getAttribute('text-anchor') === 'end' ? { left: x - width, right: x } : { left: x, right: x + width };
  };
  const lines = new Map<string, SVGTextElement[]>();
  for (const t of texts) lines.set(t.getAttribute('y') ?? '', [...(lines.get(t.getAttribute('y') ?? '') ?? []), t]);
  for (const line of lines.values()) {
    if (line.length < 2) continue;
    const [left, right] = [...line].sort((a, b) => extent(a).left - extent(b).left);
    const rightLeft = extent(right!).left;
    if (extent(left!).right + HEAD_GAP_PX <= rightLeft) continue;
    const whole = left!.textContent ?? '';
    // A head that ends at the client lifeline moves to start at the edge: all the room left of Redis's.
    const startX = left!.getAttribute('text-anchor') === 'end' ? HEAD_EDGE_PX : extent(left!).left;
    left!.setAttribute('text-anchor', 'start');
    left!.setAttribute('x', String(startX));
    const room = rightLeft - HEAD_GAP_PX - startX;
    if (left!.getComputedTextLength() <= room) continue;
    if (room < MIN_CUT_HEAD_PX) {
      left!.textContent = '';
      continue;
    }
    // The longest prefix that fits with its "…", found by halving (a prefix's width grows with its length).
    const cut = (keep: number) => (left!.textContent = `${whole.slice(0, keep).trimEnd()}…`);
    let [fits, tooLong] = [0, whole.length];
    while (tooLong - fits > 1) {
      const mid = Math.floor((fits + tooLong) / 2);
      cut(mid);
      if (left!.getComputedTextLength() <= room) fits = mid;
      else tooLong = mid;
    }
    cut(fits);
    const title = document.createElementNS(SVG_NS, 'title');
    title.textContent = whole;
    left!.append(title);
  }
}

/** A head ending left of this x (px) may not fit; right of it, every head in use fits (the widest lane's client x is 230). */
const NARROW_HEAD_X = 200;
/** The head's distance from the panel's left edge when it is moved to start there, px. */
const HEAD_EDGE_PX = 2;

function joinArrows(layer: G, items: ArrowItem[], testId: string, layers: SvgLayers): void {
  const head = (d: ArrowItem) =>
    `url(#${d.error ? layers.ids.errorHead : d.kind === 'request' ? layers.ids.requestHead : layers.ids.replyHead})`;
  // Per command: the visible arrow (a <line> carrying the test id and the measured y1/y2) and, on top,
  // a wide transparent twin that catches the pointer; both sit in a <g data-index> for hover lookup.
  layer
    .selectAll<SVGGElement, ArrowItem>('g.arrow')
    .data(items, (d) => d.index)
    .join((enter) => {
      const g = enter.append('g').attr('class', `arrow ${testId === 'request-arrow' ? 'request' : 'reply'}`);
      g.append('line').attr('class', 'shaft').attr('data-testid', testId);
      g.append('line').attr('class', 'hit');
      return g;
    })
    .attr('data-index', (d) => d.index)
    .classed('error', (d) => d.error)
    .each(function (d) {
      const [shaft, hit] = this.children as unknown as [SVGLineElement, SVGLineElement];
      setLine(shaft, d.x1, d.y1, d.x2 + (d.x2 > d.x1 ? -1 : 1), d.y2);
      shaft.setAttribute('data-index', String(d.index));
      shaft.setAttribute('marker-end', head(d));
      setLine(hit, d.x1, d.y1, d.x2, d.y2);
      paintArrowExtras(this, d);
    })
    .order();
}

/**
 * An arrow's label (requests: the wire command at the Redis end; replies: the reply at the client end)
 * and, for an error reply, a cross at the client end (data-testid=error-mark; for a queued command that
 * failed when EXEC ran it, data-testid=exec-error-mark, with the error in its title); for a reply holding errors in
 * its array, a ring there (data-testid=nested-error-mark, its count in data-count and its title). Created only where there
 * is one, so plain runs' markup stays as it was.
 */
function paintArrowExtras(group: SVGGElement, d: ArrowItem): void {
  let label = group.querySelector<SVGTextElement>('text.arrow-label');
  if (d.label === undefined) label?.remove();
  else {
    label ??= group.appendChild(svgElement('text'));
    label.setAttribute('class', d.error ? 'arrow-label error' : 'arrow-label');
    label.setAttribute('data-testid', d.kind === 'request' ? 'request-label' : 'reply-label');
    const request = d.kind === 'request';
    label.setAttribute('x', String(request ? d.x2 - 8 : d.x2 + 16));
    // Below the arrow's end (layout's labelY): a request comes down from the upper left, a reply from the upper right, so the shaft stays clear.
    label.setAttribute('y', String(d.labelY ?? d.y2 + 12));
    label.setAttribute('text-anchor', request ? 'end' : 'start');
    label.textContent = d.label;
  }
  let mark = group.querySelector<SVGPathElement>('path.error-mark');
  // A queued command that failed when EXEC ran it is marked on its own arrow too: its reply said QUEUED,
  // its error is an element of EXEC's array (data-testid=exec-error-mark, the error in its title).
  const failed = d.failedInExec !== undefined;
  if (!d.error && !failed) mark?.remove();
  else {
    mark ??= group.appendChild(svgElement('path'));
    mark.setAttribute('class', failed ? 'error-mark exec-error-mark' : 'error-mark');
    mark.setAttribute('data-testid', failed ? 'exec-error-mark' : 'error-mark');
    const x = d.x2 + 9;
    mark.setAttribute('d', `M${x - 4},${d.y2 - 4} L${x + 4},${d.y2 + 4} M${x - 4},${d.y2 + 4} L${x + 4},${d.y2 - 4}`);
    const title = mark.querySelector('title');
    if (!failed) title?.remove();
    else (title ?? mark.appendChild(svgElement('title'))).textContent = `Failed when EXEC ran it${d.failedInExec ? `: ${d.failedInExec}` : ''} (an element of EXEC’s reply)`;
  }
  // Errors inside the reply (EXEC's array after a runtime error): a small ring where the cross would be, its count in the tooltip.
  let ring = group.querySelector<SVGCircleElement>('circle.nested-error-mark');
  if (!d.nestedErrors) ring?.remove();
  else {
    ring ??= group.appendChild(svgElement('circle'));
    ring.setAttribute('class', 'nested-error-mark');
    ring.setAttribute('data-testid', 'nested-error-mark');
    ring.setAttribute('data-count', String(d.nestedErrors.count));
    ring.setAttribute('cx', String(d.x2 + 9));
    ring.setAttribute('cy', String(d.y2));
    ring.setAttribute('r', '5');
    const title = ring.querySelector('title') ?? ring.appendChild(svgElement('title'));
    title.textContent = `This reply ${nestedErrorsText(d.nestedErrors)} inside its array`;
  }
}

function setLine(line: SVGLineElement, x1: number, y1: number, x2: number, y2: number): void {
  line.setAttribute('x1', String(x1));
  line.setAttribute('y1', String(y1));
  line.setAttribute('x2', String(x2));
  line.setAttribute('y2', String(y2));
}

/** SVG mode: every arrow in view. Pass null in canvas mode to remove them. */
export function paintArrows(layers: SvgLayers, layout: SequenceLayout | null): void {
  joinArrows(layers.requests, layout?.requests ?? [], 'request-arrow', layers);
  joinArrows(layers.replies, layout?.replies ?? [], 'reply-arrow', layers);
}

interface Badge {
  key: string;
  kind: 'request' | 'reply';
  y: number;
  label: string;
  band: boolean;
}

/** Bundle badges ("×10 in 1 write"): requests near the client end above the line, replies near Redis below it. */
export function paintBundles(layers: SvgLayers, g: DiagramGeometry, bundles: BundleItem[] | DensityLabel[], band: boolean): void {
  const badges: Badge[] = [];
  for (const [i, b] of bundles.entries()) {
    if (b.label === undefined) continue;
    badges.push({ key: `${b.kind}-${'event' in b ? b.event : i}`, kind: b.kind, y: b.y, label: b.label, band });
  }
  layers.bundles
    .selectAll<SVGGElement, Badge>('g.bundle')
    .data(badges, (d) => d.key)
    .join((enter) => {
      const group = enter.append('g');
      group.append('line').attr('class', 'bundle-band');
      group.append('rect').attr('class', 'badge-bg').attr('rx', 3);
      group.append('text').attr('class', 'badge-text');
      return group;
    })
    .attr('class', (d) => `bundle ${d.kind}`)
    .attr('transform', (d) => `translate(0,${d.y})`)
    .each(function (d) {
      const group = select(this);
      group
        .select('line')
        .attr('x1', g.clientX)
        .attr('x2', g.serverX)
        .attr('y1', 0)
        .attr('y2', 0)
        .attr('display', d.band ? null : 'none');
      const width = d.label.length * 6.3 + 10;
      const x = d.kind === 'request' ? g.clientX + 10 : g.serverX - 10 - width;
      // Requests' badges above the line, replies' below, unless that would leave the plot.
      const above = d.kind === 'request' ? d.y - 17 >= g.plotTop - 8 : d.y + 18 > g.plotBottom + 8;
      const y = above ? -17 : 4;
      group.select('rect').attr('x', x).attr('y', y).attr('width', width).attr('height', 14);
      group.select('text').attr('x', x + 5).attr('y', y + 10.5).text(d.label);
    });
}

/** SVG mode: one small box per socket write (request colour) and read (reply colour) on the client lane. */
export function paintMarks(layers: SvgLayers, g: DiagramGeometry, marks: LaneMark[]): void {
  layers.marks
    .selectAll<SVGGElement, LaneMark>('g.mark')
    .data(marks, (d) => `${d.kind}-${d.event}`)
    .join((enter) => {
      const group = enter.append('g');
      group.append('rect').attr('class', 'mark-box').attr('width', 8).attr('height', 5).attr('rx', 1);
      group.append('text').attr('text-anchor', 'end').attr('dy', '0.32em');
      // A taller transparent target: a 5 px box is hard to click.
      group.append('rect').attr('class', 'mark-hit').attr('width', 16).attr('height', 11);
      return group;
    })
    .attr('class', (d) => `mark ${d.kind}`)
    .attr('data-wire', (d) => `${d.kind}:${d.event}`)
    .attr('transform', (d) => `translate(0,${d.y})`)
    .each(function (d) {
      const group = select(this);
      group.select('.mark-box').attr('x', g.clientX - 11).attr('y', -2.5);
      group.select('.mark-hit').attr('x', g.clientX - 15).attr('y', -5.5);
      group
        .select('text')
        .attr('x', g.clientX - 15)
        // A label that would run into the time axis is left out (the tooltip has the same facts).
        .text(d.label !== undefined && d.label.length * 6.3 <= g.clientX - 15 - g.axisX ? d.label : '');
    });
}

/**
 * The Redis side (SVG mode; pass null to remove it): the ± clock-uncertainty band behind each execution,
 * a diamond per execution on the lifeline, other clients' commands as grey dots on the lifeline, and
 * strace's calls as hollow ticks in the Redis lane — read blue (requests come in), write(v) vermillion
 * (replies go out), epoll_wait grey.
 */
export function paintServerLane(layers: SvgLayers, g: DiagramGeometry, layout: ServerLaneLayout | null): void {
  const x = g.serverX;
  layers.serverBands
    .selectAll<SVGRectElement, ExecutionMark>('rect.exec-band')
    .data(layout?.executions ?? [], (d) => d.index)
    .join('rect')
    .attr('class', 'exec-band')
    .attr('x', x - 5)
    .attr('width', 10)
    .attr('y', (d) => d.bandY1)
    .attr('height', (d) => Math.max(1, d.bandY2 - d.bandY1));
  const server = layers.server;
  server
    .selectAll<SVGGElement, OtherMark>('g.other-mark')
    .data(layout?.others ?? [], (d) => d.event)
    .join((enter) => {
      const group = enter.append('g').attr('class', 'other-mark');
      group.append('circle').attr('r', 3);
      return group;
    })
    .attr('data-hover', (d) => `other:${d.event}`)
    .attr('data-count', (d) => d.count)
    .attr('transform', (d) => `translate(${x - 9},${d.y})`);
  server
    .selectAll<SVGPathElement, ExecutionMark>('path.exec-mark')
    .data(layout?.executions ?? [], (d) => d.index)
    .join('path')
    .attr('class', (d) => (d.error ? 'exec-mark error' : 'exec-mark'))
    .attr('data-testid', 'server-exec')
    .attr('data-index', (d) => d.index)
    .attr('data-count', (d) => d.count)
    .attr('d', (d) => `M${x},${d.y - 4} L${x + 4},${d.y} L${x},${d.y + 4} L${x - 4},${d.y} Z`);
  server
    .selectAll<SVGGElement, SyscallMark>('g.syscall-mark')
    .data(layout?.syscalls ?? [], (d) => d.event)
    .join((enter) => {
      const group = enter.append('g');
      group.append('rect').attr('class', 'syscall-box').attr('width', 8).attr('height', 5).attr('rx', 1);
      group.append('text').attr('dy', '0.32em');
      group.append('rect').attr('class', 'mark-hit').attr('width', 16).attr('height', 11);
      return group;
    })
    .attr('class', (d) => `syscall-mark ${d.call}`)
    .attr('data-testid', 'server-syscall')
    .attr('data-call', (d) => d.call)
    .attr('data-count', (d) => d.count)
    .attr('data-hover', (d) => `syscall:${d.event}`)
    // epoll_wait has no wire-view row (it moves no bytes).
    .attr('data-wire', (d) => (d.call === 'epoll_wait' || d.count > 1 ? null : `syscall:${d.event}`))
    .attr('transform', (d) => `translate(0,${d.y})`)
    .each(function (d) {
      const group = select(this);
      group.select('.syscall-box').attr('x', x + 6.5).attr('y', -2.5);
      group.select('.mark-hit').attr('x', x + 3).attr('y', -5.5);
      const room = g.width - 2 - (layout?.labelX ?? x);
      group
        .select('text')
        .attr('x', layout?.labelX ?? x)
        .text(d.label !== undefined && d.label.length * 6.3 <= room ? d.label : '');
    });
}

export interface SelectionMark {
  /** Plot px of the selected write/read/syscall mark, and which side it sits on. */
  y: number;
  side: 'client' | 'server';
}

/** The event picked in the wire view (or by a click on its mark): a ring around its mark. */
export function paintSelection(layers: SvgLayers, g: DiagramGeometry, selected: SelectionMark | null): void {
  layers.selection
    .selectAll<SVGRectElement, SelectionMark>('rect.selected-mark')
    .data(selected ? [selected] : [])
    .join('rect')
    .attr('class', 'selected-mark')
    .attr('data-testid', 'selected-mark')
    .attr('x', (d) => (d.side === 'client' ? g.clientX - 15 : g.serverX + 2.5))
    .attr('y', (d) => d.y - 6.5)
    .attr('width', 16)
    .attr('height', 13)
    .attr('rx', 3);
}

/** The hovered or focused command: both arrows emphasised and its latency as a bracket on the client lane. */
export function paintFocus(layers: SvgLayers, g: DiagramGeometry, focus: FocusMarks | null): void {
  const data = focus ? [focus] : [];
  layers.focus
    .selectAll<SVGGElement, FocusMarks>('g.focus-marks')
    .data(data)
    .join((enter) => {
      const group = enter.append('g').attr('class', 'focus-marks');
      group.append('line').attr('class', 'focus-request');
      group.append('line').attr('class', 'focus-reply');
      group.append('path').attr('class', 'focus-bracket');
      return group;
    })
    .each(function (d) {
      const group = select(this);
      group.select('.focus-request').attr('x1', g.clientX).attr('x2', g.serverX).attr('y1', d.sentY).attr('y2', d.atServerY);
      group.select('.focus-reply').attr('x1', g.serverX).attr('x2', g.clientX).attr('y1', d.leftServerY).attr('y2', d.repliedY);
      const x = g.clientX + 5;
      group.select('.focus-bracket').attr('d', `M${x + 4},${d.sentY} H${x} V${d.repliedY} H${x + 4}`);
    });
}

/** The keyboard cursor's mark: a ring (data-testid=focus-ring) around it, over the SVG marks or the density canvas alike. */
export function paintFocusRing(layers: SvgLayers, ring: FocusRing | null): void {
  layers.focus
    .selectAll<SVGRectElement, FocusRing>('rect.focus-ring')
    .data(ring ? [ring] : [])
    .join('rect')
    .attr('class', 'focus-ring')
    .attr('data-testid', 'focus-ring')
    .attr('data-kind', (d) => d.kind)
    .attr('x', (d) => d.x)
    .attr('y', (d) => d.y)
    .attr('width', (d) => d.width)
    .attr('height', (d) => Math.max(1, d.height))
    .attr('rx', 4);
}

export function svgElement<K extends keyof SVGElementTagNameMap>(name: K): SVGElementTagNameMap[K] {
  return document.createElementNS(SVG_NS, name);
}
