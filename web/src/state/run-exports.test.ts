// The Export menu's file names (state/run-exports.ts): a run's trace file name with the format's extension,
// or for a comparison the modes compared and the first run's id; and the menu's items in order.
import { describe, expect, it } from 'vitest';
import { chunkedTrace, sequentialTrace } from '../test-support/trace-fixtures.ts';
import { RUN_EXPORTS, exportFileName } from './run-exports.ts';
import { traceFileName } from './trace-files.ts';

describe('run exports', () => {
  it('names files after the run, or after the runs compared', () => {
    const seq = sequentialTrace(3);
    expect(exportFileName([seq], 'svg')).toBe(traceFileName(seq).replace(/\.json$/, '.svg'));
    expect(exportFileName([seq], 'flow.txt')).toBe('pipescope-sequential-incr-3-test-sequential-3.flow.txt');
    expect(exportFileName([seq, chunkedTrace(6, 3)], 'png')).toBe('pipescope-compare-sequential-chunked-3-incr-3-test-sequential-3.png');
  });

  it('offers the formats in the menu’s order', () => {
    expect(RUN_EXPORTS.map((e) => e.label)).toEqual(['Trace (JSON)', 'SVG', 'PNG 2×', 'CSV (per-command table)', 'Mermaid', 'Text flow']);
  });
});
