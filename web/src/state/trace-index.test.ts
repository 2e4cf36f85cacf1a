// traces/index.json as the static site's landing page reads it: the committed index parses, entries
// group in the index's order, links are relative with one trace= per file, the provenance is said in
// full (the added delay always, and whose), and a damaged index gives a message naming the file and the fault.
import { describe, expect, it } from 'vitest';
import committedIndex from '../../../public/traces/index.json?raw';
import { addedDelayText, groupTraceIndex, loadTraceIndex, parseTraceIndex, provenanceLine, traceLink, type TraceIndexEntry } from './trace-index.ts';

const provenance: TraceIndexEntry['provenance'] = {
  redis: '7.0.15', client: 'ioredis 6.0.0', runtime: 'node v20.20.2', machine: 'Linux x64, 2 × AMD EPYC',
  recordedAt: '2026-11-23T20:48:59.575Z', addedDelayMs: 0, command: 'npm run record -- --mode sequential --command INCR --n 10 --out x.json',
};
const entry = (file: string, group: string): TraceIndexEntry => ({ file, title: file, about: '', group, provenance });

describe('the trace index', () => {
  it('reads the committed public/traces/index.json, every file named once', () => {
    const index = parseTraceIndex(committedIndex);
    expect(index.traces.length).toBeGreaterThan(0);
    expect(new Set(index.traces.map((t) => t.file)).size).toBe(index.traces.length);
  });

  it('groups entries in the order the index lists them', () => {
    const groups = groupTraceIndex({ format: 'pipescope-trace-index', version: 1, traces: [entry('a.json', 'G1'), entry('b.json', 'G2'), entry('c.json', 'G1')] });
    expect(groups.map((g) => [g.title, g.entries.map((e) => e.file)])).toEqual([['G1', ['a.json', 'c.json']], ['G2', ['b.json']]]);
  });

  it('links relatively, one trace= per file', () => {
    expect(traceLink([entry('incr-10-sequential.json', 'G'), entry('incr-10-pipeline.json', 'G')])).toBe('?trace=traces/incr-10-sequential.json&trace=traces/incr-10-pipeline.json');
  });

  it('says where, with what and when a run was recorded, and the added delay with whose it is', () => {
    expect(provenanceLine(provenance)).toBe('Redis 7.0.15 · ioredis 6.0.0 on node v20.20.2 · Linux x64, 2 × AMD EPYC · recorded 2026-11-23 20:48 UTC');
    expect(addedDelayText(provenance)).toBe('no added delay (delay proxy off)');
    expect(addedDelayText({ ...provenance, addedDelayMs: 20 })).toBe('20 ms added RTT (Pipescope’s delay proxy)');
  });

  it('refuses a damaged index with a message naming the file and the fault', async () => {
    await expect(loadTraceIndex(() => Promise.resolve('{"format":"pipescope-trace-index"'))).rejects.toThrow(/^The list of recorded runs \(traces\/index\.json\) could not be read: it is not JSON/);
    await expect(loadTraceIndex(() => Promise.resolve('{"format":"pipescope-trace-index","version":1,"traces":[{"file":"../x.json"}]}'))).rejects.toThrow(
      /could not be read: traces\.0\.file: a file name in traces\//,
    );
    await expect(loadTraceIndex(() => Promise.reject(new Error('HTTP 404')))).rejects.toThrow('could not be read: HTTP 404');
  });
});
