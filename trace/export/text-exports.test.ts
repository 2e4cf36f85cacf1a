// The text exports of a run (Mermaid, the text flow) and of a sweep (redis-benchmark CSV): goldens of the
// recorded fixtures in e2e/fixtures/, byte for byte (trace/export/__goldens__/, UPDATE_GOLDENS=1 rewrites them),
// and the rules each keeps: escaping for Mermaid's grammar, collapsing large runs with an exact count
// of what was left out, "n/a" where a sweep measured nothing.
import { describe, expect, it } from 'vitest';
import { parseDocument } from '../format/sweep-io.ts';
import type { SweepDocument } from '../format/sweep-format.ts';
import type { TraceDocument } from '../format/trace-format.ts';
import { MERMAID_KEEP, MERMAID_MAX_EVENTS, mermaidSequence, mermaidText } from './mermaid-export.ts';
import { FLOW_KEEP, textFlow } from './flow-export.ts';
import { NOT_MEASURED, REDIS_BENCHMARK_CSV_COLUMNS, pointLatencyCells, sweepBenchmarkCsv, sweepCsvFileName } from './sweep-csv.ts';
import { collapseFlow, flowEvents, runLengths } from './run-flow.ts';
import { roundTripsWaited } from '../derive/round-trips.ts';
import { expectGoldenText, fixturePath, readText } from '../test-support/text-golden.ts';
import { csvCell, inertCell, oneLine, quotedCsvCell } from './export-escape.ts';

function trace(name: string): TraceDocument {
  const parsed = parseDocument(readText(fixturePath(name)));
  if (parsed.kind !== 'trace') throw new Error(`${name} is not a trace`);
  return parsed.doc;
}

function sweep(name: string): SweepDocument {
  const parsed = parseDocument(readText(fixturePath(name)));
  if (parsed.kind !== 'sweep') throw new Error(`${name} is not a sweep`);
  return parsed.doc;
}

/** A sequential run of n commands built from the 10-command fixture's first round trip, one every 100 µs. */
function longSequential(n: number): TraceDocument {
  const base = trace('incr-10-sequential.json');
  const commands = Array.from({ length: n }, (_, i) => ({ index: i, sentUs: 1000 + i * 100, repliedUs: 1050 + i * 100, reply: i + 1 }));
  return {
    ...base,
    run: { ...base.run, n, operations: n },
    commands,
    writes: commands.map((c, i) => ({ atUs: c.sentUs, bytes: 56, firstCommand: i, commands: 1 })),
    reads: commands.map((c, i) => ({ atUs: c.repliedUs, bytes: 4, firstReply: i, replies: 1 })),
    counts: { ...base.counts, client: { ...base.counts.client, writes: n, reads: n, bytesOut: 56 * n, bytesIn: 4 * n } },
    totals: { ...base.totals, durationUs: commands.at(-1)!.repliedUs },
  };
}

describe('a cluster run', () => {
  const doc = () => trace('cluster/set-12-pipeline-cluster.json');

  it('Mermaid: one participant per node, masters in slot order, each message to its socket\'s node (golden)', () => {
    expectGoldenText(mermaidSequence(doc()), 'set-12-pipeline-cluster.mmd');
  });

  it('each write goes to, and each read comes from, the node its socket went to', () => {
    const run = doc();
    const cluster = run.cluster!;
    const lines = mermaidSequence(run).split('\n');
    const heads = lines.filter((l) => l.startsWith('    participant N'));
    expect(heads).toHaveLength(cluster.topology.nodes.length);
    const nameOf = new Map(cluster.topology.nodes.map((node) => [node.id, heads.find((h) => h.includes(node.address))!.split(' ')[5]!]));
    run.writes.forEach((w, i) => {
      const line = lines.find((l) => l.includes(`: write ${i + 1} · `))!;
      expect(line.startsWith(`    C->>${nameOf.get(cluster.connections[w.connection!]!.node)}: `)).toBe(true);
    });
    run.reads.forEach((r, i) => {
      const line = lines.find((l) => l.includes(`: read ${i + 1} · `))!;
      expect(line.startsWith(`    ${nameOf.get(cluster.connections[r.connection!]!.node)}-->>C: `)).toBe(true);
      // A socket's read answers that socket's own commands.
      expect(line).toContain(`${r.replies} ${r.replies === 1 ? 'reply' : 'replies'}: OK`);
    });
  });
});

