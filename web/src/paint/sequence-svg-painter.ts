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
import { labelKeys, type HeadName, type PlacedLabel } from '../layout/diagram-labels-layout.ts';
import type { LaneHeads } from '../layout/lane-heads-layout.ts';
import type { ArrowItem, BundleItem, LaneMark, SequenceLayout } from '../layout/sequence-layout.ts';
import { nestedErrorsText } from '../format/command-details.ts';
import type { ExecutionMark, OtherMark, ServerLaneLayout, SyscallMark } from '../layout/server-lane-layout.ts';
import type { AxisTick } from '../layout/time-scale-layout.ts';

type G = Selection<SVGGElement, unknown, null, undefined>;

/** A frame's placed labels by key (diagram-labels-layout.ts labelKeys): what is not in it is not printed. */
export type PlacedLabels = ReadonlyMap<string, PlacedLabel>;

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
  badges: G;
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
  // Badges over the arrows (a reply's shaft must not strike through "×30 in 1 write"), not catching the pointer.
  const badges = plot.append('g').attr('class', 'badges').attr('pointer-events', 'none');
  const marks = plot.append('g').attr('class', 'marks');
  const server = plot.append('g').attr('class', 'server-lane');
  const selection = plot.append('g').attr('class', 'selection').attr('pointer-events', 'none');
  const focus = plot.append('g').attr('class', 'focus').attr('pointer-events', 'none');
  return { svg, clipRect, grid, axis, lifelines, heads, replies, requests, bundles, badges, marks, serverBands, server, selection, focus, ids };
}

/** Axis, grid, lifelines and the lane heads (`labels`: the frame's placed labels, diagram-labels-layout.ts). */
export function paintFrame(layers: SvgLayers, g: DiagramGeometry, ticks: AxisTick[], heads: LaneHeads, labels: PlacedLabels): void {
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
  // The heads and notes where the label placement put them (diagram-labels-layout.ts), shortened where
  // the panel is narrow. A shortened one keeps its full text in a <title> (the pointer's tooltip), and a
  // lane's head also carries the notes of its side that found no room.
  const headData = HEADS.flatMap(({ name, cls, side }) => {
    const placed = labels.get(labelKeys.head(name));
    if (!placed) return [];
    const lines = placed.text === placed.full ? [] : [placed.full];
    if (name === 'client' || name === 'server') {
      for (const note of HEADS) if (note.side === side && note.name !== name && heads[note.name] && !labels.has(labelKeys.head(note.name))) lines.push(heads[note.name]!);
    }
    return [{ cls, placed, title: lines.join('\n') }];
  });
  layers.heads
    .selectAll<SVGTextElement, (typeof headData)[number]>('text')
    .data(headData)
    .join('text')
    .attr('class', (d) => d.cls)
    .attr('x', (d) => d.placed.x)
    .attr('y', (d) => d.placed.y)
    .attr('text-anchor', (d) => d.placed.anchor)
    .text((d) => d.placed.text)
    .each(function (this: SVGTextElement, d) {
      if (d.title) this.appendChild(svgElement('title')).textContent = d.title;
    });
}

/** The heads over the lifelines, in the order they are drawn, and their classes (diagram.css). */
const HEADS: readonly { name: HeadName; cls: string; side: 'client' | 'server' }[] = [
  { name: 'client', cls: 'lane-head', side: 'client' },
  { name: 'clientNote', cls: 'lane-note', side: 'client' },
  { name: 'server', cls: 'lane-head', side: 'server' },
  { name: 'serverNote', cls: 'lane-note server-note', side: 'server' },
  { name: 'serverLaneNote', cls: 'lane-note server-note', side: 'server' },
  { name: 'densityNote', cls: 'lane-note density-note', side: 'client' },
];

