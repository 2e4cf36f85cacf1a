import { describe, expect, it } from 'vitest';
import { neighborTrace } from '../test-support/neighbor-fixtures.ts';
import { pipelineTrace } from '../test-support/trace-fixtures.ts';
import { bucketText, heldConnectionText, neighborTexts } from './neighbor-text.ts';

describe('neighborTexts', () => {
  it('says how many ran inside the pipeline, with MONITOR as its source, and p99 during against before', () => {
    const texts = neighborTexts(neighborTrace({ inside: 3 }))!;
    expect(texts.inside).toBe('3 of the neighbour’s commands ran inside your pipeline');
    expect(texts.insideCount).toBe(3);
    expect(texts.insideSource).toBe('MONITOR: between the run’s first and last execution on Redis (90 µs)');
    expect(texts.latency).toBe('GET at 6,000/s: p99 400 µs during the run, p99 50 µs before it');
    expect(texts.p99DuringUs).toBe(400);
    expect(texts.p99BeforeUs).toBe(50);
    expect(texts.latencySource).toContain('127.0.0.1:50001');
  });

  it('without MONITOR it says what is needed; null without a neighbour', () => {
    const texts = neighborTexts(neighborTrace({ monitor: false }))!;
    expect(texts.inside).toBe('Whether the neighbour’s commands ran inside your pipeline needs MONITOR');
    expect(texts.insideCount).toBeNull();
    expect(neighborTexts(pipelineTrace(10))).toBeNull();
  });
});

describe('heldConnectionText', () => {
  it('compares the two PINGs from the moment both were issued', () => {
    const held = heldConnectionText(neighborTrace({ held: { issuedUs: 20, sameConnectionRepliedUs: 41_220, otherConnectionRepliedUs: 120 } }))!;
    expect(held.text).toBe('A PING on the same connection waited 41.2 ms behind the pipeline; on a second connection 100 µs');
    expect(held).toMatchObject({ sameWaitUs: 41_200, otherWaitUs: 100 });
    expect(heldConnectionText(pipelineTrace(10))).toBeNull();
  });
});

describe('bucketText', () => {
  it('one command a bucket reads "per command", not "per 1 commands"', () => {
    expect(bucketText(300, 400)).toBe('per command');
    expect(bucketText(400, 400)).toBe('per command');
    expect(bucketText(12_000, 400)).toBe('per ~30 commands');
    expect(bucketText(undefined, 0)).toBe('per bucket');
  });
});
