import { describe, expect, it } from 'vitest';
import { encodeCompactTrace } from '../../../trace/format/compact-trace.ts';
import { serializeSweep } from '../../../trace/format/sweep-io.ts';
import { serializeTrace } from '../../../trace/format/trace-io.ts';
import { gzipped } from '../test-support/gzipped.ts';
import { sweepDocument } from '../test-support/sweep-fixtures.ts';
import { chunkedTrace, pipelineTrace, sequentialTrace } from '../test-support/trace-fixtures.ts';
import { loadTraceFiles, loadTraceUrls, orderForComparison, sweepFileName, traceFileName, traceUrlsFromSearch } from './trace-files.ts';

describe('traceUrlsFromSearch', () => {
  it('reads repeated ?trace= parameters, ignoring blanks, at most 240 (six runs of up to 40 repeats)', () => {
    expect(traceUrlsFromSearch('?trace=/a.json&trace=https://x.example/b.json&trace=')).toEqual(['/a.json', 'https://x.example/b.json']);
    expect(traceUrlsFromSearch(`?${Array.from({ length: 241 }, (_, i) => `trace=${i}`).join('&')}`)).toHaveLength(240);
    expect(traceUrlsFromSearch('')).toEqual([]);
  });
});

describe('loadTraceUrls', () => {
  it('parses good traces and reports the TraceError of bad ones', async () => {
    const good = serializeTrace(sequentialTrace(3));
    const files: Record<string, string> = { '/good.json': good, '/bad.json': '{"format":"other"}', '/broken.json': '{' };
    const result = await loadTraceUrls(['/good.json', '/bad.json', '/broken.json', '/missing.json'], async (url) => {
      const text = files[url];
      if (text === undefined) throw new Error('HTTP 404 Not Found');
      return text;
    });
    expect(result.docs).toHaveLength(1);
    expect(result.docs[0]!.run.n).toBe(3);
    expect(result.errors).toEqual([
      'Could not load the trace at /bad.json: Not a trace: expected "format": "pipescope-trace".',
      expect.stringMatching(/^Could not load the trace at \/broken.json: Not a Pipescope file: the file is not valid JSON/),
      'Could not load the trace at /missing.json: HTTP 404 Not Found',
    ]);
  });
});

describe('compact and gzipped traces (run.json.gz)', () => {
  it('reads a gzipped compact trace from a link, a prefetched download or a picked file, and plain text as before', async () => {
    const doc = pipelineTrace(5);
    const gz = await gzipped(encodeCompactTrace(doc));
    // What a static host sends: the gzip bytes (application/gzip, no Content-Encoding)…
    window.pipescopePrefetch = new Map([['/run.json.gz', Promise.resolve(gz.buffer as ArrayBuffer)]]);
    const prefetched = await loadTraceUrls(['/run.json.gz']);
    expect(window.pipescopePrefetch.size).toBe(0);
    // …and what a host that sets Content-Encoding: gzip hands over: the browser inflated it already.
    const inflated = await loadTraceUrls(['/plain.json.gz'], async () => new TextEncoder().encode(encodeCompactTrace(doc)));
    const picked = await loadTraceFiles([new File([gz as BlobPart], 'run.json.gz', { type: 'application/gzip' })]);
    for (const result of [prefetched, inflated, picked]) {
      expect(result.errors).toEqual([]);
      expect(result.docs.map(serializeTrace)).toEqual([serializeTrace(doc)]);
    }
    expect(picked.origins).toEqual(['run.json.gz']);
  });

  it('says clearly that a .gz is damaged', async () => {
    const gz = await gzipped(encodeCompactTrace(pipelineTrace(5)));
    const cut = gz.slice(0, Math.floor(gz.length / 2));
    const result = await loadTraceUrls(['/cut.json.gz'], async () => cut);
    expect(result.errors).toEqual([expect.stringMatching(/^Could not load the trace at \/cut\.json\.gz: the file starts like gzip but does not decompress: it is damaged or cut short/)]);
    const picked = await loadTraceFiles([new File([cut as BlobPart], 'cut.json.gz')]);
    expect(picked.errors).toEqual([expect.stringMatching(/^cut\.json\.gz: the file starts like gzip but does not decompress/)]);
  });
});

describe('sweep files', () => {
  it('tells a sweep from a trace, from a URL or a picked file, and holds it to the sweep rules', async () => {
    const sweep = sweepDocument([1, 2, 4], 100);
    const fromUrl = await loadTraceUrls(['/sweep.json', '/trace.json'], async (url) => (url === '/sweep.json' ? serializeSweep(sweep) : serializeTrace(sequentialTrace(2))));
    expect(fromUrl.sweeps).toEqual([sweep]);
    expect(fromUrl.docs).toHaveLength(1);
    const bad = { ...sweep, points: sweep.points.slice(1) };
    const files = [new File([serializeSweep(sweep)], 'good.json'), new File([JSON.stringify(bad)], 'bad.json')];
    const picked = await loadTraceFiles(files);
    expect(picked.sweeps).toEqual([sweep]);
    expect(picked.errors).toEqual(["bad.json: Invalid sweep: its points do not follow the sweep's depths."]);
    expect(sweepFileName(sweep)).toBe('pipescope-sweep-ping-1-4-sweep-test-1.json');
  });
});

describe('file names and order', () => {
  it('names a download after its run and puts sequential runs first', () => {
    const seq = sequentialTrace(3);
    const pipe = pipelineTrace(3);
    expect(traceFileName(seq)).toBe('pipescope-sequential-incr-3-test-sequential-3.json');
    expect(orderForComparison([pipe, seq]).map((d) => d.run.mode)).toEqual(['sequential', 'pipeline']);
  });
});

describe('chunked runs', () => {
  it('name their chunk size and come after the single pipeline, larger chunks first', () => {
    const small = chunkedTrace(10, 2);
    const large = chunkedTrace(10, 5);
    expect(traceFileName(small)).toBe('pipescope-chunked-2-ping-10-test-chunked-10.json');
    const ordered = orderForComparison([small, pipelineTrace(10), large, sequentialTrace(10)]);
    expect(ordered.map((d) => [d.run.mode, d.run.chunk])).toEqual([['sequential', undefined], ['pipeline', undefined], ['chunked', 5], ['chunked', 2]]);
  });
});
