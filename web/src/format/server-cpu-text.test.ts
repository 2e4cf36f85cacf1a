import { describe, expect, it } from 'vitest';
import { sequentialTrace } from '../test-support/trace-fixtures.ts';
import { serverCpuNote, serverCpuUs } from './server-cpu-text.ts';

describe('Redis CPU', () => {
  const doc = sequentialTrace(10);

  it('the measured figure, or why there is none', () => {
    expect(serverCpuUs({ ...doc, serverCpu: { source: 'proc-schedstat', totalUs: 73.2 } })).toBe(73.2);
    expect(serverCpuUs(doc)).toBeNull();
    const short = { ...doc, serverCpu: { source: 'redis-info-cpu' as const, unavailable: 'the run took under 10 ms: INFO\'s own work would be as large as the run\'s' } };
    expect(serverCpuUs(short)).toBeNull();
    expect(serverCpuNote(short)).toBe('Redis CPU not measured (Redis INFO cpu): the run took under 10 ms: INFO\'s own work would be as large as the run\'s.');
    expect(serverCpuNote(doc)).toBeNull();
  });
});
