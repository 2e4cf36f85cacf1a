// The wire commands of the v3 batching modes, built from a run's workload: what the drivers write for
// multi (MULTI, the n commands, EXEC: one batch), eval (one EVAL of a fixed script doing the n
// operations), evalsha (n EVALSHA calls of the one-operation script, one batch; the script is loaded
// with SCRIPT LOAD before t0, on the control connection: set-up, not measured) and multikey (one
// MSET or MGET). The layout matches trace/format/wire-layout.ts (wireCommandCount, wireCommandName) position
// for position; mode-plan.test.ts checks it. Also here: which wire commands Redis executes (MONITOR
// logs), for the server tracer and the INFO counters.
import type { RunInfo, RunMode } from '../../trace/format/trace-format.ts';
import { multiKeyCommand, operationAt, workCommandCount } from '../../trace/format/wire-layout.ts';
import { BATCH_SCRIPTS, SINGLE_SCRIPTS, scriptSha } from './lua-scripts.ts';
import type { InjectedError, Workload } from './run-workload.ts';

/** One command as it goes on the wire: its name, then its arguments. */
export type WireCommand = [name: string, ...args: (string | Buffer)[]];

/**
 * How a mode beyond plain pipelines puts its commands on the wire: batches, one after another; each
 * batch's commands are written at once (one pipeline), and its replies are all awaited before the
 * next batch is written. MULTI … EXEC is one batch of n + 2 commands; one EVAL or one MSET is a batch
 * of one; n EVALSHA calls are one batch of n.
 */
export interface WirePlan {
  /** Commands on the wire in all: run.n (without the held-connection PING). */
  readonly total: number;
  /** The batches in order; together they hold `total` commands. */
  batches(): Iterable<readonly WireCommand[]>;
  /** Commands for the control connection before t0 (SCRIPT LOAD for evalsha): set-up, not measured. */
  readonly setup: readonly WireCommand[];
}

export const PLAN_MODES: readonly RunMode[] = ['multi', 'eval', 'evalsha', 'multikey'];

/** The plan for `operations` operations of `workload` in a plan mode. */
export function modePlan(mode: RunMode, workload: Workload, operations: number): WirePlan {
  const command = workload.command;
  const op = (i: number): WireCommand => [command, ...workload.argsFor(i)];
  let batch: WireCommand[];
  let setup: WireCommand[] = [];
  switch (mode) {
    case 'multi':
      if (command === 'GET-COMPUTE-SET') throw new Error('GET-COMPUTE-SET cannot be queued in MULTI: each SET needs its GET\'s reply.');
      batch = [['MULTI']];
      for (let i = 0; i < operations; i++) batch.push(op(i));
      batch.push(['EXEC']);
      break;
    case 'eval': {
      const keys = distinctKeys(workload, operations);
      batch = [['EVAL', BATCH_SCRIPTS[command], String(keys.length), ...keys, String(operations), ...valueArg(workload)]];
      break;
    }
    case 'evalsha': {
      const script = SINGLE_SCRIPTS[command];
      if (!script) throw new Error(`${command} has no one-operation script for EVALSHA.`);
      const sha = scriptSha(script);
      setup = [['SCRIPT', 'LOAD', script]];
      batch = [];
      for (let i = 0; i < operations; i++) {
        const args = workload.argsFor(i);
        // A malformed operation (a queueing error) is an EVALSHA without its numkeys: Redis refuses it unrun.
        if (command !== 'PING' && args.length === 0) batch.push(['EVALSHA', sha]);
        else if (command === 'PING') batch.push(['EVALSHA', sha, '0']);
        else batch.push(['EVALSHA', sha, '1', args[0]!, ...args.slice(1)]);
      }
      break;
    }
    case 'multikey': {
      const name = multiKeyCommand(command);
      if (!name) throw new Error(`${command} has no multi-key form.`);
      const wire: WireCommand = [name];
      for (let i = 0; i < operations; i++) wire.push(...(name === 'MSET' ? workload.argsFor(i) : workload.argsFor(i).slice(0, 1)));
      batch = [wire];
      break;
    }
    default:
      throw new Error(`${mode} runs write the workload itself, not a plan.`);
  }
  const batches = [batch];
  return { total: batch.length, setup, batches: () => batches };
}

/** The keys a batch script gets in KEYS: one per operation, or the one key every operation uses. */
function distinctKeys(workload: Workload, operations: number): string[] {
  if (workload.command === 'PING') return [];
  const first = String(workload.argsFor(0)[0]);
  if (operations === 1 || String(workload.argsFor(operations - 1)[0]) === first && String(workload.argsFor(1)[0]) === first) return [first];
  return Array.from({ length: operations }, (_, i) => String(workload.argsFor(i)[0]));
}

/** The SET value, passed once as the batch script's ARGV[2]. */
function valueArg(workload: Workload): (string | Buffer)[] {
  return workload.command === 'SET' ? [workload.argsFor(0)[1]!] : [];
}

type ExecutedRun = Pick<RunInfo, 'mode' | 'command' | 'operations' | 'injectedError'>;

/** What Redis executes of a run's wire commands, as MONITOR logs it and INFO counts it. */
export interface Executions {
  /** Whether Redis executes wire command `index` (MONITOR logs it for the run's connection). */
  executed(index: number): boolean;
  /** Wire commands executed (a command refused while queueing, or discarded by EXECABORT, is not). */
  executedCount: number;
  /** Commands scripts run with redis.call: MONITOR logs them as `[0 lua]`, INFO counts them. */
  luaCalls: number;
}

/**
 * Measured on Redis 7.0.15: a command refused for its arity is neither logged by MONITOR nor counted
 * in total_commands_processed; inside MULTI it makes EXEC abort (EXEC itself is logged and counted,
 * the queued commands are not); queued commands are logged at EXEC, before the EXEC line, in order;
 * an EVAL is logged before its `[0 lua]` lines; a redis.call that fails is logged and counted and
 * stops its script.
 */
export function executionsOf(run: ExecutedRun): Executions {
  const work = workCommandCount(run.mode, run.command, run.operations);
  const injected: InjectedError | null = run.injectedError;
  const queueing = injected?.kind === 'queueing';
  const perOperation = run.command === 'GET-COMPUTE-SET' ? 2 : 1;
  if (run.mode === 'multi' && queueing) {
    return { executed: (i) => i === 0 || i >= work - 1, executedCount: 2, luaCalls: 0 };
  }
  const wireRun = { mode: run.mode, command: run.command, operations: run.operations, probes: { heldConnection: false } };
  const refused = (i: number) => queueing && operationAt(wireRun, i) === injected!.operation;
  const luaCalls =
    run.mode === 'eval' ? (injected?.kind === 'runtime' ? injected.operation + 1 : run.operations * perOperation)
    : run.mode === 'evalsha' ? run.operations - (queueing ? 1 : 0)
    : 0;
  return { executed: (i) => !refused(i), executedCount: work - (queueing ? 1 : 0), luaCalls };
}
