import { describe, expect, it } from 'vitest';
import { serializeTrace } from '../../../trace/format/trace-io.ts';
import { chunkedTrace, memorySamples, pipelineTrace, serverTracedSequential } from '../test-support/trace-fixtures.ts';
import { ARRAY_SLICE, jsonParts } from './trace-json-parts.ts';

describe('a trace’s JSON in parts', () => {
  it('joins to exactly serializeTrace’s text, for small and sliced traces', () => {
    for (const doc of [pipelineTrace(10), serverTracedSequential(5), chunkedTrace(3 * ARRAY_SLICE + 7, 1000, 100, 20, 'PING', memorySamples([0, 10], [0, 10])), pipelineTrace(ARRAY_SLICE * 2)]) {
      const parts = [...jsonParts(doc)];
      expect(parts.join('')).toBe(serializeTrace(doc));
    }
  });

  it('cuts long arrays into slices of ARRAY_SLICE elements', () => {
    const doc = pipelineTrace(ARRAY_SLICE * 3);
    const parts = [...jsonParts(doc)];
    expect(Math.max(...parts.map((p) => p.length))).toBeLessThan(serializeTrace(doc).length / 2);
    expect(parts.length).toBeGreaterThan(9);
  });

  it('writes what JSON.stringify omits or turns to null the same way', () => {
    const value = { a: undefined, b: [undefined, 1], c: { d: undefined, e: () => 1, f: new Date(0) }, g: Array.from({ length: ARRAY_SLICE + 1 }, (_, i) => (i === 3 ? undefined : i)) };
    expect([...jsonParts(value)].join('')).toBe(JSON.stringify(value));
  });
});
