// What one run will do, worked out before anything is opened or sent: the request's flat fields
// (a RunSpec, or the few a sweep or a test passes) grouped by what they are about — the workload
// and how it goes on the wire, the network between client and Redis, the probes, the neighbour
// client, the engine. Pure apart from the run's id; every command the run will send is checked by
// the command guard here, so a refused run fails before a single connection is made.
import { newRunId } from '../run-id.ts';
import { commandTakesValue, serverProbes, type ClusterKeys, type ClusterSplit, type Engine, type RunSpec } from '../../../trace/format/run-request.ts';
import type { CommandName, Neighbor, RunInfo, RunMode } from '../../../trace/format/trace-format.ts';
import { wireCommandCount, workCommandCount, type WireRun } from '../../../trace/format/wire-layout.ts';
import { assertAllowed, hashTaggedNamespaceFor, namespaceFor } from '../../protocol/command-guard.ts';
import { PLAN_MODES, executionsOf, modePlan, type Executions, type WirePlan } from '../../protocol/mode-plan.ts';
import { workloadFor, type InjectedError, type Workload } from '../../protocol/run-workload.ts';
import { monitorLineBytes } from '../../probes/monitor-probe.ts';

/** What one run needs to know; the optional fields default to ioredis, direct, untraced, warm, one repeat. */
export type RunParameters = Pick<RunSpec, 'command' | 'n' | 'valueBytes'> &
  Partial<Pick<RunSpec, 'rttMs' | 'jitterMs' | 'serverTrace' | 'monitor' | 'strace' | 'engine' | 'chunk' | 'memory' | 'cold' | 'kernelTcp' | 'chunkPauseMs' | 'errorAt' | 'errorKind'>> &
  Partial<Pick<RunSpec, 'neighborRate' | 'neighborCommand' | 'heldConnection' | 'clusterKeys' | 'clusterSplit' | 'reshard'>> & {
    /** Which repeat of its request this run is, from 0 (recorded as run.repeat). */
    repeat?: number;
    /** The request's memory repeat: it samples memory, and its time is not compared (run.memoryRepeat). */
    memoryRepeat?: boolean;
    /**
     * Commands per slice of a long ioredis pipeline (drivers/ioredis-driver.ts; default PIPELINE_SLICE).
     * Infinity hands it to ioredis in one piece, as before slicing: for measuring what slicing costs.
     */
    pipelineSlice?: number;
  };

/** The work and how it goes on the wire. */
export interface WorkloadPlan {
  command: CommandName;
  /** Operations asked for (run.operations). */
  operations: number;
  /** The value's size; 0 for a command that takes none. */
  valueBytes: number;
  commands: Workload;
  /** The wire plan of the modes beyond plain pipelines (multi, eval, evalsha, multikey); null otherwise. */
  wirePlan: WirePlan | null;
  /** GET-COMPUTE-SET run step by step: each SET waits for its GET's reply. */
  dependent: boolean;
  /** Commands per pipeline: run.chunk in chunked mode, otherwise all of them. */
  chunk: number;
  /** Chunked mode: ms slept between one chunk's last reply and the next chunk. */
  chunkPauseMs: number;
  injectedError: InjectedError | null;
  /** Skip the warm-up: the first command pays the connection's first-call costs. */
  cold: boolean;
}

/** What is on the wire in all: the run's wire commands, which of them Redis executes. */
export interface WireCount {
  run: WireRun;
  /** Wire commands, the held-connection PING included (run.n). */
  n: number;
  /** Wire commands of the work alone (without the held PING). */
  work: number;
  executions: Executions;
}

/** Between the client and Redis: the delay proxy's added round trip and jitter (ms; 0 = direct). */
export interface NetworkPlan {
  addedRttMs: number;
  jitterMs: number;
}

export type ProbesPlan = RunInfo['probes'];

/** Another client on its own connection, issuing `command` at `ratePerSec` around the run. */
export interface NeighborPlan {
  ratePerSec: number;
  command: Neighbor['command'];
  valueBytes: number;
}

export interface EnginePlan {
  name: Engine;
  pipelineSlice?: number;
}

/** On a Redis Cluster: the run's keys spread over slots or under one hash tag; the raw pipeline's nodes at once or in turn. */
export interface ClusterPlan {
  keys: ClusterKeys;
  split: ClusterSplit;
}

export interface RunPlan {
  id: string;
  /** Every key of the run lives under this prefix. */
  namespace: string;
  mode: RunMode;
  repeat: number;
  memoryRepeat: boolean;
  engine: EnginePlan;
  workload: WorkloadPlan;
  wire: WireCount;
  network: NetworkPlan;
  probes: ProbesPlan;
  neighbor: NeighborPlan | null;
  cluster: ClusterPlan;
  /** Private cluster only: one slot of the run's keys moved to another master during the run (runs/cluster-reshard.ts). */
  reshard: boolean;
}

export { newRunId };

