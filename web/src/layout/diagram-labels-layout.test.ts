// The label placement of whole diagrams, on every recording the repository holds (the golden screenshots'
// fixtures, the tour's and the static site's traces), at widths from a 360 px phone to a wide screen and
// zoomed in: no two printed labels overlap, each stays in its region, the lane heads are always printed,
// and the first and last badge of a run of batches are kept. Cluster runs (the static site's recordings on
// a private cluster, and the constructed redirects and refusals a recording cannot show yet) are laid out
// as the diagram lays them out: node heads, redirects, refusals, request labels and the slot strip.
import { describe, expect, it } from 'vitest';
import type { TraceDocument } from '../../../trace/format/trace-format.ts';
import { commandDetails } from '../format/command-details.ts';
import { wireName } from '../format/command-text.ts';
import { formatCount } from '../format/number-format.ts';
import { traceColumns } from '../model/trace-columns.ts';
import { clusterRun } from '../model/cluster-run.ts';
import { CHUNKS_TRACE, recordedTrace, recordedTraces } from '../test-support/recorded-traces.ts';
import { CLUSTER_TRACES, crossSlotMset, redirectedCounter, refusedPipeline } from '../test-support/cluster-fixtures.ts';
import { clusterGeometry } from './cluster-geometry.ts';
import { clusterLabelKeys } from './cluster-labels-layout.ts';
import { clusterDrawn, clusterHeads, clusterLayout } from './cluster-layout.ts';
import { densityLayout } from './density-layout.ts';
import { DIAGRAM_HEIGHT, diagramGeometry } from './diagram-geometry.ts';
import { diagramLabels, labelKeys, type LabelPlacement } from './diagram-labels-layout.ts';
import { boxesOverlap } from './label-placement.ts';
import { laneHeads } from './lane-heads-layout.ts';
import { chooseRenderMode } from './render-mode.ts';
import { sequenceLayout } from './sequence-layout.ts';
import { serverLaneLayout } from './server-lane-layout.ts';
import { estimateTextWidth, type TextMeasure } from './text-measure.ts';
import { timeScale, type TimeZoom } from './time-scale-layout.ts';

/** Diagram widths, CSS px: phones (360, 390), half of a 900 px embed, a compare panel at 1440, a 900 px embed, one wide panel. */
const WIDTHS = [360, 390, 450, 640, 900, 1400];

/** A narrower measure than the estimate (DejaVu Sans averages nearer 0.55 em): the pass must hold whatever the font. */
const narrow: TextMeasure = (text, font) => [...text].length * font.size * (font.family === 'mono' ? 0.602 : 0.52);

function frameLabels(doc: TraceDocument, width: number, measure: TextMeasure, zoom?: TimeZoom): LabelPlacement {
  const columns = traceColumns(doc);
  const run = clusterRun(doc);
  if (run) {
    // As DiagramController lays a cluster run out: its own geometry and heads, the arrows only in SVG mode.
    const g = clusterGeometry(width, run);
    const scale = timeScale(columns.endUs, g, zoom);
    const mode = chooseRenderMode(columns, scale);
    const layout = clusterDrawn(clusterLayout(columns, run, scale, g), mode);
    const heads = laneHeads(columns, mode);
    return diagramLabels({ g, heads: clusterHeads(heads, run), sequence: null, densityLabels: null, lane: null, cluster: { g, layout, densityNote: heads.densityNote } }, measure);
  }
  const g = diagramGeometry(width, DIAGRAM_HEIGHT, doc.serverTrace !== null);
  const scale = timeScale(columns.endUs, g, zoom);
  const mode = chooseRenderMode(columns, scale);
  const heads = laneHeads(columns, mode);
  if (mode === 'canvas') return diagramLabels({ g, heads, sequence: null, densityLabels: densityLayout(columns, scale, g).labels, lane: null }, measure);
  const lane = doc.serverTrace !== null ? serverLaneLayout(columns, scale, g) : null;
  return diagramLabels({ g, heads, sequence: sequenceLayout(columns, scale, g), densityLabels: null, lane }, measure);
}

function overlaps(placement: LabelPlacement): string[] {
  const kept = [...placement.placed.values()];
  const out: string[] = [];
  for (let i = 0; i < kept.length; i++) {
    for (let j = i + 1; j < kept.length; j++) if (boxesOverlap(kept[i]!.box, kept[j]!.box)) out.push(`${kept[i]!.key} “${kept[i]!.text}” × ${kept[j]!.key} “${kept[j]!.text}”`);
  }
  return out;
}

