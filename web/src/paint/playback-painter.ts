// Paints playback on a diagram's SVG: the playhead — a horizontal line across the plot at the playhead's
// time (data-testid=playhead, data-position-us) — and the messages travelling along their arrows, one dot
// each (data-testid=travelling-dot, class request/reply: coloured by CSS variables). Its own layer on
// top of the plot (clipped with it); empty when playback is off. Only loops over playback-layout.ts's marks.
import { select, type Selection } from 'd3';
import type { DiagramGeometry } from '../layout/diagram-geometry.ts';
import type { PlaybackMarks, TravellingDot } from '../layout/playback-layout.ts';
import type { SvgLayers } from './sequence-svg-painter.ts';

export type PlaybackLayer = Selection<SVGGElement, unknown, null, undefined>;

/** Dot radius, CSS px. */
const DOT_R = 4.5;

/** Adds the playback layer on top of the diagram's plot (inside its clip path). */
export function createPlaybackLayer(layers: SvgLayers): PlaybackLayer {
  const plot = layers.focus.node()!.parentNode as SVGGElement;
  return select(plot).append('g').attr('class', 'playback').attr('pointer-events', 'none');
}

/** The playhead and the travelling dots; null removes them (playback off). */
export function paintPlayback(layer: PlaybackLayer, g: DiagramGeometry, marks: PlaybackMarks | null): void {
  layer
    .selectAll<SVGLineElement, PlaybackMarks>('line.playhead')
    .data(marks ? [marks] : [])
    .join('line')
    .attr('class', 'playhead')
    .attr('data-testid', 'playhead')
    .attr('data-position-us', (d) => d.positionUs)
    .attr('data-in-flight', (d) => d.inFlight)
    .attr('x1', g.axisX)
    .attr('x2', g.width)
    .attr('y1', (d) => d.y)
    .attr('y2', (d) => d.y);
  layer
    .selectAll<SVGCircleElement, TravellingDot>('circle.travelling-dot')
    .data(marks?.dots ?? [], (d) => `${d.kind}-${d.index}`)
    .join('circle')
    .attr('class', (d) => `travelling-dot ${d.kind}`)
    .attr('data-testid', 'travelling-dot')
    .attr('data-index', (d) => d.index)
    .attr('r', DOT_R)
    .attr('cx', (d) => d.x)
    .attr('cy', (d) => d.y);
}
