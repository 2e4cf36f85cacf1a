// The standalone SVG export (diagram-export-svg.ts) in jsdom: a diagram painted as DiagramController paints
// it becomes a file of its own — interaction-only marks gone, classes and data- attributes gone, ids made
// unique per panel with their url(#…) references followed, a <title>/<desc> naming the runs and their
// sources, panels laid out two per row. (The resolved colours are checked in Chromium: e2e/exports.e2e.test.ts.)
import { describe, expect, it } from 'vitest';
import { DIAGRAM_HEIGHT } from '../layout/diagram-geometry.ts';
import { paintedDiagram } from '../test-support/painted-diagram.ts';
import { chunkedTrace, pipelineTrace, sequentialTrace } from '../test-support/trace-fixtures.ts';
import type { TraceDocument } from '../../../trace/format/trace-format.ts';
import type { DiagramSnapshot } from './diagram-controller.ts';
import { exportSize, panelHeading, standaloneDiagramSvg, type ExportPanel } from './diagram-export-svg.ts';
import { createSvgLayers, paintFrame, svgElement } from './sequence-svg-painter.ts';
import { clusterGeometry } from '../layout/cluster-geometry.ts';
import { clusterLayout } from '../layout/cluster-layout.ts';
import { diagramLabels } from '../layout/diagram-labels-layout.ts';
import { estimateTextWidth } from '../layout/text-measure.ts';
import { axisTicks, timeScale } from '../layout/time-scale-layout.ts';
import { clusterRun } from '../model/cluster-run.ts';
import { traceColumns } from '../model/trace-columns.ts';
import { redirectedCounter } from '../test-support/cluster-fixtures.ts';
import { createClusterLayers, paintCluster } from './cluster-svg-painter.ts';

const WIDTH = 640;

function painted(doc: TraceDocument, id: string): DiagramSnapshot {
  const { svg, g } = paintedDiagram(doc, {
    width: WIDTH,
    idPrefix: id,
    heads: () => ({ client: 'Client', clientNote: 'lane', server: 'Redis', serverNote: 'note', serverLaneNote: null, densityNote: null }),
  });
  svg.setAttribute('class', 'diagram-svg');
  document.body.append(svg);
  return { svg, width: g.width, height: g.height, mode: 'svg', canvasPng: null, canvasShownPx: null };
}

/** A cluster run painted as DiagramController paints it: the frame, then the cluster's lanes, arrows, redirects and strip. */
function paintedCluster(doc: TraceDocument, id: string): DiagramSnapshot {
  const svg = svgElement('svg') as SVGSVGElement;
  svg.setAttribute('class', 'diagram-svg');
  document.body.append(svg);
  const layers = createSvgLayers(svg, id);
  const columns = traceColumns(doc);
  const run = clusterRun(doc)!;
  const g = clusterGeometry(WIDTH, run);
  const scale = timeScale(columns.endUs, g, { k: 1, ty: 0 });
  const heads = { client: 'Client', clientNote: 'lanes', server: '', serverNote: '', serverLaneNote: null, densityNote: null };
  const layout = clusterLayout(columns, run, scale, g);
  const labels = diagramLabels({ g, heads, sequence: null, densityLabels: null, lane: null, cluster: { g, layout, densityNote: null } }, estimateTextWidth).placed;
  paintFrame(layers, g, axisTicks(scale), heads, labels);
  paintCluster(createClusterLayers(layers), g, layout, labels);
  return { svg, width: g.width, height: g.height, mode: 'svg', canvasPng: null, canvasShownPx: null };
}

const parse = (text: string) => new DOMParser().parseFromString(text, 'image/svg+xml').documentElement;

describe('standalone SVG', () => {
  it('keeps the picture and drops what only the live diagram needs', () => {
    const doc = sequentialTrace(3);
    const text = standaloneDiagramSvg([{ doc, snapshot: painted(doc, 'diagram7') }]);
    expect(text.startsWith('<?xml version="1.0" encoding="UTF-8"?>\n<svg')).toBe(true);
    const root = parse(text);
    expect(root.querySelector('parsererror')).toBeNull();
    expect(root.querySelectorAll('line').length).toBeGreaterThan(6); // grid, lifelines, 3 requests and 3 replies
    expect(root.querySelectorAll('.hit, [class], [data-testid], [data-index]')).toHaveLength(0);
    expect(root.querySelector('title')?.textContent).toBe(`Pipescope sequence diagram: ${panelHeading(doc)}`);
    expect(root.querySelector('desc')?.textContent).toMatch(/^Run test-sequential-3, started .*: .* against Redis .*; times since t0 measured at the client socket; recorded by /);
    expect(text).not.toContain('diagram7');
    expect(text).toContain('marker-end="url(#p1-req)"');
    expect(root.querySelector('#p1-req')).not.toBeNull();
  });

  it('puts a comparison in one file, two panels per row, ids unique per panel', () => {
    const docs = [sequentialTrace(3), pipelineTrace(3), chunkedTrace(6, 3)];
    const panels: ExportPanel[] = docs.map((doc, i) => ({ doc, snapshot: painted(doc, `diagram${i + 1}`) }));
    const root = parse(standaloneDiagramSvg(panels));
    const nested = Array.from(root.querySelectorAll(':scope > svg'));
    expect(nested.map((s) => [s.getAttribute('x'), s.getAttribute('y')])).toEqual([['16', '74'], [String(16 + WIDTH + 16), '74'], ['16', String(74 + DIAGRAM_HEIGHT + 22 + 16)]]);
    const ids = Array.from(root.querySelectorAll('[id]')).map((e) => e.id);
    expect(new Set(ids).size).toBe(ids.length);
    expect(exportSize(panels)).toEqual({ width: 16 * 2 + WIDTH * 2 + 16, height: 52 + 2 * (DIAGRAM_HEIGHT + 22) + 16 + 16 });
    expect(root.getAttribute('width')).toBe(String(exportSize(panels).width));
  });

  it('a cluster run: its node lanes, redirects with their text and the slot strip, and a desc naming the cluster', () => {
    const doc = redirectedCounter();
    const root = parse(standaloneDiagramSvg([{ doc, snapshot: paintedCluster(doc, 'diagram3') }]));
    expect(root.querySelector('parsererror')).toBeNull();
    const texts = Array.from(root.querySelectorAll('text'), (t) => t.textContent);
    for (const r of doc.cluster!.redirects) expect(texts).toContain(r.error);
    for (const n of doc.cluster!.topology.nodes) expect(texts).toContain(n.address);
    expect(texts).toContain('ASKING, then the command');
    // The redirect arcs keep their arrowhead, renamed with the panel.
    expect(root.querySelectorAll('path[marker-end="url(#p1-err)"]')).toHaveLength(doc.cluster!.redirects.length);
    // The strip: each master's run of slots labelled with its port and range.
    for (const n of doc.cluster!.topology.nodes) expect(texts).toContain(`${n.address.split(':')[1]}: ${n.slots[0]![0]}–${n.slots[0]![1]}`);
    expect(root.querySelector('desc')?.textContent).toMatch(/against a Redis Cluster of 3 masters \(Redis 7\.0\.15; slots from CLUSTER SHARDS before the run\)/);
  });
});