describe('goldens of the recorded fixtures', () => {
  const runs = [
    ['incr-10-pipeline.json', 'incr-10-pipeline'],
    ['incr-10-sequential.json', 'incr-10-sequential'],
    ['incr-10-pipeline-server-trace.json', 'incr-10-pipeline-server-trace'],
    ['ping-20-chunked-5-rtt-10ms.json', 'ping-20-chunked-5-rtt-10ms'],
    ['modes-incr-10/error-at-4-multi-r0.json', 'error-at-4-multi-incr-10'],
  ] as const;
  it.each(runs)('Mermaid of %s', (file, name) => expectGoldenText(mermaidSequence(trace(file)), `${name}.mmd`));
  it.each(runs)('text flow of %s', (file, name) => expectGoldenText(textFlow(trace(file)), `${name}.flow.txt`));
  it('Mermaid and text flow of a long run, collapsed', () => {
    expectGoldenText(mermaidSequence(longSequential(1000)), 'sequential-incr-1000-collapsed.mmd');
    expectGoldenText(textFlow(longSequential(1000)), 'sequential-incr-1000-collapsed.flow.txt');
  });
  it('redis-benchmark CSV of the recorded sweep', () => expectGoldenText(sweepBenchmarkCsv(sweep('sweep-ping-1-64.json')), 'sweep-ping-1-64.csv'));
  it('redis-benchmark CSV of a sweep that kept its latencies', () => expectGoldenText(sweepBenchmarkCsv(sweep('sweep-ping-1-64-latency.json')), 'sweep-ping-1-64-latency.csv'));
});

describe('Mermaid', () => {
  it('escapes what would end a message or read as HTML, and keeps everything else', () => {
    expect(mermaidText('ERR a;b #1 <x> 50%\nnext')).toBe('ERR a#59;b #35;1 #60;x#62; 50#37;\\nnext');
    expect(mermaidText('10 commands: INCR ×10 · at 2.66 ms')).toBe('10 commands: INCR ×10 · at 2.66 ms');
  });

  it('draws one message per socket write and read: a pipeline is one of each, a sequential run one per command', () => {
    const arrows = (text: string) => text.split('\n').filter((l) => /^ {4}(C->>R|R-->>C):/.test(l)).length;
    expect(arrows(mermaidSequence(trace('incr-10-pipeline.json')))).toBe(2);
    expect(arrows(mermaidSequence(trace('incr-10-sequential.json')))).toBe(20);
  });

  it('collapses a long run to its first and last messages, saying exactly what is left out', () => {
    const text = mermaidSequence(longSequential(1000));
    const lines = text.split('\n');
    expect(lines.filter((l) => /^ {4}(C->>R|R-->>C):/.test(l))).toHaveLength(2 * MERMAID_KEEP);
    expect(lines.length).toBeLessThan(MERMAID_MAX_EVENTS + 10);
    // 2,000 messages, 6 kept at each end: 994 writes and 994 reads left out, each 1 command / 1 reply.
    expect(text).toContain('Note over C,R: …<br/>1,988 messages left out<br/>994 writes (994 commands, 55,664 B)<br/>994 reads (994 replies, 3,976 B)<br/>from 1.3 ms to 100.65 ms since t0 (client-socket)<br/>…');
    expect(text).toContain('R-->>C: read 1000 · 4 B · 1 reply: 1000 · at 100.95 ms');
    expect(text).not.toMatch(/;/);
  });
});

describe('text flow', () => {
  it('keeps the columns fixed whatever the numbers', () => {
    const rows = textFlow(longSequential(150)).split('\n').filter((l) => /^ +[wr]\d+ /.test(l));
    expect(new Set(rows.map((r) => r.indexOf('|')))).toEqual(new Set([rows[0]!.indexOf('|')]));
    expect(rows).toHaveLength(2 * FLOW_KEEP);
  });

  it('counts round trips as the app does: one per command when sequential, one for a pipeline', () => {
    expect(roundTripsWaited(trace('incr-10-sequential.json'))).toBe(10);
    expect(roundTripsWaited(trace('incr-10-pipeline.json'))).toBe(1);
  });
});

