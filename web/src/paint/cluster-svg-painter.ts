// Paints a cluster run's diagram from cluster-layout.ts's draw lists: the node lifelines (replicas
// thinner) with their heads, the sockets' lanes and their write/read boxes, the request and reply
// arrows (data-testid=request-arrow / reply-arrow with data-index, as in a single Redis's diagram, so
// hover, tooltips and tests find them alike), redirect arrows (data-testid=redirect-arrow, the error's
// text beside them, ASKING marked at the target), refusals on a node's lifeline (node-refusal) and the
// client library's (client-refusal, client-error), and the slot strip (slot-strip, slot-tick). Colours of nodes are
// classes (node-colour-0 …), so both themes and the SVG export resolve them from the stylesheet.
// Every text is where the one label placement put it (cluster-labels-layout.ts), shortened or left out
// where it found no room. Only loops over what layout produced; computes no positions.
import { select, type BaseType, type Selection } from 'd3';
import { splitHashTag, type TaggedKey } from '../model/hash-tag.ts';
import type { ClusterArrow, ClusterLayout } from '../layout/cluster-layout.ts';
import type { ClusterGeometry } from '../layout/cluster-geometry.ts';
import { clusterLabelKeys, ROW_AIR_PX } from '../layout/cluster-labels-layout.ts';
import type { PlacedLabel } from '../layout/label-placement.ts';
import { svgElement, type SvgLayers } from './sequence-svg-painter.ts';

type G = Selection<SVGGElement, unknown, null, undefined>;

export interface ClusterLayers {
  /** Outside the plot's clip: lifelines, heads, the slot strip. */
  frame: G;
  /** Inside it: arrows, marks, redirects. */
  plot: G;
  ids: SvgLayers['ids'];
}

/** How many node colours the stylesheet defines (node-colour-0 … -5); further nodes cycle. */
const NODE_COLOURS = 6;

export function nodeColourClass(colour: number): string {
  return colour < 0 ? 'node-colour-none' : `node-colour-${colour % NODE_COLOURS}`;
}

export function createClusterLayers(layers: SvgLayers): ClusterLayers {
  const frame = layers.svg.insert('g', 'g.plot').attr('class', 'cluster-frame');
  const plot = layers.svg.select<SVGGElement>('g.plot').insert('g', 'g.selection').attr('class', 'cluster-plot');
  return { frame, plot, ids: layers.ids };
}

/** Placed labels by key (diagram-labels-layout.ts); a key missing is a label left out. */
export type ClusterLabels = ReadonlyMap<string, PlacedLabel>;

/** Pass null to remove every cluster element (a run against a single Redis). */
export function paintCluster(layers: ClusterLayers, g: ClusterGeometry | null, layout: ClusterLayout | null, labels: ClusterLabels = new Map()): void {
  if (g === null || layout === null) {
    layers.frame.selectChildren().remove();
    layers.plot.selectChildren().remove();
    return;
  }
  paintFrame(layers.frame, g, layout, labels);
  paintPlot(layers, layout, labels);
}

/** Sets a text element to its placed label (x, y, anchor, text), or empties it when the label was left out. */
function placeText<D, P extends BaseType, PD>(text: Selection<SVGTextElement, D, P, PD>, placed: PlacedLabel | undefined, dx = 0): void {
  if (!placed) {
    text.text('');
    return;
  }
  text.attr('x', placed.x - dx).attr('y', placed.y).attr('text-anchor', placed.anchor).text(placed.text);
}

