// The cluster painter in jsdom: every draw-list item becomes its element (found by data-testid, as the
// browser tests find them), the {hash tag} of a request's label is its own tspan, a redirect carries its
// error text, and painting nothing (a single Redis) removes every cluster element.
import { describe, expect, it } from 'vitest';
import type { TraceDocument } from '../../../trace/format/trace-format.ts';
import { clusterGeometry } from '../layout/cluster-geometry.ts';
import { clusterLayout } from '../layout/cluster-layout.ts';
import { diagramLabels } from '../layout/diagram-labels-layout.ts';
import { estimateTextWidth } from '../layout/text-measure.ts';
import { timeScale } from '../layout/time-scale-layout.ts';
import { clusterRun } from '../model/cluster-run.ts';
import { traceColumns } from '../model/trace-columns.ts';
import { CLUSTER_TRACES, movedPipeline, redirectedCounter, refusedPipeline, spreadPipeline } from '../test-support/cluster-fixtures.ts';
import { recordedTrace } from '../test-support/recorded-traces.ts';
import { createClusterLayers, paintCluster } from './cluster-svg-painter.ts';
import { createSvgLayers, svgElement } from './sequence-svg-painter.ts';

function painted(doc: TraceDocument) {
  const svg = svgElement('svg');
  const layers = createClusterLayers(createSvgLayers(svg, 'test'));
  const columns = traceColumns(doc);
  const run = clusterRun(doc)!;
  const g = clusterGeometry(640, run);
  const layout = clusterLayout(columns, run, timeScale(columns.endUs, g), g);
  const heads = { client: 'Client', clientNote: 'lanes', server: '', serverNote: '', serverLaneNote: null, densityNote: null };
  const labels = diagramLabels({ g, heads, sequence: null, densityLabels: null, lane: null, cluster: { g, layout, densityNote: null } }, estimateTextWidth).placed;
  paintCluster(layers, g, layout, labels);
  const all = (id: string) => [...svg.querySelectorAll(`[data-testid=${id}]`)];
  return { svg, layers, g, layout, all };
}

describe('paintCluster', () => {
  it('a lane per master, a lane per socket, an arrow per request and reply, the strip with a tick per slot (recorded: 30 SET piped)', () => {
    const doc = recordedTrace(CLUSTER_TRACES.pipeline30);
    const { all, layout } = painted(doc);
    expect(all('node-lifeline')).toHaveLength(3);
    expect(all('node-head').map((h) => h.querySelector('.node-title')!.textContent)).toEqual(doc.cluster!.topology.nodes.map((n) => n.address));
    expect(all('socket-lane')).toHaveLength(doc.cluster!.connections.length);
    expect(all('request-arrow').map((a) => Number(a.getAttribute('data-index')))).toEqual(layout.requests.map((a) => a.index));
    expect(all('reply-arrow')).toHaveLength(30);
    expect(all('slot-strip')).toHaveLength(1);
    expect(all('slot-tick')).toHaveLength(layout.ticks.length);
    expect(all('slot-tick')[0]!.querySelector('title')!.textContent).toBe(layout.ticks[0]!.title);
  });

  it('the {hash tag} of a request\'s label in a tspan of its own', () => {
    const { all } = painted(spreadPipeline(4, 'user42'));
    const tags = all('hash-tag');
    expect(tags.length).toBeGreaterThan(0);
    for (const t of tags) expect(t.textContent).toBe('{user42}');
    expect(tags[0]!.parentElement!.textContent).toMatch(/^SET pipescope:cl-tag-4:\{user42\}:0 /);
  });

  it('redirect arrows with their error text, and the ASKING after an ASK', () => {
    const doc = redirectedCounter();
    const { all } = painted(doc);
    expect(all('redirect-arrow')).toHaveLength(2);
    expect(all('redirect-label').map((t) => t.textContent)).toEqual(doc.cluster!.redirects.map((r) => r.error));
    expect(all('asking-label')).toHaveLength(1);
  });

  it('the client library\'s refusal before sending, and its error thrown after sending, each a mark with its words', () => {
    const refused = painted(refusedPipeline());
    expect(refused.all('client-refusal')).toHaveLength(1);
    expect(refused.all('client-refusal')[0]!.querySelector('title')!.textContent).toBe(refused.layout.clientRefusal!.title);
    expect(refused.all('client-error')).toHaveLength(0);
    const moved = painted(movedPipeline());
    expect(moved.all('client-error')).toHaveLength(1);
    expect(moved.all('client-error')[0]!.querySelector('title')!.textContent).toMatch(/^node-redis 6\.3\.1 threw at its caller at 95 µs: MOVED \d+ /);
    expect(moved.all('client-refusal')).toHaveLength(0);
    // Each redirect's text where the label placement found room (the rest stay in the tooltip): the first is drawn whole.
    const drawn = moved.all('redirect-label').map((t) => t.textContent ?? '').filter(Boolean);
    expect(drawn[0]).toBe(moved.layout.redirects[0]!.label);
    for (const text of drawn) expect(moved.layout.redirects.some((r) => r.label === text || r.label.startsWith(text.replace(/…$/, '')))).toBe(true);
  });

  it('painting nothing removes every cluster element', () => {
    const { svg, layers } = painted(redirectedCounter());
    paintCluster(layers, null, null);
    expect(svg.querySelectorAll('.cluster-frame *, .cluster-plot *')).toHaveLength(0);
  });
});