describe('a run cut short', () => {
  it('says so in both texts, and leaves out the Redis INFO line it did not measure', () => {
    const whole = trace('incr-10-sequential.json');
    const doc: TraceDocument = {
      ...whole,
      commands: whole.commands.slice(0, 4),
      incomplete: { reason: 'cancelled', sent: 5, replied: 4, omitted: ['redis-info'] },
    };
    expect(mermaidSequence(doc)).toContain('    title Sequential · 10 × INCR · incomplete (cancelled): 4 of 10 replies measured\n');
    const flow = textFlow(doc);
    expect(flow.split('\n')[0]).toBe('Pipescope flow: Sequential · 10 × INCR (incomplete, cancelled: 4 of 10 replies measured)');
    expect(flow).not.toContain('Redis (redis-info');
    expect(flow).toContain('4 commands replied');
  });
});

describe('flow events', () => {
  it('folds equal neighbours and shortens long lists', () => {
    expect(runLengths(['MULTI', 'INCR', 'INCR', 'EXEC'])).toBe('MULTI, INCR ×2, EXEC');
    expect(runLengths(['1', '2', '3', '4', '5', '6', '7'])).toBe('1, 2, 3, 4, …, 7');
  });

  it('leaves nothing out at or below the limit', () => {
    const events = flowEvents(trace('incr-10-sequential.json'));
    expect(collapseFlow(events, 20, 6).gap).toBeNull();
    expect(collapseFlow(events, 19, 6).gap).toMatchObject({ writes: 4, reads: 4, commands: 4, replies: 4 });
  });
});

describe('redis-benchmark CSV', () => {
  it('has redis-benchmark --csv columns, quoted, one row per depth, and n/a where the sweep measured nothing', () => {
    const doc = sweep('sweep-ping-1-64.json');
    const lines = sweepBenchmarkCsv(doc).split('\n');
    expect(lines[0]).toBe(REDIS_BENCHMARK_CSV_COLUMNS.map((c) => `"${c}"`).join(','));
    expect(lines[1]).toMatch(/^"PING -P 1","\d+\.\d\d"(,"n\/a"){6}$/);
    expect(lines.filter((l) => /^"PING -P \d+",/.test(l))).toHaveLength(doc.points.length);
    expect(lines.at(-1)).toBe('');
    expect(NOT_MEASURED).toBe('n/a');
    expect(sweepCsvFileName(doc)).toMatch(/^pipescope-sweep-ping-1-64-.+-redis-benchmark\.csv$/);
  });

  it('fills the latency columns from the runs\' latencies: avg over all commands, exact min and max, median percentiles', () => {
    const doc = sweep('sweep-ping-1-64-latency.json');
    const lines = sweepBenchmarkCsv(doc).split('\n');
    for (const [i, point] of doc.points.entries()) {
      const runs = point.runs.map((r) => r.latency!);
      const cells = lines[i + 1]!.slice(1, -1).split('","');
      expect(cells[0]).toBe(`PING -P ${point.depth}`);
      const ms = cells.slice(2).map(Number);
      expect(ms[0]).toBeCloseTo(runs.reduce((s, l) => s + l.avgUs, 0) / runs.length / 1000, 3); // equal counts: the mean of means
      expect(ms[1]).toBeCloseTo(Math.min(...runs.map((l) => l.minUs)) / 1000, 3);
      expect(ms[2]).toBeCloseTo([...runs.map((l) => l.p50Us)].sort((a, b) => a - b)[1]! / 1000, 3); // 3 repeats: the middle one
      expect(ms[5]).toBeCloseTo(Math.max(...runs.map((l) => l.maxUs)) / 1000, 3);
      expect(ms[1]! <= ms[2]! && ms[2]! <= ms[3]! && ms[3]! <= ms[4]! && ms[4]! <= ms[5]!).toBe(true);
    }
    // redis-benchmark's rows: its own latency columns, over its repeats the same way.
    for (const [i, point] of doc.reference!.points.entries()) {
      const runs = point.latencies!;
      expect(runs).toHaveLength(3);
      const cells = lines[doc.points.length + i + 1]!.slice(1, -1).split('","');
      expect(cells[0]).toBe(`PING -P ${point.depth} (redis-benchmark)`);
      const ms = cells.slice(2).map(Number);
      expect(ms[0]).toBeCloseTo(runs.reduce((s, l) => s + l.avgMs, 0) / 3, 3);
      expect(ms[1]).toBe(Math.min(...runs.map((l) => l.minMs)));
      expect(ms[3]).toBe([...runs.map((l) => l.p95Ms)].sort((a, b) => a - b)[1]);
      expect(ms[5]).toBe(Math.max(...runs.map((l) => l.maxMs)));
    }
  });

  it('says n/a in redis-benchmark\'s rows when it printed no latencies (before Redis 7, or an older sweep)', () => {
    const lines = sweepBenchmarkCsv(sweep('sweep-ping-1-64.json')).split('\n');
    const rows = lines.filter((l) => l.includes('(redis-benchmark)'));
    expect(rows.length).toBeGreaterThan(0);
    for (const row of rows) expect(row.endsWith('"n/a","n/a","n/a","n/a","n/a","n/a"')).toBe(true);
  });

  it('says n/a for a percentile too few commands cannot give', () => {
    const doc = sweep('sweep-ping-1-64-latency.json');
    const point = doc.points[0]!;
    const few = { ...point, runs: point.runs.map((r) => ({ ...r, latency: { ...r.latency!, count: 10 } })) };
    expect(pointLatencyCells(few).slice(2, 5)).toEqual([expect.stringMatching(/^\d+\.\d{3}$/), 'n/a', 'n/a']); // p50 needs 2, p95 20, p99 100
  });
});