function paintFrame(frame: G, g: ClusterGeometry, layout: ClusterLayout, labels: ClusterLabels): void {
  frame
    .selectAll<SVGLineElement, ClusterLayout['lifelines'][number]>('line.node-lifeline')
    .data(layout.lifelines, (d) => d.id)
    .join('line')
    .attr('class', (d) => `node-lifeline ${nodeColourClass(d.colour)}${d.replica ? ' replica' : ''}`)
    .attr('data-testid', (d) => (d.replica ? 'replica-lifeline' : 'node-lifeline'))
    .attr('data-node', (d) => d.id)
    .attr('x1', (d) => d.x).attr('x2', (d) => d.x)
    .attr('y1', g.plotTop - 10).attr('y2', g.plotBottom + 8);
  frame
    .selectAll<SVGLineElement, ClusterLayout['socketHeads'][number]>('line.socket-lane')
    .data(layout.socketHeads, (d) => d.connection)
    .join('line')
    .attr('class', (d) => `socket-lane ${nodeColourClass(d.colour)}`)
    .attr('data-testid', 'socket-lane')
    .attr('x1', (d) => d.x).attr('x2', (d) => d.x)
    .attr('y1', g.plotTop - 4).attr('y2', g.plotBottom + 8);
  frame
    .selectAll<SVGRectElement, ClusterLayout['socketHeads'][number]>('rect.socket-head')
    .data(layout.socketHeads, (d) => d.connection)
    .join((enter) => enter.append('rect').call((r) => r.append('title')))
    .attr('class', (d) => `socket-head ${nodeColourClass(d.colour)}`)
    .attr('x', (d) => d.x - 4).attr('y', g.plotTop - 12).attr('width', 8).attr('height', 8).attr('rx', 2)
    .each(function (d) {
      this.querySelector('title')!.textContent = d.title;
    });
  frame
    .selectAll<SVGGElement, ClusterLayout['nodeHeads'][number]>('g.node-head')
    .data(layout.nodeHeads, (d) => d.id)
    .join((enter) => {
      const group = enter.append('g');
      group.append('rect').attr('class', 'node-swatch').attr('width', 9).attr('height', 9).attr('rx', 2);
      group.append('text').attr('class', 'lane-head node-title');
      group.append('text').attr('class', 'lane-note node-note');
      return group;
    })
    .attr('class', (d) => `node-head ${nodeColourClass(d.colour)}`)
    .attr('data-testid', 'node-head')
    .attr('transform', (d) => `translate(${d.x},0)`)
    .each(function (d) {
      const group = select(this);
      group.select('.node-swatch').attr('x', -4.5).attr('y', 34);
      placeText(group.select<SVGTextElement>('.node-title'), labels.get(clusterLabelKeys.node(d.id)), d.x);
      placeText(group.select<SVGTextElement>('.node-note'), labels.get(clusterLabelKeys.nodeNote(d.id)), d.x);
    });
  paintStrip(frame, g, layout, labels);
}

function paintStrip(frame: G, g: ClusterGeometry, layout: ClusterLayout, labels: ClusterLabels): void {
  const strip = frame
    .selectAll<SVGGElement, ClusterLayout>('g.slot-strip')
    .data([layout])
    .join((enter) => {
      const group = enter.append('g').attr('class', 'slot-strip').attr('data-testid', 'slot-strip');
      group.append('g').attr('class', 'slot-segments');
      group.append('g').attr('class', 'slot-ticks');
      group.append('text').attr('class', 'lane-note slot-caption');
      group.append('text').attr('class', 'lane-note density-note');
      return group;
    });
  const { top, height } = g.strip;
  strip
    .select<SVGGElement>('g.slot-segments')
    .selectAll<SVGGElement, ClusterLayout['segments'][number]>('g.slot-segment')
    .data((d) => d.segments)
    .join((enter) => {
      const group = enter.append('g');
      group.append('rect').append('title');
      group.append('text').attr('class', 'slot-range');
      return group;
    })
    .attr('class', (d) => `slot-segment ${nodeColourClass(d.colour)}`)
    .each(function (d) {
      const group = select(this);
      group.select('rect').attr('x', d.x).attr('y', top).attr('width', Math.max(0.5, d.width)).attr('height', height).select('title').text(d.title);
      placeText(group.select<SVGTextElement>('text'), labels.get(clusterLabelKeys.slotRange(d.first)));
    });
  strip
    .select<SVGGElement>('g.slot-ticks')
    .selectAll<SVGPathElement, ClusterLayout['ticks'][number]>('path.slot-tick')
    .data((d) => d.ticks, (d) => d.slot)
    .join((enter) => enter.append('path').call((p) => p.append('title')))
    .attr('class', layout.denseTicks ? 'slot-tick dense' : 'slot-tick')
    .attr('data-testid', 'slot-tick')
    .attr('data-slot', (d) => d.slot)
    .attr('data-count', (d) => d.commands)
    .attr('d', (d) => `M${d.x - layout.tickHalfWidth},${top - 8} L${d.x + layout.tickHalfWidth},${top - 8} L${d.x},${top - 1} Z`)
    .each(function (d) {
      this.querySelector('title')!.textContent = d.title;
    });
  placeText(strip.select<SVGTextElement>('text.slot-caption'), labels.get(clusterLabelKeys.slotCaption));
  placeText(strip.select<SVGTextElement>('text.density-note'), labels.get(clusterLabelKeys.densityNote));
}

