import { describe, expect, it } from 'vitest';
import type { CommandName, RunMode } from '../../trace/format/trace-format.ts';
import { wireCommandCount, wireCommandName } from '../../trace/format/wire-layout.ts';
import { BATCH_SCRIPTS, SINGLE_SCRIPTS, scriptSha } from './lua-scripts.ts';
import { executionsOf, modePlan } from './mode-plan.ts';
import { workloadFor } from './run-workload.ts';

const NS = 'pipescope:test-run:';

describe('modePlan matches wire-layout.ts position for position', () => {
  it.each([
    ['multi', 'INCR'], ['multi', 'SET'], ['multi', 'PING'], ['multi', 'GET'],
    ['eval', 'INCR'], ['eval', 'SET'], ['eval', 'PING'], ['eval', 'GET'], ['eval', 'GET-COMPUTE-SET'],
    ['evalsha', 'INCR'], ['evalsha', 'SET'], ['evalsha', 'PING'], ['evalsha', 'GET'],
    ['multikey', 'SET'], ['multikey', 'GET'],
  ] as [RunMode, CommandName][])('%s %s', (mode, command) => {
    const operations = 7;
    const plan = modePlan(mode, workloadFor(command, NS, 3), operations);
    const wire = [...plan.batches()].flat();
    const run = { mode, command, operations, probes: { heldConnection: false } };
    expect(plan.total).toBe(wireCommandCount(run));
    expect(wire).toHaveLength(plan.total);
    expect(wire.map(([name]) => name)).toEqual(wire.map((_, i) => wireCommandName(run, i)));
  });
});

describe('modePlan: the commands', () => {
  it('eval passes the keys in KEYS: one per operation, or the one key all use', () => {
    const [[set]] = [...modePlan('eval', workloadFor('SET', NS, 2), 3).batches()] as unknown as [[unknown[]]];
    expect(set).toEqual(['EVAL', BATCH_SCRIPTS.SET, '3', `${NS}key:0`, `${NS}key:1`, `${NS}key:2`, '3', Buffer.from('pi')]);
    const [[incr]] = [...modePlan('eval', workloadFor('INCR', NS, 0), 1000).batches()] as unknown as [[unknown[]]];
    expect(incr).toEqual(['EVAL', BATCH_SCRIPTS.INCR, '1', `${NS}counter`, '1000']);
    const [[ping]] = [...modePlan('eval', workloadFor('PING', NS, 0), 4).batches()] as unknown as [[unknown[]]];
    expect(ping).toEqual(['EVAL', BATCH_SCRIPTS.PING, '0', '4']);
  });

  it('evalsha loads the one-operation script before t0 and calls it by its SHA1', () => {
    const plan = modePlan('evalsha', workloadFor('INCR', NS, 0, { operation: 1, kind: 'queueing' }), 3);
    const sha = scriptSha(SINGLE_SCRIPTS.INCR!);
    expect(plan.setup).toEqual([['SCRIPT', 'LOAD', SINGLE_SCRIPTS.INCR]]);
    expect([...plan.batches()]).toEqual([[['EVALSHA', sha, '1', `${NS}counter:0`], ['EVALSHA', sha], ['EVALSHA', sha, '1', `${NS}counter:2`]]]);
  });

  it('multi with a queueing error sends INCR without its key at that place', () => {
    const [batch] = [...modePlan('multi', workloadFor('INCR', NS, 0, { operation: 1, kind: 'queueing' }), 3).batches()];
    expect(batch).toEqual([['MULTI'], ['INCR', `${NS}counter:0`], ['INCR'], ['INCR', `${NS}counter:2`], ['EXEC']]);
  });

  it('refuses what a mode cannot do', () => {
    expect(() => modePlan('multikey', workloadFor('INCR', NS, 0), 2)).toThrow('INCR has no multi-key form.');
    expect(() => modePlan('multi', workloadFor('GET-COMPUTE-SET', NS, 0), 2)).toThrow(/cannot be queued in MULTI/);
    expect(() => modePlan('pipeline', workloadFor('PING', NS, 0), 2)).toThrow(/not a plan/);
  });
});

describe('executionsOf: what MONITOR logs and INFO counts (measured on Redis 7.0.15)', () => {
  const base = { command: 'INCR' as const, operations: 4 };
  it('a queueing error in MULTI: only MULTI and EXEC run', () => {
    const e = executionsOf({ ...base, mode: 'multi', injectedError: { operation: 1, kind: 'queueing' } });
    expect([0, 1, 2, 3, 4, 5].map(e.executed)).toEqual([true, false, false, false, false, true]);
    expect(e).toMatchObject({ executedCount: 2, luaCalls: 0 });
  });

  it('a queueing error in a pipeline or evalsha: that command alone is refused', () => {
    for (const mode of ['pipeline', 'evalsha'] as const) {
      const e = executionsOf({ ...base, mode, injectedError: { operation: 2, kind: 'queueing' } });
      expect([0, 1, 2, 3].map(e.executed)).toEqual([true, true, false, true]);
      expect(e.executedCount).toBe(3);
      expect(e.luaCalls).toBe(mode === 'evalsha' ? 3 : 0);
    }
  });

  it("eval: the script's redis.call commands, up to and including a failing one", () => {
    expect(executionsOf({ ...base, mode: 'eval', injectedError: null }).luaCalls).toBe(4);
    expect(executionsOf({ ...base, mode: 'eval', injectedError: { operation: 1, kind: 'runtime' } }).luaCalls).toBe(2);
    expect(executionsOf({ command: 'GET-COMPUTE-SET', operations: 5, mode: 'eval', injectedError: null }).luaCalls).toBe(10);
  });
});
