// A cluster run's diagram laid out: arrows between each command's socket and its node at the measured
// times, socket lanes grouped by node, redirects from the refusing node to the next one, refusals that
// point nowhere on the refusing node, the client library's refusal on the client lane, the slot strip.
import { describe, expect, it } from 'vitest';
import { clusterRun } from '../model/cluster-run.ts';
import { traceColumns } from '../model/trace-columns.ts';
import { CLUSTER_TRACES, crossSlotMset, keySlot, movedPipeline, redirectedCounter, refusedPipeline, spreadPipeline } from '../test-support/cluster-fixtures.ts';
import { recordedTrace } from '../test-support/recorded-traces.ts';
import type { TraceDocument } from '../../../trace/format/trace-format.ts';
import { clusterGeometry, slotX } from './cluster-geometry.ts';
import { clusterAtPlayhead, clusterLayout } from './cluster-layout.ts';
import { timeScale } from './time-scale-layout.ts';

function laidOut(doc: TraceDocument, width = 640) {
  const columns = traceColumns(doc);
  const run = clusterRun(doc)!;
  const g = clusterGeometry(width, run);
  const scale = timeScale(columns.endUs, g);
  return { columns, run, g, scale, layout: clusterLayout(columns, run, scale, g) };
}

describe('clusterLayout', () => {
  it('draws each command from its socket to its node and back, at its measured times (recorded: 30 SET piped over 3 masters)', () => {
    const doc = recordedTrace(CLUSTER_TRACES.pipeline30);
    const { g, scale, layout } = laidOut(doc);
    expect(layout.requests).toHaveLength(30);
    expect(layout.replies).toHaveLength(30);
    expect(layout.commandsDrawn).toBe(30);
    for (const a of layout.requests) {
      const c = doc.commands[a.index]!;
      expect(a.y).toBeCloseTo(scale(c.sentUs));
      expect([a.x1, a.x2]).toEqual([g.socketX.get(c.connection!), g.nodeX.get(c.node!)]);
    }
    for (const a of layout.replies) {
      const c = doc.commands[a.index]!;
      expect(a.y).toBeCloseTo(scale(c.repliedUs));
      expect([a.x1, a.x2]).toEqual([g.nodeX.get(c.node!), g.socketX.get(c.connection!)]);
    }
    // Every write and read on its socket's lane.
    expect(layout.marks).toHaveLength(doc.writes.length + doc.reads.length);
    for (const m of layout.marks) {
      const event = m.kind === 'write' ? doc.writes[m.event]! : doc.reads[m.event]!;
      expect(m.x).toBe(g.socketX.get(event.connection!));
    }
  });

  it('puts the sockets left of the nodes, grouped in the nodes\' order, and the masters left to right in slot order', () => {
    const { g, run } = laidOut(recordedTrace(CLUSTER_TRACES.sequential30));
    const sockets = run.connectionOrder.map((k) => g.socketX.get(k)!);
    expect([...sockets].sort((a, b) => a - b)).toEqual(sockets);
    const masters = run.masters.map((m) => g.nodeX.get(m.node.id)!);
    expect([...masters].sort((a, b) => a - b)).toEqual(masters);
    expect(Math.max(...sockets)).toBeLessThan(Math.min(...masters));
    expect(Math.max(...masters)).toBeLessThan(g.width);
  });

  it('labels the requests with their command, the {hash tag} apart', () => {
    const { layout } = laidOut(spreadPipeline(12, 'user42'));
    const labelled = layout.requests.filter((a) => a.label);
    expect(labelled.length).toBeGreaterThan(0);
    for (const a of labelled) expect(a.label!.tag).toBe('{user42}');
  });

  it('a MOVED and an ASK: arrows from the refusing node to the node the command went to next, with the error text', () => {
    const doc = redirectedCounter();
    const { g, scale, layout } = laidOut(doc);
    const redirects = doc.cluster!.redirects;
    expect(layout.redirects.map((r) => r.label)).toEqual(redirects.map((r) => r.error));
    for (const [k, arrow] of layout.redirects.entries()) {
      const r = redirects[k]!;
      const to = doc.cluster!.topology.nodes.find((n) => n.address === r.to)!.id;
      expect([arrow.x1, arrow.x2]).toEqual([g.nodeX.get(r.from), g.nodeX.get(to)]);
      expect(arrow.y1).toBeCloseTo(scale(r.atUs));
      expect(arrow.y2).toBeCloseTo(scale(doc.commands[r.followedBy!]!.sentUs));
      expect(arrow.asking !== null).toBe(r.kind === 'ASK');
    }
    // A redirect's reply carries no label of its own: its text is on the redirect.
    expect(layout.replies.filter((a) => a.label)).toEqual([]);
    expect(layout.refusals).toEqual([]);
  });

  it('a CROSSSLOT points nowhere: a mark on the refusing node, at the reply\'s time', () => {
    const doc = crossSlotMset();
    const { g, scale, layout } = laidOut(doc);
    const r = doc.cluster!.redirects[0]!;
    expect(layout.redirects).toEqual([]);
    expect(layout.refusals).toHaveLength(1);
    expect(layout.refusals[0]).toMatchObject({ kind: 'CROSSSLOT', x: g.nodeX.get(r.from), title: r.error });
    expect(layout.refusals[0]!.y).toBeCloseTo(scale(r.atUs));
    expect(layout.refusals[0]!.label).toContain('refused at the server');
  });

  it('a client library\'s refusal: a mark on the client lane, nothing on the wire', () => {
    const doc = refusedPipeline();
    const { layout } = laidOut(doc, 1400);
    const refusal = doc.cluster!.clientRefusal!;
    expect(layout.clientRefusal!.title).toBe(`refused by ${refusal.library} before sending: ${refusal.message} — nothing went on the wire`);
    expect(layout.clientRefusal!.label).toBe(layout.clientRefusal!.title);
    expect(layout.requests).toEqual([]);
    expect(layout.socketHeads).toEqual([]);
    // Narrow, the label is shortened; the title keeps all of it.
    expect(laidOut(doc, 400).layout.clientRefusal!.label.endsWith('…')).toBe(true);
    // Timed, the refusal says when.
    const timed = { ...doc, cluster: { ...doc.cluster!, clientRefusal: { ...refusal, atUs: 41 } } };
    expect(laidOut(timed, 1400).layout.clientRefusal!.title).toBe(`refused by ${refusal.library} before sending (41 µs after t0): ${refusal.message} — nothing went on the wire`);
  });

  it('a client library\'s error thrown after sending: a mark on the client lane when it threw, the MOVED replies drawn', () => {
    const doc = movedPipeline();
    const { g, scale, layout } = laidOut(doc, 1400);
    const thrown = doc.cluster!.clientError!;
    expect(doc.cluster!.redirects.length).toBeGreaterThan(0);
    expect(layout.clientError).toMatchObject({ x: g.clientX, title: `node-redis 6.3.1 threw at its caller at 95 µs: ${thrown.message} — the replies that succeeded were not handed on` });
    // It threw after the last reply, which ends the time axis: drawn at the plot's foot, its time in words.
    expect(scale(thrown.atUs)).toBeGreaterThan(g.plotBottom);
    expect(layout.clientError!.y).toBeCloseTo(g.plotBottom - 4);
    expect(layout.clientRefusal).toBeNull();
    expect(layout.replies).toHaveLength(doc.commands.length);
    expect(layout.redirects).toHaveLength(doc.cluster!.redirects.length);
    expect(laidOut(spreadPipeline(6)).layout.clientError).toBeNull();
  });

  it('the slot strip: owners from the topology, one tick per slot the commands used, counted', () => {
    const doc = recordedTrace(CLUSTER_TRACES.sequential30);
    const { g, layout } = laidOut(doc);
    expect(layout.segments.map((s) => s.colour)).toEqual([0, 1, 2]);
    expect(layout.segments[0]!.x).toBe(g.strip.x0);
    const slots = new Map<number, number>();
    for (const c of doc.commands) slots.set(c.slot!, (slots.get(c.slot!) ?? 0) + 1);
    expect(layout.ticks.map((t) => [t.slot, t.commands])).toEqual([...slots].sort((a, b) => a[0] - b[0]));
    for (const t of layout.ticks) expect(t.x).toBeCloseTo(slotX(g, t.slot + 0.5));
    expect(layout.stripCaption).toContain('CLUSTER SHARDS');
    const tagged = laidOut(spreadPipeline(12, 'user42')).layout.ticks;
    expect(tagged.map((t) => [t.slot, t.commands])).toEqual([[keySlot('{user42}'), 12]]);
  });

  it('at the playhead: only what had happened by then', () => {
    const doc = redirectedCounter();
    const { columns, layout } = laidOut(doc);
    const atUs = doc.cluster!.redirects[0]!.atUs;
    const cut = clusterAtPlayhead(layout, columns, atUs);
    expect(cut.requests.map((a) => a.index)).toEqual(doc.commands.flatMap((c, i) => (c.sentUs <= atUs ? [i] : [])));
    expect(cut.replies.map((a) => a.index)).toEqual(doc.commands.flatMap((c, i) => (c.repliedUs <= atUs ? [i] : [])));
    expect(cut.redirects).toHaveLength(1);
  });
});

describe('the node heads', () => {
  it('the address and the slot count (the label placement shortens them where they crowd: cluster-labels-layout.ts)', () => {
    const wide = laidOut(spreadPipeline(12), 1200).layout.nodeHeads;
    expect(wide.map((h) => h.title)).toEqual(['127.0.0.1:7601', '127.0.0.1:7602', '127.0.0.1:7603']);
    expect(wide[0]!.note).toBe('master · 5,461 slots');
  });
});