function paintPlot(layers: ClusterLayers, layout: ClusterLayout, labels: ClusterLabels): void {
  const { plot, ids } = layers;
  const head = (d: ClusterArrow) => `url(#${d.error ? ids.errorHead : d.kind === 'request' ? ids.requestHead : ids.replyHead})`;
  for (const kind of ['reply', 'request'] as const) {
    const items = kind === 'request' ? layout.requests : layout.replies;
    plot
      .selectAll<SVGGElement, ClusterArrow>(`g.arrow.${kind}`)
      .data(items, (d) => d.index)
      .join((enter) => {
        const group = enter.append('g').attr('class', `arrow ${kind}`);
        group.append('line').attr('class', 'shaft').attr('data-testid', `${kind}-arrow`);
        group.append('line').attr('class', 'hit');
        return group;
      })
      .attr('data-index', (d) => d.index)
      .attr('data-node-colour', (d) => d.colour)
      .classed('error', (d) => d.error)
      .each(function (d) {
        const [shaft, hit] = this.children as unknown as [SVGLineElement, SVGLineElement];
        line(shaft, d.x1, d.y, d.x2 + (d.x2 > d.x1 ? -1 : 1), d.y);
        shaft.setAttribute('data-index', String(d.index));
        shaft.setAttribute('marker-end', head(d));
        line(hit, d.x1, d.y, d.x2, d.y);
      });
  }
  paintArrowLabels(plot, layout, labels);
  plot
    .selectAll<SVGGElement, ClusterLayout['marks'][number]>('g.socket-mark')
    .data(layout.marks, (d) => `${d.kind}-${d.event}`)
    .join((enter) => {
      const group = enter.append('g');
      group.append('rect').attr('class', 'mark-box').attr('width', 8).attr('height', 5).attr('rx', 1).append('title');
      return group;
    })
    .attr('class', (d) => `socket-mark mark ${d.kind}`)
    .attr('data-wire', (d) => `${d.kind}:${d.event}`)
    .attr('transform', (d) => `translate(${d.x - 4},${d.y})`)
    .each(function (d) {
      const box = select(this).select('rect').attr('x', 0).attr('y', -2.5);
      box.select('title').text(d.title);
    });
  plot
    .selectAll<SVGGElement, ClusterLayout['redirects'][number]>('g.redirect')
    .data(layout.redirects, (d) => d.index)
    .join((enter) => {
      const group = enter.append('g').attr('class', 'redirect');
      group.append('path').attr('class', 'redirect-shaft').attr('data-testid', 'redirect-arrow');
      return group;
    })
    .attr('data-kind', (d) => d.kind)
    .attr('data-index', (d) => d.index)
    .each(function (d) {
      // A gentle arc from the refusing node to the node the command went to next, bulging upwards.
      const mx = (d.x1 + d.x2) / 2;
      const my = Math.min(d.y1, d.y2) - 14;
      select(this).select('path').attr('d', `M${d.x1},${d.y1} Q${mx},${my} ${d.x2 + (d.x2 > d.x1 ? -2 : 2)},${d.y2}`).attr('marker-end', `url(#${layers.ids.errorHead})`);
    });
  paintRedirectLabels(plot, layout, labels);
  plot
    .selectAll<SVGGElement, ClusterLayout['refusals'][number]>('g.node-refusal')
    .data(layout.refusals, (d) => d.index)
    .join((enter) => {
      const group = enter.append('g').attr('class', 'node-refusal').attr('data-testid', 'node-refusal');
      group.append('path').attr('class', 'error-mark');
      group.append('text').attr('class', 'arrow-label error');
      group.append('title');
      return group;
    })
    .attr('data-kind', (d) => d.kind)
    .each(function (d) {
      const group = select(this);
      group.select('path').attr('d', `M${d.x - 5},${d.y - 5} L${d.x + 5},${d.y + 5} M${d.x - 5},${d.y + 5} L${d.x + 5},${d.y - 5}`);
      placeText(group.select<SVGTextElement>('text'), labels.get(clusterLabelKeys.refusal(d.index)));
      group.select('title').text(d.title);
    });
  for (const [className, mark, key] of [
    ['client-refusal', layout.clientRefusal, clusterLabelKeys.clientRefusal],
    ['client-error', layout.clientError, clusterLabelKeys.clientError],
  ] as const) {
    plot
      .selectAll<SVGGElement, NonNullable<ClusterLayout['clientRefusal']>>(`g.${className}`)
      .data(mark ? [mark] : [])
      .join((enter) => {
        const group = enter.append('g').attr('class', className).attr('data-testid', className);
        group.append('circle').attr('r', 6);
        group.append('path');
        group.append('text').attr('class', 'arrow-label error');
        group.append('title');
        return group;
      })
      .each(function (d) {
        const group = select(this);
        group.select('circle').attr('cx', d.x).attr('cy', d.y);
        group.select('path').attr('d', `M${d.x - 4},${d.y + 4} L${d.x + 4},${d.y - 4}`);
        placeText(group.select<SVGTextElement>('text'), labels.get(key));
        group.select('title').text(d.title);
      });
  }
}

