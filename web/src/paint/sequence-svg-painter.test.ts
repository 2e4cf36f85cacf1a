// Golden SVGs of the sequence diagram's SVG layer: fixture traces laid out and painted in jsdom the way
// DiagramController.paint does (geometry → time scale → render mode → layouts → painters), serialised
// stably and compared with web/src/paint/__goldens__/*.svg. A change to a painter or a layout shows up
// as a -changed.svg to look at; UPDATE_GOLDENS=1 accepts it (test-support/svg-golden.ts).
import { describe, expect, it } from 'vitest';
import type { TraceDocument } from '../../../trace/format/trace-format.ts';
import { formatUs } from '../format/number-format.ts';
import { labelKeys } from '../layout/diagram-labels-layout.ts';
import { laneHeads, type LaneHeads } from '../layout/lane-heads-layout.ts';
import { traceColumns } from '../model/trace-columns.ts';
import type { RenderMode } from '../layout/render-mode.ts';
import { paintedDiagram } from '../test-support/painted-diagram.ts';
import { CHUNKS_TRACE, recordedTrace } from '../test-support/recorded-traces.ts';
import { expectGoldenMarkup } from '../test-support/svg-golden.ts';
import { modeTrace, pipelineTrace, proxiedTrace, sequentialTrace, serverTracedPipeline, serverTracedSequential } from '../test-support/trace-fixtures.ts';
import { paintFocus, paintSelection } from './sequence-svg-painter.ts';

/** A panel's diagram width in CSS px (half of the 1440 px e2e viewport, less padding, is about this). */
const WIDTH = 640;

const expectGolden = (svg: Element, name: string) => expectGoldenMarkup(svg, import.meta.url, `${name}.svg`);

/** The lane heads much as layout/lane-heads-layout.ts words them (the parts these fixtures reach; the goldens keep these words). */
function headsOf(doc: TraceDocument, mode: RenderMode): LaneHeads {
  const traced = doc.serverTrace !== null;
  return {
    client: `Client · ${doc.recorder.client}`,
    clientNote: mode === 'canvas' ? 'lane: in flight ▮, socket writes & reads' : 'lane: socket writes & reads',
    server: `Redis ${doc.redis.version}`,
    serverNote: traced ? '◆ executions from MONITOR' : doc.proxy ? '— arrows end at the delay proxy’s hand-over to Redis' : '— execution times not traced in this run',
    serverLaneNote: traced && mode === 'svg' ? '▯ syscalls: strace' : null,
    densityNote: mode === 'canvas' ? 'each 2 px row: requests → · ← replies · longer, darker = more' : null,
  };
}

interface Extras {
  /** Command whose arrows are emphasised, as on hover. */
  focus?: number;
  /** Socket write ringed, as when picked in the wire view. */
  selectedWrite?: number;
}

/** One frame of a diagram, unzoomed, each run on its own time scale, labels measured by the layout's estimate. */
function paintDiagram(doc: TraceDocument, extras: Extras = {}): { svg: SVGSVGElement; mode: RenderMode } {
  const { svg, layers, g, scale, columns, mode } = paintedDiagram(doc, { width: WIDTH, heads: headsOf });
  const w = extras.selectedWrite;
  paintSelection(layers, g, w === undefined ? null : { y: scale(columns.writeAtUs[w]!), side: 'client' });
  const i = extras.focus;
  paintFocus(
    layers,
    g,
    i === undefined ? null : {
      sentY: scale(columns.sentUs[i]!),
      repliedY: scale(columns.repliedUs[i]!),
      atServerY: scale((columns.toServerUs ?? columns.serverUs ?? columns.sentUs)[i]!),
      leftServerY: scale((columns.fromServerUs ?? columns.serverUs ?? columns.repliedUs)[i]!),
      latencyLabel: formatUs(columns.repliedUs[i]! - columns.sentUs[i]!),
    },
  );
  return { svg, mode };
}

const count = (svg: Element, selector: string) => svg.querySelectorAll(selector).length;