describe('exports of a hostile trace', () => {
  // Every free-text field a file can carry, each trying to break out of its line: a Mermaid directive and a
  // click, forged flow rows, a terminal escape, a formula.
  const attack = '1\n%%{init: {"securityLevel": "loose"}}%%\nclick C call alert(1)\r\n   w99  0.000  |---> forged row\u2028\u001b[31m=HYPERLINK("x")';
  function hostile(): TraceDocument {
    const doc = trace('incr-10-pipeline.json');
    return {
      ...doc,
      run: { ...doc.run, id: attack, startedAt: attack },
      recorder: { ...doc.recorder, tool: attack, version: attack, client: attack, runtime: attack },
      redis: { ...doc.redis, version: attack },
      commands: doc.commands.map((c) => ({ ...c, reply: attack })),
    };
  }

  it('Mermaid: the %% header and every field stay on their own lines, with no directive or click', () => {
    const benign = mermaidSequence(trace('incr-10-pipeline.json')).split('\n');
    const lines = mermaidSequence(hostile()).split('\n');
    expect(lines).toHaveLength(benign.length);
    expect(lines.every((l, i) => l.slice(0, 12) === benign[i]!.slice(0, 12))).toBe(true); // each line the statement it was
    expect(lines.filter((l) => l.includes('%%{') || /^\s*click\b/.test(l) || /[\r\u2028\u001b]/.test(l))).toEqual([]);
    expect(lines[0]).toMatch(/^%% Pipescope run 1\\n#37;#37;\{init: \{"securityLevel": "loose"\}\}#37;#37;\\nclick C call alert\(1\)\\r\\n/);
  });

  it('text flow: a field cannot forge a row or send a control character to the terminal', () => {
    const benign = textFlow(trace('incr-10-pipeline.json')).split('\n');
    const lines = textFlow(hostile()).split('\n');
    expect(lines).toHaveLength(benign.length);
    expect(lines.filter((l) => /forged row/.test(l))).toHaveLength(lines.filter((l) => l.includes('\\n   w99')).length);
    expect(lines.filter((l) => /^\s+w99/.test(l) || /[\r\u2028\u001b]/.test(l))).toEqual([]);
  });

  it('CSV: formula-leading cells made inert; numbers and plain text kept', () => {
    expect(['=1+1', '+SUM(A1)', '-2+3', '@A1', '\t=1', '\r=1'].map(inertCell)).toEqual(["'=1+1", "'+SUM(A1)", "'-2+3", "'@A1", "'\t=1", "'\r=1"]);
    expect(['-5', '+1.5', '-1e3', '12', 'PONG', 'n/a', 'error: ERR x'].map(inertCell)).toEqual(['-5', '+1.5', '-1e3', '12', 'PONG', 'n/a', 'error: ERR x']);
    expect(csvCell('=HYPERLINK("a","b")')).toBe(`"'=HYPERLINK(""a"",""b"")"`);
    expect(quotedCsvCell('@x')).toBe(`"'@x"`);
    expect(oneLine('a\nb\u0000c\u2029')).toBe('a\\nb\\u0000c\\u2029');
  });
});