/** The plan of one run in `mode`; throws for a combination that cannot run or a command the guard refuses. */
export function planRun(mode: RunMode, spec: RunParameters, id: string = newRunId()): RunPlan {
  const cluster: ClusterPlan = { keys: spec.clusterKeys ?? 'spread', split: spec.clusterSplit ?? 'parallel' };
  const namespace = cluster.keys === 'hashtag' ? hashTaggedNamespaceFor(id) : namespaceFor(id);
  const valueBytes = commandTakesValue(spec.command) ? spec.valueBytes : 0;
  const injectedError = spec.errorAt === undefined ? null : { operation: spec.errorAt, kind: spec.errorKind ?? 'runtime' };
  const commands = workloadFor(spec.command, namespace, valueBytes, injectedError);
  const wirePlan = PLAN_MODES.includes(mode) ? modePlan(mode, commands, spec.n) : null;
  assertRunAllowed(namespace, commands, spec.n, wirePlan, injectedError?.operation);
  if (mode === 'chunked' && !spec.chunk) throw new Error('A chunked run needs a chunk size.');
  const dependent = spec.command === 'GET-COMPUTE-SET';
  if (dependent && mode !== 'sequential' && mode !== 'eval') throw new Error('GET-COMPUTE-SET runs sequentially or as one EVAL: each SET needs its GET\'s reply.');
  const { monitor, strace } = serverProbes({ serverTrace: spec.serverTrace ?? false, monitor: spec.monitor ?? false, strace: spec.strace ?? false });
  const probes: ProbesPlan = { monitor, strace, memory: spec.memory ?? false, kernelTcp: spec.kernelTcp ?? false, heldConnection: spec.heldConnection ?? false };
  const run: WireRun = { mode, command: spec.command, operations: spec.n, probes };
  return {
    id,
    namespace,
    mode,
    repeat: spec.repeat ?? 0,
    memoryRepeat: spec.memoryRepeat ?? false,
    engine: { name: spec.engine ?? 'ioredis', ...(spec.pipelineSlice === undefined ? {} : { pipelineSlice: spec.pipelineSlice }) },
    workload: {
      command: spec.command,
      operations: spec.n,
      valueBytes,
      commands,
      wirePlan,
      dependent,
      chunk: mode === 'chunked' ? spec.chunk! : spec.n,
      chunkPauseMs: mode === 'chunked' ? spec.chunkPauseMs ?? 0 : 0,
      injectedError,
      cold: spec.cold ?? false,
    },
    wire: { run, n: wireCommandCount(run), work: workCommandCount(mode, spec.command, spec.n), executions: executionsOf({ ...run, injectedError }) },
    network: { addedRttMs: spec.rttMs ?? 0, jitterMs: spec.jitterMs ?? 0 },
    probes,
    // The neighbour reads values of the request's size, whether or not the run's command takes one.
    neighbor: (spec.neighborRate ?? 0) > 0 ? { ratePerSec: spec.neighborRate!, command: spec.neighborCommand ?? 'INCR', valueBytes: spec.valueBytes } : null,
    cluster,
    reshard: spec.reshard ?? false,
  };
}

/**
 * The MONITOR lines the run's own commands make, at most (bytes): every command of a plan; otherwise n
 * times the line of the operation with the longest key (the last), two for a GET-COMPUTE-SET step (its
 * SET's value is a number), and the held PING. Scripts' redis.call lines come on top for eval/evalsha.
 */
export function runMonitorBytes(plan: RunPlan): number {
  const { workload, wire } = plan;
  let bytes = wire.n > wire.work ? monitorLineBytes(['PING']) : 0;
  if (workload.wirePlan) {
    for (const batch of workload.wirePlan.batches()) for (const command of batch) bytes += monitorLineBytes(command);
    const args = workload.commands.argsFor(workload.operations - 1);
    return bytes + wire.executions.luaCalls * monitorLineBytes([workload.command.toLowerCase(), ...args]);
  }
  const args = workload.commands.argsFor(workload.operations - 1);
  const perOperation = workload.dependent
    ? monitorLineBytes(['GET', ...args]) + monitorLineBytes(['SET', ...args, 'x'.repeat(32)]) // computeNext's numbers, as text
    : monitorLineBytes([workload.command, ...args]);
  return bytes + workload.operations * perOperation;
}

/** True when the run goes through the delay proxy. */
export function proxied(network: NetworkPlan): boolean {
  return network.addedRttMs > 0 || network.jitterMs > 0;
}

/**
 * The command guard, before anything is sent: every command of a plan; otherwise the first and last
 * operations and the planted one (the workload's operations differ only in their key's index).
 */
function assertRunAllowed(namespace: string, workload: Workload, n: number, plan: WirePlan | null, injectedAt: number | undefined): void {
  const text = (args: readonly (string | Buffer)[]) => args.map((arg) => (typeof arg === 'string' ? arg : '<bytes>'));
  if (plan) {
    for (const batch of plan.batches()) for (const [name, ...args] of batch) assertAllowed(namespace, name, text(args));
    for (const [name, ...args] of plan.setup) assertAllowed(namespace, name, text(args));
    return;
  }
  for (const index of new Set([0, n - 1, ...(injectedAt === undefined ? [] : [injectedAt])])) {
    const args = workload.argsFor(index);
    if (workload.command === 'GET-COMPUTE-SET') {
      assertAllowed(namespace, 'GET', text(args));
      assertAllowed(namespace, 'SET', [...text(args), '0']);
    } else assertAllowed(namespace, workload.command, text(args));
  }
}