/**
 * The redirects' labels (Redis's error text, and the ASKING an ASK needs), in a layer over every arrow and
 * arc: a resharding run's ASKs come one after another, and a later arc must not cross an earlier label.
 */
function paintRedirectLabels(plot: G, layout: ClusterLayout, labels: ClusterLabels): void {
  const layer = plot.selectAll<SVGGElement, null>('g.redirect-labels').data([null]).join('g').attr('class', 'redirect-labels');
  layer.raise();
  layer
    .selectAll<SVGGElement, ClusterLayout['redirects'][number]>('g.redirect-label-box')
    .data(layout.redirects, (d) => d.index)
    .join((enter) => {
      const group = enter.append('g').attr('class', 'redirect-label-box');
      group.append('rect').attr('class', 'label-backdrop redirect');
      group.append('text').attr('class', 'redirect-label').attr('data-testid', 'redirect-label');
      return group;
    })
    .attr('data-kind', (d) => d.kind)
    .attr('data-index', (d) => d.index)
    .each(function (d) {
      const group = select(this);
      const label = labels.get(clusterLabelKeys.redirect(d.index));
      placeBackdrop(group.select<SVGRectElement>('rect.redirect'), label);
      placeText(group.select<SVGTextElement>('text.redirect-label'), label);
      const askingLabel = d.asking === null ? undefined : labels.get(clusterLabelKeys.asking(d.index));
      if (!askingLabel) {
        group.selectAll('.asking').remove();
        return;
      }
      if (group.select('text.asking-label').empty()) {
        group.append('rect').attr('class', 'label-backdrop asking');
        group.append('text').attr('class', 'asking-label asking').attr('data-testid', 'asking-label');
      }
      placeBackdrop(group.select<SVGRectElement>('rect.asking'), askingLabel);
      placeText(group.select<SVGTextElement>('text.asking-label'), askingLabel);
    });
}

