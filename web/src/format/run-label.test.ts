import { describe, expect, it } from 'vitest';
import { chunkedChoiceLabel, chunkNote, modeBadge, modeLabel, modePhrase, modeWireLine, pipelineCount, pressRunTitle, runTitle, workloadTitle } from './run-label.ts';

describe('run labels', () => {
  it('names each mode for a badge, a sentence and a label', () => {
    expect(['sequential', 'pipeline', 'chunked'].map((m) => modeBadge(m as 'sequential'))).toEqual(['Sequential', 'Pipeline', 'Chunked']);
    expect(modePhrase('pipeline')).toBe('one pipeline');
    expect(modePhrase('chunked', 10_000)).toBe('chunks of 10,000');
    expect(modePhrase('chunked')).toBe('chunks');
    expect(modeLabel('chunked', 1000)).toBe('Chunks of 1,000');
    expect(modeLabel('sequential')).toBe('Sequential');
  });

  it('titles a run “N × CMD”, with the value size for SET/GET and “in pipelines of C” when chunked', () => {
    expect(workloadTitle({ n: 10, command: 'INCR', valueBytes: 0 })).toBe('10 × INCR');
    expect(runTitle({ n: 1_000_000, command: 'SET', valueBytes: 100, mode: 'chunked', chunk: 10_000 })).toBe(
      '1,000,000 × SET (100 B values) in pipelines of 10,000',
    );
    expect(runTitle({ n: 10_000, command: 'PING', valueBytes: 0, mode: 'chunked', chunk: 1000 })).toBe('10,000 × PING in pipelines of 1,000');
    // 10 commands do not make pipelines of 10,000: say what ran.
    expect(runTitle({ n: 10, command: 'INCR', valueBytes: 0, mode: 'chunked', chunk: 10_000 })).toBe('10 × INCR in one pipeline of 10');
    expect(runTitle({ n: 10, command: 'INCR', valueBytes: 0, mode: 'chunked', chunk: 10 })).toBe('10 × INCR in one pipeline of 10');
    expect(runTitle({ n: 10_000, command: 'PING', valueBytes: 0, mode: 'pipeline' })).toBe('10,000 × PING');
  });

  it('counts pipelines and says so beside the chunk size', () => {
    expect(pipelineCount(10_000, 1000)).toBe(10);
    expect(pipelineCount(10_001, 1000)).toBe(11);
    expect(chunkNote(10_000, 1000)).toBe('10 pipelines');
    expect(chunkNote(10_007, 1000)).toBe('11 pipelines, the last of 7');
    expect(chunkNote(10, 10_000)).toBe('≥ N: one pipeline of 10');
    expect(chunkedChoiceLabel(10, 10_000)).toBe('Chunks of 10,000: here one pipeline of 10');
    expect(chunkedChoiceLabel(100_000, 10_000)).toBe('N commands in pipelines of 10,000');
    expect(chunkedChoiceLabel(null, 10_000)).toBe('N commands in pipelines of 10,000');
    expect(chunkedChoiceLabel(10, null)).toBe('N commands in pipelines of C');
    expect(chunkNote(Number.NaN, 10)).toBeNull();
    expect(chunkNote(10, 0)).toBeNull();
  });
});

describe('the modes beyond plain pipelines', () => {
  it('says in one line what each mode puts on the wire', () => {
    expect(modeWireLine('multi')).toBe('MULTI, your commands, EXEC — a transaction');
    expect(modeWireLine('eval')).toBe('one EVAL: a Lua script does the work on Redis');
    expect(modeWireLine('evalsha')).toBe('EVALSHA calls in one pipeline (script loaded first)');
    expect(modeWireLine('multikey')).toMatch(/MSET\/MGET/);
    expect(modeWireLine('auto')).toBe('no pipeline call: the client library batches same-tick commands');
  });

  it('titles a run by its operations, not its wire commands', () => {
    expect(workloadTitle({ n: 12, operations: 10, command: 'INCR', valueBytes: 0 })).toBe('10 × INCR');
    expect(workloadTitle({ n: 10, command: 'INCR', valueBytes: 0 })).toBe('10 × INCR');
  });
});

describe('the empty results’ heading names the modes chosen, not "both modes"', () => {
  it('one, two or several modes', () => {
    expect(pressRunTitle(['multi'])).toBe('Press Run to see one MULTI/EXEC transaction');
    expect(pressRunTitle(['sequential', 'pipeline'])).toBe('Press Run to see sequential and one pipeline side by side');
    expect(pressRunTitle(['pipeline', 'multi', 'eval', 'evalsha'])).toBe(
      'Press Run to see one pipeline, one MULTI/EXEC transaction, one EVAL script and EVALSHA calls in one pipeline side by side',
    );
    expect(pressRunTitle(['pipeline', 'chunked'], 10_000)).toBe('Press Run to see one pipeline and chunks of 10,000 side by side');
    expect(pressRunTitle([])).toBe('Pick a mode, then press Run');
  });
});