/** The heads always printed: the client's, and Redis's or each master's. */
function headKeys(doc: TraceDocument): string[] {
  const masters = doc.cluster?.topology.nodes.filter((n) => n.role === 'master') ?? null;
  return [labelKeys.head('client'), ...(masters ? masters.map((n) => clusterLabelKeys.node(n.id)) : [labelKeys.head('server')])];
}

const traces = recordedTraces();
/** Cluster runs no recording shows yet (a redirect, a CROSSSLOT, a client library's refusal): made through the TraceBuilder. */
const constructedClusterRuns = [
  { file: 'constructed: MOVED then ASK', doc: redirectedCounter() },
  { file: 'constructed: CROSSSLOT', doc: crossSlotMset() },
  { file: 'constructed: refused by the client library', doc: refusedPipeline() },
];

describe('diagram labels on the recorded traces', () => {
  it('finds the recordings', () => {
    expect(traces.length).toBeGreaterThan(50);
    expect(traces.map((t) => t.file)).toContain(CHUNKS_TRACE);
    expect(traces.map((t) => t.file)).toEqual(expect.arrayContaining(Object.values(CLUSTER_TRACES)));
  });

  it('never prints two overlapping labels, at every width, whole and zoomed in', () => {
    const problems: string[] = [];
    let printed = 0;
    for (const { file, doc } of [...traces, ...constructedClusterRuns]) {
      for (const width of WIDTHS) {
        // Whole, and zoomed 6× onto the middle (a dense run's arrows come back as SVG).
        for (const zoom of [undefined, { k: 6, ty: -2.5 * DIAGRAM_HEIGHT }]) {
          for (const measure of [estimateTextWidth, narrow]) {
            const placement = frameLabels(doc, width, measure, zoom);
            printed += placement.placed.size;
            for (const o of overlaps(placement)) problems.push(`${file} at ${width} px${zoom ? ' zoomed' : ''}: ${o}`);
            for (const key of headKeys(doc)) if (!placement.placed.has(key)) problems.push(`${file} at ${width} px: no ${key}`);
          }
        }
      }
    }
    expect(problems).toEqual([]);
    expect(printed).toBeGreaterThan(traces.length * WIDTHS.length * 4 * 4);
  }, 60_000);

  it('a cluster run: every master\'s head, what went wrong first, then the strip and the first and last request', () => {
    for (const width of WIDTHS) {
      for (const measure of [estimateTextWidth, narrow]) {
        const at = `at ${width} px`;
        const pipeline = frameLabels(recordedTrace(CLUSTER_TRACES.pipeline30), width, measure);
        const doc = recordedTrace(CLUSTER_TRACES.pipeline30);
        const masters = doc.cluster!.topology.nodes.filter((n) => n.role === 'master');
        for (const n of masters) expect(pipeline.placed.get(clusterLabelKeys.node(n.id))?.text, at).toMatch(new RegExp(`${n.address.split(':')[1]}$`));
        // Each range of the strip says its slots (or its owner's port on a phone).
        expect(pipeline.placed.has(clusterLabelKeys.slotRange(0)), at).toBe(true);
        expect(pipeline.placed.has(clusterLabelKeys.slotCaption), at).toBe(true);
        expect(overlaps(pipeline), at).toEqual([]);
        // Thirty requests written at once on three sockets: the first is labelled, the crowd is not.
        const requests = [...pipeline.placed.keys()].filter((k) => k.startsWith('cluster:request:'));
        expect(requests.length, at).toBeGreaterThan(0);
        expect(requests.length, at).toBeLessThan(30);
        const redirects = frameLabels(redirectedCounter(), width, measure);
        for (const k of [0, 1]) expect(redirects.placed.has(clusterLabelKeys.redirect(k)), `redirect ${k} ${at}`).toBe(true);
        expect(frameLabels(crossSlotMset(), width, measure).placed.get(clusterLabelKeys.refusal(0))?.text, at).toMatch(/^CROSSSLOT/);
        expect(frameLabels(refusedPipeline(), width, measure).placed.get(clusterLabelKeys.clientRefusal)?.text, at).toMatch(/^refused by ioredis 6\.0\.0/);
      }
    }
    // The dense run's key to its bands under the strip, at every width (shortened on a phone).
    for (const width of WIDTHS) expect(frameLabels(recordedTrace(CLUSTER_TRACES.pipeline1000), width, estimateTextWidth).placed.get(clusterLabelKeys.densityNote)?.text, `at ${width} px`).toMatch(/^each 2 px row/);
    // Wide, the whole of it: every address and the redirect's error as Redis sent it.
    const wide = frameLabels(redirectedCounter(), 1400, estimateTextWidth);
    expect(wide.placed.get(clusterLabelKeys.redirect(0))?.text).toBe(redirectedCounter().cluster!.redirects[0]!.error);
  });

  it('the chunks trace: the first and last badge of each kind kept at every width, the rest shortened or dropped before they overlap', () => {
    const doc = recordedTrace(CHUNKS_TRACE);
    const lastRead = doc.reads.length - 1;
    const lastWrite = doc.writes.length - 1;
    for (const width of WIDTHS) {
      const { placed, dropped } = frameLabels(doc, width, estimateTextWidth);
      for (const key of [labelKeys.bundle('request', 0), labelKeys.bundle('request', lastWrite), labelKeys.bundle('reply', 0), labelKeys.bundle('reply', lastRead)]) {
        expect(placed.has(key), `${key} at ${width} px`).toBe(true);
      }
      // 50 reads of 4–7 replies each: not all of their badges fit in 500 px, and those left out are listed.
      expect(dropped.some((k) => k.startsWith('bundle:reply:')), `at ${width} px`).toBe(true);
      expect(overlaps({ placed, dropped })).toEqual([]);
    }
    // The client lane's labels are shortened to fit rather than dropped: less on a phone.
    const wide = frameLabels(doc, 900, estimateTextWidth).placed.get(labelKeys.mark('write', 0));
    const phone = frameLabels(doc, 360, estimateTextWidth).placed.get(labelKeys.mark('write', 0));
    expect([wide?.full, wide?.text]).toEqual(['write: 30 cmds, 1.55 KiB', '30 cmds, 1.55 KiB']);
    expect([phone?.full, phone?.text]).toEqual(['write: 30 cmds, 1.55 KiB', '30 cmds']);
  });

  it('is the same placement on every run', () => {
    const doc = recordedTrace(CHUNKS_TRACE);
    const a = frameLabels(doc, 390, estimateTextWidth);
    const b = frameLabels(doc, 390, estimateTextWidth);
    expect([...b.placed.entries()]).toEqual([...a.placed.entries()]);
  });

  it('what a dropped label said stays in the tooltip of a command it concerns (hover or the keyboard cursor)', () => {
    for (const file of [CHUNKS_TRACE, 'e2e/fixtures/modes-incr-10/four-evalsha-r0.json', 'e2e/fixtures/modes-incr-10/error-at-4-multi-r0.json']) {
      const doc = recordedTrace(file);
      const columns = traceColumns(doc);
      const tooltip = (i: number) => {
        const d = commandDetails(columns, i);
        return [d.title, ...d.rows.map((r) => `${r.label}: ${r.value}`)].join('\n');
      };
      const commandOf = (of: Uint32Array, k: number) => of.indexOf(k);
      const { dropped } = frameLabels(doc, 360, estimateTextWidth);
      expect(dropped.length, file).toBeGreaterThan(0);
      for (const key of dropped) {
        const [kind, a, b] = key.split(':') as [string, string, string | undefined];
        if (kind === 'bundle' || kind === 'mark') {
          const k = Number(b);
          const write = a === 'request' || a === 'write';
          const i = commandOf(write ? columns.writeOf : columns.readOf, k);
          const count = write ? doc.writes[k]!.commands : doc.reads[k]!.replies;
          expect(tooltip(i), key).toContain(write ? `carried ${formatCount(count)} command` : `completed ${formatCount(count)} repl`);
        } else if (kind === 'request') {
          expect(tooltip(Number(a)), key).toContain(wireName(doc.run, Number(a)));
        } else if (kind === 'reply') {
          expect(tooltip(Number(a)), key).toContain(`reply: ${'error' in doc.commands[Number(a)]! ? 'error: ' : ''}`);
        } else if (kind !== 'head') throw new Error(`a dropped label of an unexpected kind: ${key}`);
        // A dropped head note goes into its lane head's <title> (sequence-svg-painter.test.ts).
      }
    }
  });
});