function joinArrows(layer: G, items: ArrowItem[], testId: string, layers: SvgLayers, labels: PlacedLabels): void {
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
      // A cut arrow (playback, under way) has no label of its own, whatever was placed for the whole one.
      paintArrowExtras(this, d, d.label === undefined ? undefined : labels.get(labelKeys.arrow(d.kind, d.index)));
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
function paintArrowExtras(group: SVGGElement, d: ArrowItem, placed: PlacedLabel | undefined): void {
  let label = group.querySelector<SVGTextElement>('text.arrow-label');
  if (placed === undefined) label?.remove();
  else {
    label ??= group.appendChild(svgElement('text'));
    label.setAttribute('class', d.error ? 'arrow-label error' : 'arrow-label');
    label.setAttribute('data-testid', d.kind === 'request' ? 'request-label' : 'reply-label');
    // Where the placement put it: below the arrow's end (a request comes down from the upper left, a reply
    // from the upper right, so the shaft stays clear), or above it where below was taken.
    label.setAttribute('x', String(placed.x));
    label.setAttribute('y', String(placed.y));
    label.setAttribute('text-anchor', placed.anchor);
    label.textContent = placed.text;
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

/** SVG mode: every arrow in view, with the labels placed for them. Pass null in canvas mode to remove them. */
export function paintArrows(layers: SvgLayers, layout: SequenceLayout | null, labels: PlacedLabels): void {
  joinArrows(layers.requests, layout?.requests ?? [], 'request-arrow', layers, labels);
  joinArrows(layers.replies, layout?.replies ?? [], 'reply-arrow', layers, labels);
}

interface Badge {
  key: string;
  kind: 'request' | 'reply';
  y: number;
  placed: PlacedLabel;
}

/**
 * Bundles: with `band`, a translucent band under the arrows along each bundle's line (data-testid=bundle-band),
 * and over the arrows each badge ("×10 in 1 write", or "×10" where the long form found no room) where the
 * label placement put it: requests' near the client end, above the line, replies' near Redis, below it (or
 * the other side where that was taken). A bundle whose badge found no room keeps its band; its write or
 * read mark's tooltip says how many commands it carried.
 */
export function paintBundles(layers: SvgLayers, g: DiagramGeometry, bundles: readonly (BundleItem | DensityLabel)[], band: boolean, labels: PlacedLabels): void {
  layers.bundles
    .selectAll<SVGGElement, BundleItem | DensityLabel>('g.bundle')
    .data(band ? bundles : [], (d) => `${d.kind}-${d.event}`)
    .join((enter) => {
      const group = enter.append('g');
      group.append('line').attr('class', 'bundle-band').attr('data-testid', 'bundle-band');
      return group;
    })
    .attr('class', (d) => `bundle ${d.kind}`)
    .select('line')
    .attr('x1', g.clientX)
    .attr('x2', g.serverX)
    .attr('y1', (d) => d.y)
    .attr('y2', (d) => d.y);
  const badges: Badge[] = [];
  for (const b of bundles) {
    const placed = labels.get(labelKeys.bundle(b.kind, b.event));
    if (placed) badges.push({ key: `${b.kind}-${b.event}`, kind: b.kind, y: b.y, placed });
  }
  layers.badges
    .selectAll<SVGGElement, Badge>('g.bundle')
    .data(badges, (d) => d.key)
    .join((enter) => {
      const group = enter.append('g');
      group.append('rect').attr('class', 'badge-bg').attr('rx', 3);
      group.append('text').attr('class', 'badge-text');
      return group;
    })
    .attr('class', (d) => `bundle badge ${d.kind}`)
    .attr('transform', (d) => `translate(0,${d.y})`)
    .each(function (d) {
      const group = select(this);
      // The placement's box is the badge; its text starts 5 px in. Plot px, made relative to the group's y.
      const { box, text } = d.placed;
      group.select('rect').attr('x', box.x0).attr('y', box.y0 - d.y).attr('width', box.x1 - box.x0).attr('height', box.y1 - box.y0);
      group.select('text').attr('x', d.placed.anchor === 'start' ? d.placed.x : d.placed.x - d.placed.width).attr('y', d.placed.y - d.y).text(text);
    });
}

/** SVG mode: one small box per socket write (request colour) and read (reply colour) on the client lane. */
export function paintMarks(layers: SvgLayers, g: DiagramGeometry, marks: LaneMark[], labels: PlacedLabels): void {
  layers.marks
    .selectAll<SVGGElement, LaneMark>('g.mark')
    .data(marks, (d) => `${d.kind}-${d.event}`)
    .join((enter) => {
      const group = enter.append('g');
      group.append('rect').attr('class', 'mark-box').attr('width', 8).attr('height', 5).attr('rx', 1);
      group.append('text').attr('text-anchor', 'end');
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
      // Its label where the placement kept it (shortened, or left out where it would run into the time
      // axis or another label: the mark's tooltip has the same facts). The baseline relative to the mark.
      const placed = labels.get(labelKeys.mark(d.kind, d.event));
      group
        .select('text')
        .attr('x', placed?.x ?? g.clientX - 15)
        .attr('y', placed ? placed.y - d.y : 0)
        .text(placed?.text ?? '');
    });
}

/**
 * The Redis side (SVG mode; pass null to remove it): the ± clock-uncertainty band behind each execution,
 * a diamond per execution on the lifeline, other clients' commands as grey dots on the lifeline, and
 * strace's calls as hollow ticks in the Redis lane — read blue (requests come in), write(v) vermillion
 * (replies go out), epoll_wait grey.
 */
export function paintServerLane(layers: SvgLayers, g: DiagramGeometry, layout: ServerLaneLayout | null, labels: PlacedLabels): void {
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
      group.append('text');
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
      const placed = labels.get(labelKeys.syscall(d.event));
      group
        .select('text')
        .attr('x', placed?.x ?? layout?.labelX ?? x)
        .attr('y', placed ? placed.y - d.y : 0)
        .text(placed?.text ?? '');
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