/** A backdrop in the paper's colour over the box the placement reserved for a label (none: hidden). */
function placeBackdrop(rect: Selection<SVGRectElement, unknown, null, undefined>, placed: PlacedLabel | undefined): void {
  if (!placed) {
    rect.attr('width', 0).attr('height', 0);
    return;
  }
  const { box } = placed;
  rect.attr('x', box.x0).attr('y', box.y0).attr('width', box.x1 - box.x0).attr('height', box.y1 - box.y0).attr('rx', 2);
}

/**
 * The arrows' labels, in a layer over every arrow (a label crosses other nodes' arrows): a request's command
 * with its {hash tag} in bold (tspan.hash-tag), an error reply's text; each as placed, the others left out.
 */
function paintArrowLabels(plot: G, layout: ClusterLayout, labels: ClusterLabels): void {
  const placed = [...layout.replies, ...layout.requests].flatMap((d) => {
    const label = d.label === undefined ? undefined : labels.get(d.kind === 'request' ? clusterLabelKeys.request(d.index) : clusterLabelKeys.reply(d.index));
    return label ? [{ d, label }] : [];
  });
  const layer = plot.selectAll<SVGGElement, null>('g.arrow-labels').data([null]).join('g').attr('class', 'arrow-labels');
  layer.raise();
  layer
    .selectAll<SVGGElement, (typeof placed)[number]>('g.arrow-label-box')
    .data(placed, (p) => `${p.d.kind}:${p.d.index}`)
    .join((enter) => {
      const group = enter.append('g').attr('class', 'arrow-label-box');
      group.append('rect').attr('class', 'label-backdrop');
      group.append('text');
      return group;
    })
    .each(function (p) {
      const { box } = p.label;
      // A backdrop in the paper's colour over the box the placement reserved: the arrows it crosses stay out of the text.
      const air = p.d.kind === 'request' ? ROW_AIR_PX : 0;
      select(this).select('rect').attr('x', box.x0).attr('y', box.y0 + air).attr('width', box.x1 - box.x0).attr('height', box.y1 - box.y0 - 2 * air).attr('rx', 2);
      const text = select(this).select<SVGTextElement>('text')
        .attr('class', `arrow-label ${p.d.kind}${p.d.error ? ' error' : ''}`)
        .attr('data-testid', p.d.kind === 'request' ? 'request-label' : 'reply-label')
        .attr('data-index', p.d.index)
        .attr('x', p.label.x)
        .attr('y', p.label.y)
        .attr('text-anchor', p.label.anchor);
      text.node()!.replaceChildren(...taggedSpans(p.d.kind === 'request' ? splitHashTag(p.label.text) : { before: p.label.text, tag: '', after: '' }));
    });
}

function taggedSpans(key: TaggedKey): SVGTSpanElement[] {
  return [['', key.before], ['hash-tag', key.tag], ['', key.after]].filter(([, t]) => t !== '').map(([cls, t]) => {
    const span = svgElement('tspan');
    if (cls) {
      span.setAttribute('class', cls);
      span.setAttribute('data-testid', 'hash-tag');
    }
    span.textContent = t!;
    return span;
  });
}

function line(element: SVGLineElement, x1: number, y1: number, x2: number, y2: number): void {
  element.setAttribute('x1', String(x1));
  element.setAttribute('y1', String(y1));
  element.setAttribute('x2', String(x2));
  element.setAttribute('y2', String(y2));
}
