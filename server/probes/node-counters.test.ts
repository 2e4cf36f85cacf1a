// One node's INFO counters over a run: errorstats and commandstats' rejected_calls deltas (names that
// did not change left out), read and write events with the INFO calls' own taken out, and whether the
// node counted any command but the run's.
import { describe, expect, it } from 'vitest';
import { nodeCounters, parseRefusals } from './node-counters.ts';

const info = (reads: number, writes: number, commands: number, extra: string[]) =>
  ['# Stats', `total_reads_processed:${reads}`, `total_writes_processed:${writes}`, `total_commands_processed:${commands}`, ...extra, ''].join('\r\n');

describe('nodeCounters', () => {
  it('the deltas of errorstats and rejected_calls, unchanged ones left out', () => {
    const before = info(100, 90, 50, [
      '# Commandstats', 'cmdstat_mset:calls=0,usec=0,usec_per_call=0.00,rejected_calls=2,failed_calls=0', 'cmdstat_info:calls=9,usec=90,usec_per_call=10.00,rejected_calls=0,failed_calls=0',
      '# Errorstats', 'errorstat_CROSSSLOT:count=2',
    ]);
    const after = info(103, 93, 52, [
      '# Commandstats', 'cmdstat_mset:calls=0,usec=0,usec_per_call=0.00,rejected_calls=3,failed_calls=0', 'cmdstat_info:calls=10,usec=100,usec_per_call=10.00,rejected_calls=0,failed_calls=0',
      'cmdstat_exec:calls=0,usec=0,usec_per_call=0.00,rejected_calls=1,failed_calls=0',
      '# Errorstats', 'errorstat_CROSSSLOT:count=4', 'errorstat_MOVED:count=1',
    ]);
    expect(nodeCounters('n1', before, after, 1)).toEqual({
      node: 'n1', reads: 2, writes: 2, errors: { CROSSSLOT: 2, MOVED: 1 }, rejectedCalls: { mset: 1, exec: 1 }, exclusive: true,
    });
    expect(nodeCounters('n1', before, after, 0).exclusive).toBe(false);
  });

  it('parseRefusals reads both sections of INFO all', () => {
    const parsed = parseRefusals(info(1, 1, 1, ['cmdstat_set:calls=1,usec=1,usec_per_call=1.00,rejected_calls=7,failed_calls=0', 'errorstat_ERR:count=3']));
    expect([...parsed.errors]).toEqual([['ERR', 3]]);
    expect([...parsed.rejectedCalls]).toEqual([['set', 7]]);
  });
});
