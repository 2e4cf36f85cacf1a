// One frame of a sequence diagram painted in jsdom the way DiagramController.paint does it (geometry →
// time scale → render mode → layouts → one label placement → painters), unzoomed, with a fixed text
// measure so that the labels kept are the same on every run. For the painters' SVG goldens, the export's
// tests and the label-placement tests over recorded traces.
import type { TraceDocument } from '../../../trace/format/trace-format.ts';
import { densityLayout } from '../layout/density-layout.ts';
import { DIAGRAM_HEIGHT, diagramGeometry, type DiagramGeometry } from '../layout/diagram-geometry.ts';
import { diagramLabels, type LabelPlacement } from '../layout/diagram-labels-layout.ts';
import { laneHeads, type LaneHeads } from '../layout/lane-heads-layout.ts';
import { chooseRenderMode, type RenderMode } from '../layout/render-mode.ts';
import { sequenceLayout } from '../layout/sequence-layout.ts';
import { serverLaneLayout } from '../layout/server-lane-layout.ts';
import { estimateTextWidth, type TextMeasure } from '../layout/text-measure.ts';
import { axisTicks, timeScale, type TimeScale } from '../layout/time-scale-layout.ts';
import { traceColumns, type TraceColumns } from '../model/trace-columns.ts';
import {
  createSvgLayers, paintArrows, paintBundles, paintFrame, paintMarks, paintServerLane, svgElement, type SvgLayers,
} from '../paint/sequence-svg-painter.ts';

export interface PaintOptions {
  /** The diagram's width, CSS px. */
  width: number;
  /** Lane heads; by default laneHeads' own words. */
  heads?: (doc: TraceDocument, mode: RenderMode) => LaneHeads;
  measure?: TextMeasure;
  /** Prefix of the SVG's ids. */
  idPrefix?: string;
}

export interface PaintedDiagram {
  svg: SVGSVGElement;
  layers: SvgLayers;
  mode: RenderMode;
  g: DiagramGeometry;
  scale: TimeScale;
  columns: TraceColumns;
  placement: LabelPlacement;
}

export function paintedDiagram(doc: TraceDocument, options: PaintOptions): PaintedDiagram {
  const columns = traceColumns(doc);
  const serverLane = doc.serverTrace !== null;
  const g = diagramGeometry(options.width, DIAGRAM_HEIGHT, serverLane);
  const scale = timeScale(columns.endUs, g);
  const mode = chooseRenderMode(columns, scale);
  const heads = (options.heads ?? ((d, m) => laneHeads(traceColumns(d), m)))(doc, mode);
  const measure = options.measure ?? estimateTextWidth;
  const svg = svgElement('svg');
  const layers = createSvgLayers(svg, options.idPrefix ?? 'golden');
  let placement: LabelPlacement;
  if (mode === 'svg') {
    const layout = sequenceLayout(columns, scale, g);
    const lane = serverLane ? serverLaneLayout(columns, scale, g) : null;
    placement = diagramLabels({ g, heads, sequence: layout, densityLabels: null, lane }, measure);
    paintFrame(layers, g, axisTicks(scale), heads, placement.placed);
    paintArrows(layers, layout, placement.placed);
    paintBundles(layers, g, layout.bundles, columns.toServerUs === null && columns.serverUs === null, placement.placed);
    paintMarks(layers, g, layout.marks, placement.placed);
    paintServerLane(layers, g, lane, placement.placed);
  } else {
    const layout = densityLayout(columns, scale, g);
    placement = diagramLabels({ g, heads, sequence: null, densityLabels: layout.labels, lane: null }, measure);
    paintFrame(layers, g, axisTicks(scale), heads, placement.placed);
    paintArrows(layers, null, placement.placed);
    paintBundles(layers, g, layout.labels, false, placement.placed);
    paintMarks(layers, g, [], placement.placed);
    paintServerLane(layers, g, null, placement.placed);
  }
  return { svg, layers, mode, g, scale, columns, placement };
}
