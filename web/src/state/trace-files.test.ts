import { describe, expect, it } from 'vitest';
import { serializeTrace } from '../../../trace/trace-io.ts';
import { pipelineTrace, sequentialTrace } from '../test-support/trace-fixtures.ts';
import { loadTraceUrls, orderForComparison, traceFileName, traceUrlsFromSearch } from './trace-files.ts';

describe('traceUrlsFromSearch', () => {
  it('reads repeated ?trace= parameters, ignoring blanks, at most four', () => {
    expect(traceUrlsFromSearch('?trace=/a.json&trace=https://x.example/b.json&trace=')).toEqual(['/a.json', 'https://x.example/b.json']);
    expect(traceUrlsFromSearch('?trace=1&trace=2&trace=3&trace=4&trace=5')).toHaveLength(4);
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
      expect.stringMatching(/^Could not load the trace at \/broken.json: Not a trace: the file is not valid JSON/),
      'Could not load the trace at /missing.json: HTTP 404 Not Found',
    ]);
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
