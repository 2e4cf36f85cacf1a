// Paints a cluster run's diagram from cluster-layout.ts's draw lists: the node lifelines (replicas
// thinner) with their heads, the sockets' lanes and their write/read boxes, the request and reply
// arrows (data-testid=request-arrow / reply-arrow with data-index, as in a single Redis's diagram, so
// hover, tooltips and tests find them alike), redirect arrows (data-testid=redirect-arrow, the error's
// text beside them, ASKING marked at the target), refusals on a node's lifeline (node-refusal) and the
// client library's (client-refusal), and the slot strip (slot-strip, slot-tick). Colours of nodes are
// classes (node-colour-0 …), so both themes and the SVG export resolve them from the stylesheet.
// Only loops over what layout produced; computes no positions.
import { select, type Selection } from 'd3';
import type { TaggedKey } from '../model/hash-tag.ts';
import type { ClusterArrow, ClusterLayout } from '../layout/cluster-layout.ts';
import type { ClusterGeometry } from '../layout/cluster-geometry.ts';
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

/** Pass null to remove every cluster element (a run against a single Redis). */
export function paintCluster(layers: ClusterLayers, g: ClusterGeometry | null, layout: ClusterLayout | null): void {
  if (g === null || layout === null) {
    layers.frame.selectChildren().remove();
    layers.plot.selectChildren().remove();
    return;
  }
  paintFrame(layers.frame, g, layout);
  paintPlot(layers, layout);
}

function paintFrame(frame: G, g: ClusterGeometry, layout: ClusterLayout): void {
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
      group.select('.node-title').attr('x', 0).attr('y', d.row ? 28 : 14).attr('text-anchor', 'middle').text(d.title);
      group.select('.node-note').attr('x', 0).attr('y', 28).attr('text-anchor', 'middle').text(d.note);
    });
  paintStrip(frame, g, layout);
}

function paintStrip(frame: G, g: ClusterGeometry, layout: ClusterLayout): void {
  const strip = frame
    .selectAll<SVGGElement, ClusterLayout>('g.slot-strip')
    .data([layout])
    .join((enter) => {
      const group = enter.append('g').attr('class', 'slot-strip').attr('data-testid', 'slot-strip');
      group.append('g').attr('class', 'slot-segments');
      group.append('g').attr('class', 'slot-ticks');
      group.append('text').attr('class', 'lane-note slot-caption');
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
      group.select('text').attr('x', d.x + d.width / 2).attr('y', top + height + 11).attr('text-anchor', 'middle').text(d.label ?? '');
    });
  strip
    .select<SVGGElement>('g.slot-ticks')
    .selectAll<SVGPathElement, ClusterLayout['ticks'][number]>('path.slot-tick')
    .data((d) => d.ticks, (d) => d.slot)
    .join((enter) => enter.append('path').call((p) => p.append('title')))
    .attr('class', 'slot-tick')
    .attr('data-testid', 'slot-tick')
    .attr('data-slot', (d) => d.slot)
    .attr('data-count', (d) => d.commands)
    .attr('d', (d) => `M${d.x - 4},${top - 8} L${d.x + 4},${top - 8} L${d.x},${top - 1} Z`)
    .each(function (d) {
      this.querySelector('title')!.textContent = d.title;
    });
  strip.select('text.slot-caption').attr('x', g.strip.x0).attr('y', top + height + 25).text((d) => d.stripCaption);
}

function paintPlot(layers: ClusterLayers, layout: ClusterLayout): void {
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
        arrowLabel(this, d);
      });
  }
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
      group.append('text').attr('class', 'redirect-label').attr('data-testid', 'redirect-label');
      return group;
    })
    .attr('data-kind', (d) => d.kind)
    .each(function (d) {
      const group = select(this);
      // A gentle arc from the refusing node to the node the command went to next, bulging upwards.
      const mx = (d.x1 + d.x2) / 2;
      const my = Math.min(d.y1, d.y2) - 14;
      group.select('path').attr('d', `M${d.x1},${d.y1} Q${mx},${my} ${d.x2 + (d.x2 > d.x1 ? -2 : 2)},${d.y2}`).attr('marker-end', `url(#${layers.ids.errorHead})`);
      group.select('text').attr('x', mx).attr('y', my - 2).attr('text-anchor', 'middle').text(d.label);
      let asking = group.select<SVGTextElement>('text.asking-label');
      if (d.asking === null) asking.remove();
      else {
        if (asking.empty()) asking = group.append('text').attr('class', 'asking-label').attr('data-testid', 'asking-label');
        // Left of the target's lifeline, under the arrow's end: the last node has no room on its right.
        asking.attr('x', d.asking.x - 6).attr('y', d.asking.y + 13).attr('text-anchor', 'end').text('ASKING, then the command');
      }
    });
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
      group.select('text').attr('x', d.x + 9).attr('y', d.y - 6).text(d.label);
      group.select('title').text(d.title);
    });
  plot
    .selectAll<SVGGElement, NonNullable<ClusterLayout['clientRefusal']>>('g.client-refusal')
    .data(layout.clientRefusal ? [layout.clientRefusal] : [])
    .join((enter) => {
      const group = enter.append('g').attr('class', 'client-refusal').attr('data-testid', 'client-refusal');
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
      group.select('text').attr('x', d.x + 12).attr('y', d.y + 4).text(d.label);
      group.select('title').text(d.title);
    });
}

/** A request's command with its {hash tag} in bold (tspan.hash-tag); an error reply's text. */
function arrowLabel(group: SVGGElement, d: ClusterArrow): void {
  let text = group.querySelector<SVGTextElement>('text.arrow-label');
  if (d.label === undefined) {
    text?.remove();
    return;
  }
  text ??= group.appendChild(svgElement('text'));
  text.setAttribute('class', d.error ? 'arrow-label error' : 'arrow-label');
  text.setAttribute('data-testid', d.kind === 'request' ? 'request-label' : 'reply-label');
  text.setAttribute('x', String(Math.min(d.x1, d.x2) + 8));
  text.setAttribute('y', String(d.y - 3));
  text.replaceChildren(...taggedSpans(d.label));
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