describe('sequence diagram SVG goldens', () => {
  it('10 sequential INCRs: an arrow each way per command, a write and a read mark each', () => {
    const { svg, mode } = paintDiagram(sequentialTrace(10));
    expect(mode).toBe('svg');
    expect(count(svg, '[data-testid=request-arrow]')).toBe(10);
    expect(count(svg, '[data-testid=reply-arrow]')).toBe(10);
    expect(count(svg, 'g.mark.write')).toBe(10);
    expect(count(svg, 'g.mark.read')).toBe(10);
    expectGolden(svg, 'sequential-incr-10');
  });

  it('a pipeline of 10 INCRs: 10 arrows each way, one write and one read, bundle badges', () => {
    const { svg } = paintDiagram(pipelineTrace(10));
    expect(count(svg, '[data-testid=request-arrow]')).toBe(10);
    expect(count(svg, '[data-testid=reply-arrow]')).toBe(10);
    expect(count(svg, 'g.bundle.badge')).toBe(2);
    expect(count(svg, '[data-testid=bundle-band]')).toBe(2);
    expectGolden(svg, 'pipeline-incr-10');
  });

  it('hover and wire selection: the focused command’s bracket and the ringed write', () => {
    const { svg } = paintDiagram(sequentialTrace(10), { focus: 3, selectedWrite: 3 });
    expect(count(svg, '.focus-marks')).toBe(1);
    expect(count(svg, '[data-testid=selected-mark]')).toBe(1);
    expectGolden(svg, 'sequential-incr-10-focus-3');
  });

  it('the Redis side of a sequential run: executions, syscalls and the lane', () => {
    const { svg } = paintDiagram(serverTracedSequential(5));
    expect(count(svg, '[data-testid=server-exec]')).toBe(5);
    expect(count(svg, '[data-testid=server-syscall][data-call=read]')).toBe(5);
    expectGolden(svg, 'server-traced-sequential-incr-5');
  });

  it('the Redis side of a pipeline: one read(), 10 executions, another client’s command', () => {
    const { svg } = paintDiagram(serverTracedPipeline(10));
    expect(count(svg, '[data-testid=server-exec]')).toBe(10);
    expect(count(svg, 'g.other-mark')).toBe(1);
    expectGolden(svg, 'server-traced-pipeline-incr-10');
  });

  it('through the delay proxy: sloped arrows', () => {
    const { svg } = paintDiagram(proxiedTrace());
    const arrow = svg.querySelector('[data-testid=request-arrow]')!;
    expect(Number(arrow.getAttribute('y2'))).toBeGreaterThan(Number(arrow.getAttribute('y1')));
    expectGolden(svg, 'proxied-ping-1');
  });

  it('canvas mode (2,000 commands): the SVG layer keeps axis, lifelines, heads and density labels only', () => {
    const { svg, mode } = paintDiagram(pipelineTrace(2000, 2000, 100));
    expect(mode).toBe('canvas');
    expect(count(svg, '[data-testid=request-arrow]')).toBe(0);
    expectGolden(svg, 'pipeline-ping-2000-canvas-mode');
  });

  it('MULTI/EXEC with MONITOR: each wire command labelled (MULTI, INCR, EXEC), replies as recorded (OK, QUEUED, EXEC’s array)', () => {
    const { svg } = paintDiagram(modeTrace('multi', 10, { monitor: true }));
    expect(count(svg, '[data-testid=request-arrow]')).toBe(12);
    const labels = [...svg.querySelectorAll('[data-testid=request-label]')].map((t) => t.textContent);
    expect(labels[0]).toBe('MULTI');
    expect(labels.at(-1)).toBe('EXEC');
    expect(labels).toContain('INCR');
    const replies = [...svg.querySelectorAll('[data-testid=reply-label]')].map((t) => t.textContent);
    expect(replies[0]).toBe('OK');
    expect(count(svg, '[data-testid=error-mark]')).toBe(0);
    expectGolden(svg, 'server-traced-multi-incr-10');
  });

  it('an error reply marked in place: a cross and the error text on operation 4’s reply, the other replies as they were', () => {
    const { svg } = paintDiagram(modeTrace('pipeline', 10, { monitor: true, errorAt: 4 }));
    expect(count(svg, '[data-testid=error-mark]')).toBe(1);
    const errorArrow = svg.querySelector('[data-testid=error-mark]')!.parentElement!;
    expect(errorArrow.getAttribute('data-index')).toBe('4');
    expect(errorArrow.classList.contains('error')).toBe(true);
    expect(errorArrow.querySelector('[data-testid=reply-label]')!.textContent).toBe('✕ ERR value is not an integ…');
    expectGolden(svg, 'server-traced-pipeline-incr-10-error-at-4');
  });

  it('a runtime error inside MULTI: EXEC’s reply (not an error itself) carries a ring saying it contains 1 error', () => {
    const { svg } = paintDiagram(modeTrace('multi', 10, { monitor: true, errorAt: 4 }));
    expect(count(svg, '[data-testid=error-mark]')).toBe(0);
    // The INCR that failed (operation 5, wire command 5 after MULTI) is marked on its own arrow: its reply said QUEUED.
    const failed = [...svg.querySelectorAll('[data-testid=exec-error-mark]')];
    expect(failed.map((m) => m.parentElement!.getAttribute('data-index'))).toEqual(['5']);
    expect(failed[0]!.querySelector('title')!.textContent).toBe('Failed when EXEC ran it (an element of EXEC’s reply)');
    const rings = [...svg.querySelectorAll('[data-testid=nested-error-mark]')];
    expect(rings.map((m) => m.parentElement!.getAttribute('data-index'))).toEqual(['11']);
    expect(rings[0]!.getAttribute('data-count')).toBe('1');
    expect(rings[0]!.querySelector('title')!.textContent).toBe('This reply contains 1 error inside its array');
    // A clean transaction has none.
    expect(count(paintDiagram(modeTrace('multi', 10, { monitor: true })).svg, '[data-testid=nested-error-mark]')).toBe(0);
  });

  it('EXECABORT: the refused INCR and EXEC’s reply both marked as errors', () => {
    const { svg } = paintDiagram(modeTrace('multi', 10, { monitor: true, errorAt: 4, errorKind: 'queueing' }));
    expect([...svg.querySelectorAll('[data-testid=error-mark]')].map((m) => m.parentElement!.getAttribute('data-index'))).toEqual(['5', '11']);
    // MONITOR saw MULTI and EXEC only: the queued commands never ran, so no diamond and level arrows for them.
    expect(count(svg, '[data-testid=server-exec]')).toBe(2);
    const refused = svg.querySelector('[data-testid=request-arrow][data-index="5"]')!;
    expect(refused.getAttribute('y1')).toBe(refused.getAttribute('y2'));
    expectGolden(svg, 'server-traced-multi-incr-10-execabort');
  });

  it('the recorded chunks trace (300 GETs in chunks of 30), in a 900 px embed and on a 390 px phone: every label where the placement put it', () => {
    const doc = recordedTrace(CHUNKS_TRACE);
    for (const width of [900, 390]) {
      const { svg, placement } = paintedDiagram(doc, { width });
      const printed = [...svg.querySelectorAll('.heads text, .arrow-label, .badge-text, .mark text, .syscall-mark text')]
        .map((t) => t.firstChild?.textContent ?? '')
        .filter((t) => t !== '');
      expect(printed.sort()).toEqual([...placement.placed.values()].map((p) => p.text).sort());
      // Every head or note shortened or left out keeps its words in a <title> in the heads.
      const titles = [...svg.querySelectorAll('.heads title')].map((t) => t.textContent).join('\n');
      const heads = laneHeads(traceColumns(doc), 'svg');
      for (const [name, text] of Object.entries(heads)) {
        if (text !== null && placement.placed.get(labelKeys.head(name as keyof typeof heads))?.text !== text) expect(titles, `${name} at ${width} px`).toContain(text);
      }
      // A dropped badge's bundle keeps its band; a shortened head keeps its words in a <title>.
      expect(count(svg, 'g.bundle.badge')).toBe(placement.placed.size - [...placement.placed.keys()].filter((k) => !k.startsWith('bundle:')).length);
      expectGolden(svg, `recorded-get-300-chunked-30-${width}px`);
    }
  }, 30_000);
});
