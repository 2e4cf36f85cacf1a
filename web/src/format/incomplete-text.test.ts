import { describe, expect, it } from 'vitest';
import { TraceBuilder } from '../../../trace/format/trace-builder.ts';
import { header, sequentialTrace } from '../test-support/trace-fixtures.ts';
import { incompleteDetail, incompleteMark, incompleteUntil, measuredOverText } from './incomplete-text.ts';

function cut(reason: 'in-progress' | 'cancelled' | 'connection-lost' | 'failed', message?: string) {
  const b = new TraceBuilder(header('sequential', 10_000, 'INCR', 'cut'));
  for (let i = 0; i < 3_412; i++) b.addBatch({ writes: [{ atUs: 10 * i, bytes: 40, commands: 1 }], reads: [{ atUs: 10 * i + 5, bytes: 4, replies: 1 }], outcomes: [{ reply: i + 1 }] });
  b.addWrite({ atUs: 34_120, bytes: 40, commands: 1 });
  return b.partial({ reason, ...(message ? { message } : {}), omitted: ['redis-info', 'memory'] });
}

describe('incomplete runs in words', () => {
  it('say how far a run got, and why it stopped', () => {
    expect(incompleteMark(cut('in-progress'))).toBe('Measuring… 3,412 of 10,000 commands');
    expect(incompleteMark(cut('cancelled'))).toBe('Cancelled after 3,412 of 10,000 commands — incomplete');
    expect(incompleteMark(cut('connection-lost'))).toBe('Connection lost after 3,412 of 10,000 commands — incomplete');
    expect(incompleteMark(cut('failed'))).toBe('Failed after 3,412 of 10,000 commands — incomplete');
  });

  it('say "so far" of a run still measuring only, and where a run cut short stopped', () => {
    expect(incompleteUntil(cut('in-progress'))).toBe('so far');
    expect(incompleteUntil(cut('cancelled'))).toBe('until cancelled');
    expect(incompleteUntil(cut('connection-lost'))).toBe('until the connection was lost');
    expect(incompleteUntil(cut('failed'))).toBe('until it failed');
    expect(incompleteUntil(sequentialTrace(3))).toBeNull();
  });

  it('detail what was written, what came back, and what was not measured', () => {
    expect(incompleteDetail(cut('failed', 'Run failed: boom'))).toBe(
      '3,413 commands written, 3,412 replies arrived, of 10,000. Times and rates are over what was measured. '
      + 'Not measured: Redis INFO counts, memory samples (they need the whole run). Run failed: boom',
    );
    expect(measuredOverText(cut('cancelled'))).toBe('over the 3,412 commands measured');
  });

  it('say nothing of a whole run', () => {
    const whole = sequentialTrace(3);
    expect([incompleteMark(whole), incompleteDetail(whole), measuredOverText(whole)]).toEqual([null, null, null]);
  });
});
